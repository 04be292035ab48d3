import { ToBoolean, Trim } from '@kyc/platform';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import {
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
} from 'class-validator';

import { ID_PATTERN, LINE_PHONE_PATTERN } from '../../shared/phones';

export const CATEGORIES = ['MARKETING', 'AUTHENTICATION', 'UTILITY'] as const;
export const LANGUAGE_CODES = ['en', 'en_GB', 'en_US', 'es', 'es_AR', 'es_MX', 'es_ES', 'pt_BR', 'pt_PT'] as const;
export const TEMPLATE_TYPES = ['TEXT', 'IMAGE', 'VIDEO', 'DOCUMENT'] as const;
export const BUTTON_TYPES = ['QUICK_REPLY', 'URL', 'PHONE_NUMBER', 'COPY_CODE'] as const;

/** Form bodies carry `buttons` and `var` as JSON text; JSON bodies as arrays and objects. */
const parseJson = ({ value }: { value: unknown }) => {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
};

/**
 * An outbound message template (POST /v1/msg/outbounds, PUT /v1/msg/outbounds/{id}). The rules of
 * one field are here; the rules between fields (category, type, buttons, variables) are in
 * outbound-rules.ts, applied by the service before anything is stored.
 */
export class SaveOutboundDto {
  @IsString()
  @IsNotEmpty()
  @MaxLength(512)
  outbound_name!: string;

  @Trim()
  @IsString()
  @Matches(LINE_PHONE_PATTERN, { message: 'waba_phone_number must be a phone number with country code' })
  waba_phone_number!: string;

  @IsIn(CATEGORIES)
  category!: (typeof CATEGORIES)[number];

  @IsIn(LANGUAGE_CODES)
  language_code!: (typeof LANGUAGE_CODES)[number];

  @IsIn(TEMPLATE_TYPES)
  template_type!: (typeof TEMPLATE_TYPES)[number];

  @ToBoolean()
  @IsBoolean()
  is_notification!: boolean;

  @IsOptional()
  @IsString()
  @MaxLength(256)
  media_id?: string;

  @IsOptional()
  @IsString()
  @MaxLength(1024)
  content?: string;

  @IsOptional()
  @IsString()
  @MaxLength(60)
  header_text?: string;

  @IsOptional()
  @IsString()
  @MaxLength(60)
  footer?: string;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(90)
  code_expiration_minutes?: number;

  @IsOptional()
  @Transform(parseJson)
  @IsObject({ message: 'var must be an object {"<name>": {"value": "<example>"}}' })
  var?: Record<string, unknown>;

  @ApiPropertyOptional({
    type: 'array',
    items: { type: 'object', additionalProperties: true },
    description: 'Button objects (or their JSON text in a form field)',
  })
  @IsOptional()
  @Transform(parseJson)
  @IsArray({ message: 'buttons must be an array of button objects' })
  buttons?: unknown[];

  @IsOptional()
  @IsString()
  @MaxLength(128)
  @Matches(ID_PATTERN, { message: 'default_flow_id must be a flow id ([a-zA-Z0-9_.-]+)' })
  default_flow_id?: string;
}
