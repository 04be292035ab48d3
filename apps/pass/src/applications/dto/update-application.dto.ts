import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsInt, IsOptional, IsString, Max, MaxLength, Min, MinLength, ValidateIf } from 'class-validator';

import {
  ACR_VALUES,
  ApplicationScopes,
  EmailDomains,
  RedirectUris,
  RequiredAcr,
  RestrictedScopes,
  WebMessageOrigins,
} from './application-fields';

/** PATCH /v1/admin/applications/{client_id}: the fields given replace the stored ones (null clears a policy). */
export class UpdateApplicationDto {
  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  name?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @RedirectUris()
  redirect_uris?: string[];

  @ApiPropertyOptional()
  @IsOptional()
  @ApplicationScopes()
  scopes?: string[];

  @ApiPropertyOptional()
  @IsOptional()
  @RestrictedScopes()
  restricted_scopes?: string[];

  @ApiPropertyOptional()
  @IsOptional()
  @IsBoolean()
  allows_web_message?: boolean;

  @ApiPropertyOptional()
  @IsOptional()
  @WebMessageOrigins()
  allowed_web_message_origins?: string[];

  @ApiPropertyOptional()
  @IsOptional()
  @EmailDomains()
  allowed_email_domains?: string[];

  @ApiPropertyOptional({ enum: ACR_VALUES, nullable: true })
  @ValidateIf((_, v) => v !== undefined && v !== null)
  @RequiredAcr()
  required_acr?: string | null;

  @ApiPropertyOptional({ nullable: true })
  @ValidateIf((_, v) => v !== undefined && v !== null)
  @IsInt()
  @Min(60)
  @Max(31_536_000)
  max_auth_age?: number | null;

  @ApiPropertyOptional()
  @IsOptional()
  @IsBoolean()
  ciba_enabled?: boolean;

  @ApiPropertyOptional({ description: 'PKCE S256 required (cannot be turned off for a public client)' })
  @IsOptional()
  @IsBoolean()
  require_pkce?: boolean;
}
