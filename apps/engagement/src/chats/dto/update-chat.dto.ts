import { ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsEmail, IsIn, IsOptional, Matches, MaxLength, ValidateIf } from 'class-validator';

import { CHAT_STATUSES, ChatStatus } from '../chat.entity';

/** PUT /v1/engagement/chat/agent/{chat_id}: a new owner, a new status, or both (at least one; tags optional). */
export class UpdateChatDto {
  @ApiPropertyOptional({ description: "The new owner's e-mail", example: 'ana@acme.com' })
  @ValidateIf((o: UpdateChatDto) => o.owner !== undefined || (o.status === undefined && o.tags === undefined))
  @IsEmail({}, { message: "owner must be an agent's e-mail (give owner, status or both)" })
  @MaxLength(254)
  owner?: string;

  @ApiPropertyOptional({ enum: CHAT_STATUSES })
  @IsOptional()
  @IsIn(CHAT_STATUSES)
  status?: ChatStatus;

  @ApiPropertyOptional({ description: 'Replaces the chat tags', type: [String], example: ['vip'] })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(20)
  @Matches(/^[\p{L}\p{N}_.:-]{1,50}$/u, { each: true, message: 'each tag is 1 to 50 letters, digits, _ . : -' })
  tags?: string[];
}
