import { MAX_ACCESS_RULES, PERMISSIONS } from '@kyc/contracts';
import { ToArray } from '@kyc/platform';
import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsString, Matches, MaxLength, ValidateBy } from 'class-validator';

import { parseAccessRule } from '../access-rules';

export const ROLE_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;
const KNOWN = new Set<string>(PERMISSIONS);

export const RoleName = () =>
  applyDecorators(
    Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value)),
    IsString({ message: 'name is required' }),
    Matches(ROLE_NAME_PATTERN, {
      message: 'name must be 1 to 64 letters, digits, _, . or -, starting with a letter or digit',
    }),
  );

export const RoleDescription = () =>
  applyDecorators(
    IsString({ message: 'description must be text' }),
    MaxLength(500, { message: 'description must be at most 500 characters' }),
  );

/** Repeated once per permission; each one of the account's permissions (duplicates are dropped). */
export const RolePermissions = () =>
  applyDecorators(
    ToArray(),
    Transform(({ value }: { value: unknown }) =>
      Array.isArray(value) && value.every((p) => typeof p === 'string')
        ? [...new Set(value.map((p: string) => p.trim()))]
        : value,
    ),
    IsArray({ message: 'permissions must be a list of permissions' }),
    ValidateBy({
      name: 'isPermissionList',
      validator: {
        validate: (value: unknown) => Array.isArray(value) && value.every((p) => typeof p === 'string' && KNOWN.has(p)),
        defaultMessage: (args) => {
          const bad = (Array.isArray(args?.value) ? args.value : [args?.value]).filter(
            (p: unknown) => typeof p !== 'string' || !KNOWN.has(p),
          );
          return `unknown permission${bad.length > 1 ? 's' : ''} ${bad.map((p: unknown) => JSON.stringify(p)).join(', ')}; see GET /v1/permissions`;
        },
      },
    }),
  );

/** Repeated once per rule: each a JSON-Logic expression (JSON text in a form field, or the object in a JSON body). */
export const RoleAccessRules = () =>
  applyDecorators(
    ToArray(),
    IsArray({ message: 'access_rules must be a list of JSON-Logic expressions' }),
    ArrayMaxSize(MAX_ACCESS_RULES, { message: `at most ${MAX_ACCESS_RULES} access rules` }),
    ValidateBy({
      name: 'isAccessRuleList',
      validator: {
        validate: (value: unknown) => Array.isArray(value) && value.every((r) => !('error' in parseAccessRule(r))),
        defaultMessage: (args) =>
          (Array.isArray(args?.value) ? (args.value as unknown[]) : [args?.value])
            .map((r, i) => ({ i, parsed: parseAccessRule(r) }))
            .filter(({ parsed }) => 'error' in parsed)
            .map(({ i, parsed }) => `access_rules[${i}]: ${(parsed as { error: string }).error}`)
            .join('; '),
      },
    }),
  );
