import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min, MinLength } from 'class-validator';

import {
  ACR_VALUES,
  ApplicationScopes,
  EmailDomains,
  RedirectUris,
  RequiredAcr,
  RestrictedScopes,
  WebMessageOrigins,
} from './application-fields';

/** POST /v1/admin/applications (platform operator). */
export class CreateApplicationDto {
  @ApiProperty({ description: 'Tenant that owns the application', example: 'acme' })
  @IsString()
  @Matches(/^[a-zA-Z0-9_.-]{1,64}$/, { message: 'tenant_id must be 1-64 characters of [a-zA-Z0-9_.-]' })
  tenant_id!: string;

  @ApiProperty({ example: 'Acme web' })
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  name!: string;

  @ApiProperty({ example: ['https://acme.example/callback'] })
  @RedirectUris()
  redirect_uris!: string[];

  @ApiProperty({ example: ['openid', 'email', 'identity'] })
  @ApplicationScopes()
  scopes!: string[];

  @ApiPropertyOptional({ example: ['validations:write'] })
  @IsOptional()
  @RestrictedScopes()
  restricted_scopes?: string[];

  @ApiPropertyOptional({ default: false })
  @IsOptional()
  @IsBoolean()
  allows_web_message?: boolean;

  @ApiPropertyOptional({ example: ['https://acme.example'] })
  @IsOptional()
  @WebMessageOrigins()
  allowed_web_message_origins?: string[];

  @ApiPropertyOptional({ description: 'Empty or absent: every domain', example: ['acme.example'] })
  @IsOptional()
  @EmailDomains()
  allowed_email_domains?: string[];

  @ApiPropertyOptional({ enum: ACR_VALUES, description: 'Assurance policy: level a sign-in must reach' })
  @IsOptional()
  @RequiredAcr()
  required_acr?: string;

  @ApiPropertyOptional({ description: 'Assurance policy: seconds after which a session must sign in again' })
  @IsOptional()
  @IsInt()
  @Min(60)
  @Max(31_536_000)
  max_auth_age?: number;

  @ApiPropertyOptional({ default: false })
  @IsOptional()
  @IsBoolean()
  ciba_enabled?: boolean;

  @ApiPropertyOptional({
    default: false,
    description:
      'A public client (single-page or native app): no client secret (token_endpoint_auth_method none), ' +
      'PKCE S256 always required, no CIBA. Fixed at registration.',
  })
  @IsOptional()
  @IsBoolean()
  public_client?: boolean;

  @ApiPropertyOptional({
    default: true,
    description: 'Authorization requests must carry a PKCE S256 code_challenge (always true for a public client)',
  })
  @IsOptional()
  @IsBoolean()
  require_pkce?: boolean;
}
