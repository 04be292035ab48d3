import { Trim } from '@kyc/platform';
import { IsNotEmpty, IsString, Matches, MaxLength } from 'class-validator';

import { ID_PATTERN, LINE_PHONE_PATTERN } from '../../shared/phones';

/** POST /v1/msg/inbounds (create) and POST /v1/msg/inbounds/{id} (update): all three required. */
export class SaveInboundDto {
  @IsString()
  @MaxLength(128)
  @Matches(ID_PATTERN, { message: 'flow_id must be a flow id ([a-zA-Z0-9_.-]+)' })
  flow_id!: string;

  @Trim()
  @IsString()
  @IsNotEmpty()
  @MaxLength(256)
  activation_message!: string;

  @Trim()
  @IsString()
  @Matches(LINE_PHONE_PATTERN, { message: 'waba_phone_number must be a phone number with country code' })
  waba_phone_number!: string;
}
