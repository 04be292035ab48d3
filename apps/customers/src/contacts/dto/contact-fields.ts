import { Trim } from '@kyc/platform';
import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsEmail, IsObject, IsOptional, IsString, Length, Matches } from 'class-validator';

/** E.164: a plus sign, the country code and the number, 8 to 15 digits in all. */
export const E164 = /^\+[1-9]\d{7,14}$/;

export const NameField = () =>
  applyDecorators(
    ApiPropertyOptional({ maxLength: 200 }),
    IsOptional(),
    Trim(),
    IsString(),
    Length(1, 200, { message: 'name must be 1 to 200 characters' }),
  );

export const EmailField = () =>
  applyDecorators(
    ApiPropertyOptional({ example: 'ana@example.com' }),
    IsOptional(),
    Trim(),
    IsEmail({}, { message: 'email must be an e-mail address' }),
  );

export const CustomValuesField = () =>
  applyDecorators(
    ApiPropertyOptional({
      description:
        'property id → value; forms send custom_property_values.<property_id>=<value>. Each value is checked against its property type',
      type: 'object',
      additionalProperties: true,
    }),
    IsOptional(),
    IsObject({ message: 'custom_property_values must be an object of property id → value' }),
  );

export const PhoneField = () =>
  applyDecorators(
    Trim(),
    IsString(),
    Matches(E164, { message: 'phone_number must be in E.164 format, e.g. +573001234567' }),
  );
