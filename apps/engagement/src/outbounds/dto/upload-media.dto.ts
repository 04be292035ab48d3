import { IsBase64Text, Trim } from '@kyc/platform';
import { IsIn, IsString, Matches, MaxLength } from 'class-validator';

import { LINE_PHONE_PATTERN } from '../../shared/phones';

export const MEDIA_TYPES = ['IMAGE', 'VIDEO', 'DOCUMENT'] as const;

/** POST /v1/msg/media: a header file for IMAGE, VIDEO and DOCUMENT outbounds, uploaded to the provider. */
export class UploadMediaDto {
  @Trim()
  @Matches(LINE_PHONE_PATTERN, { message: 'waba_phone_number must be a phone number with country code' })
  waba_phone_number!: string;

  @IsIn(MEDIA_TYPES)
  media_type!: (typeof MEDIA_TYPES)[number];

  @IsString()
  @MaxLength(255)
  @Matches(/^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*$/i, { message: 'mime_type must be a MIME type' })
  mime_type!: string;

  /** The file, base64. */
  @IsString()
  @IsBase64Text({ message: 'file must be the file content in base64' })
  file!: string;
}
