import { ToBoolean, Trim } from '@kyc/platform';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsIn, IsOptional, IsString, Matches, MaxLength } from 'class-validator';

import { ID_PATTERN } from '../../shared/phones';

/**
 * POST /v1/msg/outbounds/send (spec 2, "Send outbound inputs"). The values of the outbound's
 * variables come as `var.<name>` fields (read by the VarValues decorator).
 */
export class SendOutboundDto {
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
  @IsIn([true], { message: 'user_authorized must be true: the user must have authorized being contacted' })
  user_authorized!: boolean;

  // Read from the raw body by VarValues (also as flat `var.<name>` fields); declared here for the document.
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'string', maxLength: 1024 },
    description:
      'Values of the outbound\'s variables by name (also accepted: flat `var.<name>` fields, or `{"value": ...}` per name)',
    example: { name: 'Ana' },
  })
  var?: Record<string, string>;
}
