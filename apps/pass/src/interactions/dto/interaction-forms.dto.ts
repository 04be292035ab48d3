import { IsEmail, IsIn, IsString, Matches, MaxLength } from 'class-validator';

/** Sign-in page: the e-mail to send the one-time code to. */
export class EmailFormDto {
  @IsEmail({}, { message: 'email must be an e-mail address' })
  @MaxLength(254)
  email: string;
}

/** Sign-in page: the code received by e-mail. */
export class CodeFormDto {
  @IsString()
  @Matches(/^\d{6}$/, { message: 'code must be the 6 digits of the e-mail' })
  code: string;
}

/** Consent page. */
export class ConsentFormDto {
  @IsIn(['allow', 'deny'])
  decision: 'allow' | 'deny';
}
