import { Trim } from '@kyc/platform';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsString, Matches, ValidateIf } from 'class-validator';

import { LINK_LANGUAGES, LinkLanguage, OUTBOUND_ID_PATTERN } from './access-link.dto';

/** POST /v1/processes/{id}/send-link (spec 2, Processes): the process's link by messaging app. */
export class SendLinkDto {
  @ApiProperty({ enum: ['msgapp'], example: 'msgapp' })
  @IsIn(['msgapp'], { message: 'message_channel must be msgapp' })
  message_channel!: 'msgapp';

  @ApiProperty({ enum: LINK_LANGUAGES, example: 'es' })
  @IsIn(LINK_LANGUAGES, { message: 'lang must be one of es, en, pt (ISO 639-1, lowercase)' })
  lang!: LinkLanguage;

  @ApiProperty({ description: 'Country calling code with the plus sign', example: '+57' })
  @Trim()
  @IsString()
  @Matches(/^\+[1-9][0-9]{0,3}$/, { message: 'phone_country_code must be a calling code with a plus sign, e.g. +57' })
  phone_country_code!: string;

  @ApiProperty({ description: 'Without the country code (digits)', example: '3001234567' })
  @Trim()
  @IsString()
  @Matches(/^[0-9]{4,14}$/, { message: 'phone_number must be the number without country code (4 to 14 digits)' })
  phone_number!: string;

  @ApiPropertyOptional({
    description: 'Engagement outbound to send; defaults to IDENTITY_SEND_LINK_OUTBOUND_ID',
  })
  @ValidateIf((o: SendLinkDto) => o.outbound_id !== undefined)
  @IsString()
  @Matches(OUTBOUND_ID_PATTERN, { message: 'outbound_id must be an outbound id (OTB…)' })
  outbound_id?: string;
}
