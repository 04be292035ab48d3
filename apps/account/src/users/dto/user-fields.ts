import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { IsEmail, IsIn, IsISO31661Alpha2, IsString, Matches, MaxLength } from 'class-validator';

/** Languages of user communications (spec 1, User). */
export const USER_LANGUAGES = ['es', 'en', 'pt'] as const;
export const USER_STATUSES = ['enabled', 'disabled'] as const;
/** E.164: `+`, a country code not starting with 0, at most 15 digits in all. */
export const E164_PATTERN = /^\+[1-9][0-9]{1,14}$/;

const trimmed = (value: unknown) => (typeof value === 'string' ? value.trim() : value);

/** The e-mail that becomes the username: trimmed and lowercased. */
export const UserEmail = () =>
  applyDecorators(
    Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim().toLowerCase() : value)),
    IsEmail({}, { message: 'email must be an e-mail address' }),
    MaxLength(254, { message: 'email must be at most 254 characters' }),
  );

/** ISO 3166-1 alpha-2 (the official list), stored uppercase. */
export const UserCountry = () =>
  applyDecorators(
    Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim().toUpperCase() : value)),
    IsISO31661Alpha2({ message: 'country must be an ISO 3166-1 alpha-2 country code (e.g. CO, MX, BR)' }),
  );

export const UserPhoneNumber = () =>
  applyDecorators(
    Transform(({ value }: { value: unknown }) => trimmed(value)),
    Matches(E164_PATTERN, { message: 'phone_number must be in E.164 format, e.g. +573001234567' }),
  );

export const UserLanguage = () =>
  applyDecorators(IsIn(USER_LANGUAGES, { message: `language must be one of ${USER_LANGUAGES.join(', ')}` }));

export const UserRole = () =>
  applyDecorators(
    Transform(({ value }: { value: unknown }) => trimmed(value)),
    IsString({ message: 'role must be a role name' }),
    MaxLength(64, { message: 'role must be at most 64 characters' }),
  );

/** Checked against the tenant's billing hubs by the service (exact match). */
export const UserBillingHub = () =>
  applyDecorators(
    Transform(({ value }: { value: unknown }) => trimmed(value)),
    IsString({ message: 'billing_hub must be a billing hub of the account' }),
    MaxLength(64, { message: 'billing_hub must be at most 64 characters' }),
  );

export const UserDisplayName = () =>
  applyDecorators(
    Transform(({ value }: { value: unknown }) => trimmed(value)),
    IsString({ message: 'display_name must be text' }),
    MaxLength(200, { message: 'display_name must be at most 200 characters' }),
  );
