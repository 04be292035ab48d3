import { ToBoolean } from '@kyc/platform';
import { IsBoolean, IsIn, IsOptional, IsString, Matches, MaxLength } from 'class-validator';

import { ID_PATTERN, LINE_PHONE_PATTERN } from '../../shared/phones';
import { CATEGORIES } from './save-outbound.dto';

export const OUTBOUND_STATUSES = [
  'APPROVED',
  'PENDING',
  'REJECTED',
  'PAUSED',
  'PENDING_DELETION',
  'DISABLED',
  'FLAGGED',
] as const;

/** GET /v1/msg/outbounds filters. */
export class ListOutboundsQuery {
  @IsOptional()
  @Matches(LINE_PHONE_PATTERN, { message: 'line must be a phone number with country code' })
  line?: string;

  @IsOptional()
  @IsIn(OUTBOUND_STATUSES)
  status?: (typeof OUTBOUND_STATUSES)[number];

  @IsOptional()
  @IsIn(CATEGORIES)
  category?: (typeof CATEGORIES)[number];

  @IsOptional()
  @Matches(ID_PATTERN, { message: 'default_flow_id must be a flow id ([a-zA-Z0-9_.-]+)' })
  @MaxLength(128)
  default_flow_id?: string;

  /** Text in the name, or an outbound id (a value starting with OTB). */
  @IsOptional()
  @IsString()
  @MaxLength(512)
  search?: string;

  @IsOptional()
  @IsString()
  start_key?: string;

  @IsOptional()
  @ToBoolean()
  @IsBoolean()
  paginated?: boolean;
}
