import { IsIn, IsOptional, IsString, MaxLength } from 'class-validator';

/**
 * The forms of the sign-in pages. What a person types is checked by InteractionsService, which answers
 * the page again with a notice in their language (never the JSON envelope); the DTOs only bound sizes.
 */

/** Sign-in page: the e-mail to send the one-time code to (`resend`: the code page's "send another code"). */
export class EmailFormDto {
  @IsString()
  @MaxLength(320)
  email!: string;

  @IsOptional()
  @IsIn(['1'])
  resend?: '1';
}

/** Code page: the code received by e-mail, and the address it went to (shown again on the page). */
export class CodeFormDto {
  @IsString()
  @MaxLength(40)
  code!: string;

  @IsOptional()
  @IsString()
  @MaxLength(320)
  email?: string;
}

/** Consent page. */
export class ConsentFormDto {
  @IsIn(['allow', 'deny'])
  decision!: 'allow' | 'deny';
}
