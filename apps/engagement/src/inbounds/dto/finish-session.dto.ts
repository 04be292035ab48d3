import { Trim } from '@kyc/platform';
import { IsString, Matches } from 'class-validator';

import { LINE_PHONE_PATTERN } from '../../shared/phones';

/** POST /v1/msg/finish-msgapp-session: ends the user's open conversation with a line. */
export class FinishSessionDto {
  @Trim()
  @Matches(LINE_PHONE_PATTERN, { message: 'waba_phone_number must be a phone number with country code' })
  waba_phone_number!: string;

  /** The user's phone with country code. */
  @Trim()
  @IsString()
  @Matches(LINE_PHONE_PATTERN, { message: 'phone_number must be the user phone with country code' })
  phone_number!: string;
}
