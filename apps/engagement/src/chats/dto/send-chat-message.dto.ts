import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsDefined, IsObject, IsOptional, IsString, Matches, MaxLength, MinLength, ValidateIf } from 'class-validator';

export const CHAT_TEXT_MAX = 4096;

/**
 * POST /v1/engagement/chat/{chat_id}/send (JSON): `text` (a session message, inside the provider's
 * 24-hour window) or `outbound_id` with its `var` values (an approved template, at any time).
 */
export class SendChatMessageDto {
  @ApiPropertyOptional({ description: 'Session message text (≤ 4096)', example: 'Hola Ana, ¿en qué te ayudo?' })
  @ValidateIf((o: SendChatMessageDto) => o.text !== undefined || o.outbound_id === undefined)
  @IsDefined({ message: 'give text (a session message) or outbound_id (a template)' })
  @IsString()
  @MinLength(1)
  @MaxLength(CHAT_TEXT_MAX)
  text?: string;

  @ApiPropertyOptional({ description: 'An APPROVED outbound of the chat line (outside the 24-hour window)' })
  @ValidateIf((o: SendChatMessageDto) => o.outbound_id !== undefined)
  @IsString()
  @Matches(/^OTB[a-f0-9]{32}$/, { message: 'outbound_id must be an outbound id (OTB…)' })
  outbound_id?: string;

  @ApiPropertyOptional({ description: 'Template values by variable name', example: { name: 'Ana' } })
  @IsOptional()
  @IsObject()
  var?: Record<string, string>;
}
