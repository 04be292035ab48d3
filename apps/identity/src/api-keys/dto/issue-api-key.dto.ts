import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Matches, MaxLength, Min } from 'class-validator';

const toVersion = ({ value, obj }: { value: unknown; obj: Record<string, unknown> }) => {
  const v = value ?? obj.api_key_version;
  return v === undefined || v === '' ? undefined : Number(v);
};

/**
 * A backend key for the caller's tenant. (Web and SDK keys bound to flows come with the
 * identity-process feature.) The public names key_name and api_key_version are accepted too.
 */
export class CreateApiKeyDto {
  @ApiProperty({ enum: ['backend'] })
  @IsIn(['backend'], { message: 'key_type must be backend' })
  key_type: 'backend';

  @ApiProperty({ description: 'Key name (alias: key_name)' })
  @Transform(({ value, obj }) => value ?? obj.key_name)
  @IsString({ message: 'name is required for backend keys' })
  @MaxLength(128)
  name: string;

  @ApiPropertyOptional({ enum: [0, 1], description: 'API key version (alias: api_key_version); default 0' })
  @IsOptional()
  @Transform(toVersion)
  @IsIn([0, 1], { message: 'version must be 0 or 1' })
  version?: 0 | 1;

  @ApiPropertyOptional({ description: 'Lifetime in seconds; no expiry when omitted' })
  @IsOptional()
  @Transform(({ value }) => (value === undefined ? undefined : Number(value)))
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
  @Transform(({ value }) => (value === undefined ? undefined : Number(value)))
  @IsIn([0, 1], { message: 'api_key_version must be 0 or 1' })
  api_key_version?: 0 | 1;
}
