import { ApiProperty } from '@nestjs/swagger';
import { IsString, MaxLength, MinLength } from 'class-validator';

/** POST /v1/engagement/chat/{chat_id}/notes (JSON; not in the spec's table: how the `note` activity is written). */
export class AddNoteDto {
  @ApiProperty({ description: 'An internal note (not sent to the user), ≤ 4096', example: 'Cliente VIP: priorizar' })
  @IsString()
  @MinLength(1)
  @MaxLength(4096)
  text!: string;
}
