import { ApiProperty } from '@nestjs/swagger';

export class WebhookReceivedResponse {
  @ApiProperty({ example: true }) received!: boolean;
  @ApiProperty({
    description: 'What the callback did to its query',
    example: 'recorded',
    enum: ['recorded', 'retrying', 'ignored'],
  })
  outcome!: string;
}
