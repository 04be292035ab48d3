import { ToBoolean, Trim } from '@kyc/platform';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';

import { ID_PATTERN } from '../../shared/phones';

export const CAMPAIGN_MAX_RECIPIENTS = 100_000;

export class CampaignRecipientDto {
  @IsOptional()
  @IsString()
  @MaxLength(128)
  @Matches(ID_PATTERN, { message: 'account_id must match [a-zA-Z0-9_.-]+' })
  account_id?: string;

  @Trim()
  @IsString()
  @Matches(/^\+?[0-9]{1,4}$/, { message: 'phone_country_code must be a country calling code, e.g. +57' })
  phone_country_code!: string;

  @Trim()
  @IsString()
  @Matches(/^[0-9]{4,14}$/, { message: 'phone_number must be the phone number without country code (digits)' })
  phone_number!: string;

  /** The values of the outbound's variables for this recipient: {"name": "value"}. */
  @IsOptional()
  @IsObject()
  var?: Record<string, unknown>;
}

/** POST /v1/msg/campaigns (JSON): one approved outbound to many recipients, sent by durable jobs. */
export class CreateCampaignDto {
  @IsString()
  @Matches(/^OTB[0-9a-f]{32}$/, { message: 'outbound_id must be an outbound id (OTB…)' })
  outbound_id!: string;

  @IsOptional()
  @IsString()
  @MaxLength(128)
  @Matches(ID_PATTERN, { message: 'flow_id must be a flow id ([a-zA-Z0-9_.-]+)' })
  flow_id?: string;

  @ToBoolean()
  @IsBoolean()
  @IsIn([true], { message: 'user_authorized must be true: every recipient must have authorized being contacted' })
  user_authorized!: boolean;

  /** Messages per second (default ENGAGEMENT_CAMPAIGN_RATE). */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(1000)
  rate?: number;

  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(CAMPAIGN_MAX_RECIPIENTS)
  @ValidateNested({ each: true })
  @Type(() => CampaignRecipientDto)
  recipients!: CampaignRecipientDto[];
}
