import { Trim } from '@kyc/platform';
import { IsNotEmpty, IsString, Matches, MaxLength } from 'class-validator';

/** A tenant's own WhatsApp Business Platform credentials (PUT /v1/msg/provider-credentials). */
export class SaveProviderCredentialsDto {
  @Trim()
  @IsString()
  @IsNotEmpty()
  @MaxLength(1024)
  // sent as `Authorization: Bearer <access_token>`: header-safe characters only (RFC 6750), else every
  // later call to the provider fails
  @Matches(/^[\x21-\x7E]+$/, { message: 'access_token must be printable ASCII characters without spaces' })
  access_token!: string;

  @Trim()
  @IsString()
  @Matches(/^[A-Za-z0-9_-]{1,64}$/, { message: 'waba_id must be a WhatsApp Business Account id' })
  waba_id!: string;

  @IsString()
  @IsNotEmpty()
  @MaxLength(256)
  app_secret!: string;

  @IsString()
  @IsNotEmpty()
  @MaxLength(256)
  verify_token!: string;
}
