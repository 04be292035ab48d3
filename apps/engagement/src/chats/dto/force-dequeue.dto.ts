import { ApiProperty } from '@nestjs/swagger';
import { IsEmail, IsIn, MaxLength } from 'class-validator';

/** POST /v1/engagement/chat/{chat_id}/force-dequeue. */
export class ForceDequeueDto {
  @ApiProperty({ enum: ['specific_agent'] })
  @IsIn(['specific_agent'])
  assignment_type!: 'specific_agent';

  @ApiProperty({ description: "The agent's e-mail", example: 'ana@acme.com' })
  @IsEmail({}, { message: "target must be the agent's e-mail" })
  @MaxLength(254)
  target!: string;
}
