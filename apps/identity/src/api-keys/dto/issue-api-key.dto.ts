import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Matches, MaxLength, Min, ValidateIf } from 'class-validator';

const toNumber = ({ value }: { value: unknown }) => (value === undefined || value === '' ? undefined : Number(value));

/**
 * A backend key for the caller's tenant. (Web and SDK keys bound to flows come with the
 * identity-process feature.) The public names key_name and api_key_version are accepted as aliases.
 */
export class CreateApiKeyDto {
  @ApiProperty({ enum: ['backend'] })
  @IsIn(['backend'], { message: 'key_type must be backend' })
  key_type: 'backend';

  @ApiPropertyOptional({ description: 'Key name; required for backend keys (alias: key_name)' })
  @ValidateIf((o: { key_name?: string }) => o.key_name === undefined)
  @IsString({ message: 'name (or key_name) is required for backend keys' })
  @MaxLength(128)
  name?: string;

  @ApiPropertyOptional({ description: 'Alias of name' })
  @IsOptional()
  @IsString()
  @MaxLength(128)
  key_name?: string;

  @ApiPropertyOptional({ enum: [0, 1], description: 'API key version; default 0 (alias: api_key_version)' })
  @IsOptional()
  @Transform(toNumber)
  @IsIn([0, 1], { message: 'version must be 0 or 1' })
  version?: 0 | 1;

  @ApiPropertyOptional({ enum: [0, 1], description: 'Alias of version' })
  @IsOptional()
  @Transform(toNumber)
  @IsIn([0, 1], { message: 'api_key_version must be 0 or 1' })
  api_key_version?: 0 | 1;

  @ApiPropertyOptional({ description: 'Lifetime in seconds; no expiry when omitted' })
  @IsOptional()
  @Transform(toNumber)
  @IsInt()
  @Min(60)
  expires_in?: number;
}

/** Platform administration: a key for any tenant user (used to seed a tenant). */
export class AdminIssueApiKeyDto {
  @ApiProperty()
  @Matches(/^[a-z0-9][a-z0-9_-]{1,62}$/, { message: 'tenant_id is not a tenant id' })
  tenant_id: string;

  @ApiProperty()
  @IsString()
  @MaxLength(64)
  user_id: string;

  @ApiProperty()
  @IsString()
  @MaxLength(128)
  key_name: string;

  @ApiProperty({ enum: ['backend'] })
  @IsIn(['backend'], { message: 'key_type must be backend' })
  key_type: 'backend';

  @ApiPropertyOptional({ enum: [0, 1] })
  @IsOptional()
  @Transform(toNumber)
  @IsIn([0, 1], { message: 'api_key_version must be 0 or 1' })
  api_key_version?: 0 | 1;
}
