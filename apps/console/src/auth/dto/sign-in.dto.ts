import { Transform } from 'class-transformer';
import { IsEmail, IsOptional, IsString, Matches, MaxLength } from 'class-validator';

const trimmed = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);

export class RequestCodeDto {
  @Transform(trimmed)
  @IsEmail({}, { message: 'email must be an e-mail address' })
  @MaxLength(254)
  email!: string;

  /** The account (tenant id) to sign in to, when the e-mail is a user of several. */
  @IsOptional()
  @IsString()
  @MaxLength(100)
  tenant_id?: string;
}

export class SignInDto extends RequestCodeDto {
  @Transform(trimmed)
  @Matches(/^\d{6}$/, { message: 'code must be the 6 digits sent by e-mail' })
  code!: string;
}
