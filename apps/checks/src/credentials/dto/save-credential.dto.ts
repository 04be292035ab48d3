import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsNotEmpty, IsOptional, IsString, MaxLength, registerDecorator } from 'class-validator';

/** Any JSON value (object, text, number, boolean) of at most 8 KB. */
function IsSmallJson(): PropertyDecorator {
  return (target: object, propertyName: string | symbol) =>
    registerDecorator({
      name: 'isSmallJson',
      target: target.constructor,
      propertyName: String(propertyName),
      options: { message: 'complements must be an object or a value of at most 8 KB' },
      validator: {
        validate: (v: unknown) =>
          v !== null &&
          ['object', 'string', 'number', 'boolean'].includes(typeof v) &&
          JSON.stringify(v).length <= 8_192,
      },
    });
}

/** POST /v1/config/credentials/{database_id} (JSON). */
export class SaveCredentialDto {
  @ApiProperty()
  @IsString({ message: 'username must be a string' })
  @IsNotEmpty({ message: 'username is required' })
  @MaxLength(256)
  username!: string;

  @ApiProperty({ description: 'Stored encrypted; never returned' })
  @IsString({ message: 'password must be a string' })
  @IsNotEmpty({ message: 'password is required' })
  @MaxLength(1024)
  password!: string;

  @ApiPropertyOptional({
    description: 'Additional authentication complements (object or value); stored encrypted, never returned',
  })
  @IsOptional()
  @IsSmallJson()
  complements?: unknown;
}
