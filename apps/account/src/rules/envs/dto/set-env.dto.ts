import { ToBoolean } from '@kyc/platform';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsDefined, IsOptional, IsString, Matches, MaxLength } from 'class-validator';

export const ENV_NAME = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;

/** Creates the variable, or replaces its value (and secret flag) when the name exists. */
export class SetEnvDto {
  @ApiProperty({ example: 'API_TOKEN', description: 'A letter, then letters, digits or underscores (at most 64)' })
  @IsString({ message: 'name must be text' })
  @Matches(ENV_NAME, {
    message: 'name must start with a letter and have only letters, digits and underscores (at most 64 characters)',
  })
  name!: string;

  @ApiProperty({ maxLength: 4096 })
  @IsDefined({ message: 'value is required' })
  @IsString({ message: 'value must be text' })
  @MaxLength(4096, { message: 'value must be at most 4096 characters' })
  value!: string;

  @ApiPropertyOptional({
    default: false,
    description: 'Stored encrypted (AES-256-GCM); never returned, logged or audited',
  })
  @IsOptional()
  @ToBoolean()
  @IsBoolean({ message: 'is_secret must be true or false' })
  is_secret?: boolean;
}
