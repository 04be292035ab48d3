import { Trim } from '@kyc/platform';
import { IsOptional, IsString, Matches, MaxLength } from 'class-validator';

import { ID_PATTERN } from '../../shared/phones';

/** PATCH /v1/msg/lines/{waba_line}: the line's label and default flow. */
export class UpdateLineDto {
  @IsOptional()
  @Trim()
  @IsString()
  @MaxLength(100)
  name?: string;

  @IsOptional()
  @IsString()
  @MaxLength(128)
  @Matches(ID_PATTERN, { message: 'default_flow_id must be a flow id ([a-zA-Z0-9_.-]+)' })
  default_flow_id?: string;
}
