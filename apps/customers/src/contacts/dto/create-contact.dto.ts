import { Trim } from '@kyc/platform';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsDefined, IsString, Length, ValidateIf } from 'class-validator';

import { CustomValuesField, EmailField, NameField, PhoneField } from './contact-fields';

export class CreateContactDto {
  @ApiPropertyOptional({ description: 'E.164; required when external_id is missing', example: '+573001234567' })
  @ValidateIf((o: CreateContactDto) => o.phone_number !== undefined || o.external_id === undefined)
  @IsDefined({ message: 'phone_number is required when external_id is missing' })
  @PhoneField()
  phone_number?: string;

  @ApiPropertyOptional({ description: 'Your own identifier; required when phone_number is missing', maxLength: 128 })
  @ValidateIf((o: CreateContactDto) => o.external_id !== undefined || o.phone_number === undefined)
  @IsDefined({ message: 'external_id is required when phone_number is missing' })
  @Trim()
  @IsString()
  @Length(1, 128, { message: 'external_id must be 1 to 128 characters' })
  external_id?: string;

  @NameField()
  name?: string;

  @EmailField()
  email?: string;

  @CustomValuesField()
  custom_property_values?: Record<string, unknown>;
}
