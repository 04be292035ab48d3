import { BodyOptional } from '@kyc/platform';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';

/** POST /v1/oauth2/userinfo (OIDC Core 5.3.1): the access token may come form-encoded (RFC 6750 2.2). */
/** The body may be left out. */
@BodyOptional()
export class UserinfoFormDto {
  @ApiPropertyOptional({ description: 'The access token, when not sent in the Authorization header' })
  @IsOptional()
  @IsString()
  @MaxLength(2000)
  access_token?: string;
}
