import { Trim } from '@kyc/platform';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsEmail, IsIn, IsString, Matches, MaxLength, ValidateIf } from 'class-validator';

export const LINK_CHANNELS = ['msgapp', 'email', 'sms'] as const;
export type LinkChannel = (typeof LINK_CHANNELS)[number];
export const LINK_LANGUAGES = ['es', 'en', 'pt'] as const;
export type LinkLanguage = (typeof LINK_LANGUAGES)[number];
/** An outbound message of the engagement service. */
export const OUTBOUND_ID_PATTERN = /^OTB[0-9a-f]{32}$/;
export const E164 = /^\+[1-9][0-9]{6,14}$/;

/**
 * POST /v1/web-integration/{flow}/process-access-link (spec 2, Web integration). The outbound's
 * template variables come as `var.<name>` fields (they need `outbound_id`).
 */
export class AccessLinkDto {
  @ApiProperty({ enum: LINK_CHANNELS, example: 'email' })
  @IsIn(LINK_CHANNELS, { message: 'message_channel must be one of msgapp, email, sms' })
  message_channel!: LinkChannel;

  @ApiPropertyOptional({
    description: 'E.164; required for the msgapp and sms channels',
    example: '+573001234567',
  })
  @ValidateIf((o: AccessLinkDto) => o.message_channel !== 'email' || o.phone_number !== undefined)
  @Trim()
  @IsString()
  @Matches(E164, { message: 'phone_number must be E.164: a plus and 7 to 15 digits, e.g. +573001234567' })
  phone_number?: string;

  @ApiPropertyOptional({ enum: LINK_LANGUAGES, default: 'es', description: 'ISO 639-1, lowercase' })
  @ValidateIf((o: AccessLinkDto) => o.lang !== undefined)
  @IsIn(LINK_LANGUAGES, { message: 'lang must be one of es, en, pt (ISO 639-1, lowercase)' })
  lang?: LinkLanguage;

  @ApiPropertyOptional({ description: 'Required when message_channel is email', example: 'ana@example.com' })
  @ValidateIf((o: AccessLinkDto) => o.message_channel === 'email' || o.email !== undefined)
  @Trim()
  @IsString()
  @MaxLength(254)
  @IsEmail({}, { message: 'email must be an e-mail address' })
  email?: string;

  @ApiPropertyOptional({ description: 'Engagement outbound; required when message_channel is msgapp' })
  @ValidateIf((o: AccessLinkDto) => o.message_channel === 'msgapp' || o.outbound_id !== undefined)
  @IsString()
  @Matches(OUTBOUND_ID_PATTERN, { message: 'outbound_id must be an outbound id (OTB…)' })
  outbound_id?: string;
}
