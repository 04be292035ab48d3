import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, Matches } from 'class-validator';

/** GET /v1/engagement/inbox/events: where to resume when the client cannot send the Last-Event-ID header. */
export class InboxEventsQuery {
  @ApiPropertyOptional({
    description:
      'The id of the last event received (the `Last-Event-ID` header, which a browser sends itself when it reconnects, wins over it)',
    example: '1042',
  })
  @IsOptional()
  @Matches(/^\d{1,15}$/, { message: 'last_event_id must be an event id (digits)' })
  last_event_id?: string;
}
