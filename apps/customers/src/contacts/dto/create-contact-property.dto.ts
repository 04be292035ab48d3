import { ToBoolean, Trim } from '@kyc/platform';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import {
  IsBoolean,
  IsIn,
  IsOptional,
  IsString,
  Length,
  Validate,
  ValidationArguments,
  ValidatorConstraint,
  ValidatorConstraintInterface,
} from 'class-validator';

import { CONTACT_PROPERTY_TYPES, ContactPropertyType } from '../contact-property.entity';

/** enum_values: comma-separated text, repeated form fields or a JSON list; trimmed, empty items dropped. */
const toEnumValues = ({ value }: { value: unknown }) => {
  if (value === undefined || value === null) return value;
  const items: unknown = Array.isArray(value) ? value : typeof value === 'string' ? value.split(',') : value;
  return Array.isArray(items)
    ? (items as unknown[]).map((v) => (typeof v === 'string' ? v.trim() : v)).filter((v) => v !== '')
    : items;
};

/** enum_values: required (1 to 100 distinct values of 1 to 100 characters) for type enum, refused for the others. */
@ValidatorConstraint({ name: 'enumValues' })
class EnumValuesRule implements ValidatorConstraintInterface {
  private problem(value: unknown, type: unknown): string | null {
    if (type !== 'enum') return value === undefined ? null : 'enum_values is only allowed for type enum';
    if (!Array.isArray(value) || value.length === 0)
      return 'enum_values is required for type enum (comma-separated values)';
    if (value.length > 100) return 'enum_values takes at most 100 values';
    if (value.some((v) => typeof v !== 'string' || v.length > 100))
      return 'each enum value must be text of 1 to 100 characters';
    if (new Set(value).size !== value.length) return 'enum_values must not repeat a value';
    return null;
  }

  validate(value: unknown, args: ValidationArguments): boolean {
    return this.problem(value, (args.object as CreateContactPropertyDto).type) === null;
  }

  defaultMessage(args: ValidationArguments): string {
    return this.problem(args.value, (args.object as CreateContactPropertyDto).type) ?? '';
  }
}

export class CreateContactPropertyDto {
  @ApiProperty({ maxLength: 100 })
  @Trim()
  @IsString()
  @Length(1, 100, { message: 'name must be 1 to 100 characters' })
  name!: string;

  @ApiProperty({ enum: CONTACT_PROPERTY_TYPES })
  @IsIn(CONTACT_PROPERTY_TYPES, { message: `type must be one of ${CONTACT_PROPERTY_TYPES.join(', ')}` })
  type!: ContactPropertyType;

  @ApiPropertyOptional({ description: 'Required for type enum only: comma-separated values', example: 'gold,silver' })
  @Transform(toEnumValues)
  @Validate(EnumValuesRule)
  enum_values?: string[];

  @ApiPropertyOptional({ description: 'Hides the property from contact details', default: false })
  @IsOptional()
  @ToBoolean()
  @IsBoolean({ message: 'hidden must be true or false' })
  hidden?: boolean;
}
