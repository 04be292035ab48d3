import { applyDecorators } from '@nestjs/common';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsIn,
  IsString,
  Matches,
  MaxLength,
  registerDecorator,
  ValidationOptions,
} from 'class-validator';

import { isKnownScope, isRestricted, RESTRICTED_SCOPES } from '../../scopes/scopes';

/** Authentication levels pass reaches: e-mail code only, or e-mail code by a person with a verified identity. */
export const ACR_VALUES = ['urn:pass:loa:1', 'urn:pass:loa:2'] as const;

/** Absolute http(s) URLs without fragment; http only for localhost (development). */
const REDIRECT_URI = /^(https:\/\/[^\s#]+|http:\/\/(localhost|127\.0\.0\.1)(:\d+)?(\/[^\s#]*)?)$/;
const ORIGIN = /^(https:\/\/[a-z0-9.-]+(:\d+)?|http:\/\/(localhost|127\.0\.0\.1)(:\d+)?)$/;
const DOMAIN = /^(?=.{1,253}$)([a-z0-9-]{1,63}\.)+[a-z]{2,63}$/;

export const RedirectUris = () =>
  applyDecorators(
    IsArray(),
    ArrayMinSize(1),
    ArrayMaxSize(20),
    IsString({ each: true }),
    MaxLength(2000, { each: true }),
    Matches(REDIRECT_URI, {
      each: true,
      message: 'each redirect_uris entry must be an https URL (http only for localhost) without fragment',
    }),
  );

/** Scopes of the table the application may request (restricted ones go in restricted_scopes). */
export const ApplicationScopes = () =>
  applyDecorators(IsArray(), ArrayMinSize(1), ArrayMaxSize(100), IsString({ each: true }), IsPassScope());

export const RestrictedScopes = () =>
  applyDecorators(IsArray(), ArrayMaxSize(RESTRICTED_SCOPES.length), IsIn([...RESTRICTED_SCOPES], { each: true }));

export const WebMessageOrigins = () =>
  applyDecorators(
    IsArray(),
    ArrayMaxSize(20),
    IsString({ each: true }),
    Matches(ORIGIN, {
      each: true,
      message: 'each allowed_web_message_origins entry must be an origin (scheme://host[:port])',
    }),
  );

export const EmailDomains = () =>
  applyDecorators(
    IsArray(),
    ArrayMaxSize(100),
    IsString({ each: true }),
    Matches(DOMAIN, { each: true, message: 'each allowed_email_domains entry must be a lowercase domain name' }),
  );

export const RequiredAcr = () => IsIn([...ACR_VALUES]);

function IsPassScope(options?: ValidationOptions): PropertyDecorator {
  return (target: object, propertyName: string | symbol) =>
    registerDecorator({
      name: 'isPassScope',
      target: target.constructor,
      propertyName: String(propertyName),
      options: {
        message: 'scopes must be scopes of the table (restricted scopes go in restricted_scopes)',
        ...options,
      },
      validator: {
        validate: (value: unknown) =>
          Array.isArray(value) && value.every((s) => typeof s === 'string' && isKnownScope(s) && !isRestricted(s)),
      },
    });
}
