import { applyDecorators, Type } from '@nestjs/common';
import {
  ApiExtraModels,
  ApiOperation,
  ApiProperty,
  ApiPropertyOptional,
  ApiResponse,
  getSchemaPath,
} from '@nestjs/swagger';
import type { ReferenceObject, SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';

import { envelope } from '../errors/error-envelope';

/** One offending field of a 400 (`fields[]` of the error envelope). */
export class FieldErrorDto {
  @ApiProperty({ example: 'country' })
  field!: string;

  @ApiProperty({ example: 'country must be one of ALL, BR, CO, CL, MX, PE, CR' })
  message!: string;
}

/** The one error body of every service. */
export class ErrorEnvelopeDto {
  @ApiProperty({ description: 'HTTP status', example: 400 })
  code!: number;

  @ApiProperty({ description: 'HTTP reason phrase', example: 'Bad Request' })
  status!: string;

  @ApiProperty({ example: 'Invalid request parameters' })
  message!: string;

  @ApiPropertyOptional({ description: 'Machine code to switch on', example: 'validation_failed' })
  error_code?: string;

  @ApiPropertyOptional({ type: [FieldErrorDto], description: 'Every offending field (400)' })
  fields?: FieldErrorDto[];
}

/** Error statuses a route can document; 401 is added to every route that needs an API key. */
export type EnvelopeErrorStatus = 400 | 401 | 403 | 404 | 409 | 413 | 415 | 422 | 429 | 503;

const ERROR_EXAMPLES: Record<EnvelopeErrorStatus, { description: string; example: object }> = {
  400: {
    description: 'Invalid input: every offending field is listed in `fields`; nothing is stored',
    example: envelope(400, 'Invalid request parameters', 'validation_failed', [
      { field: 'country', message: 'country must be one of ALL, BR, CO, CL, MX, PE, CR' },
    ]),
  },
  401: {
    description: 'Missing, malformed, forged, expired or revoked API key, or its user is disabled',
    example: envelope(401, 'Missing API key (Service-API-Key header)', 'missing_api_key'),
  },
  403: {
    description: 'The caller lacks a permission; the message names the permissions that would allow it',
    example: envelope(403, 'Requires one of the permissions: checks.country_co, checks.country_all', 'forbidden'),
  },
  404: {
    description: 'Unknown record, or a record of another tenant',
    example: envelope(404, 'Check not found', 'not_found'),
  },
  409: { description: 'Conflict with the current state', example: envelope(409, 'Conflict', 'conflict') },
  413: {
    description: 'The body is larger than the service accepts',
    example: envelope(413, 'Request body is too large', 'payload_too_large'),
  },
  415: {
    description: 'Unsupported content type',
    example: envelope(415, 'Unsupported Media Type', 'unsupported_media_type'),
  },
  422: {
    description: 'The Idempotency-Key was used with another body',
    example: envelope(422, 'Idempotency-Key was used with a different request', 'idempotency_key_reused'),
  },
  429: {
    description: 'Too many requests; retry after the Retry-After header',
    example: envelope(429, 'Too Many Requests', 'too_many_requests'),
  },
  503: {
    description: 'A dependency is not available',
    example: envelope(503, 'Service Unavailable', 'service_unavailable'),
  },
};

/**
 * Documents error answers in the common envelope, with an example of each. Pass an object to
 * replace the example message/code of a status (e.g. `{ 409: ['Role already exists', 'role_already_exists'] }`).
 */
export function ApiEnvelopeErrors(
  ...statuses: (EnvelopeErrorStatus | Partial<Record<EnvelopeErrorStatus, [string, string]>>)[]
): MethodDecorator & ClassDecorator {
  const decorators = statuses.flatMap((entry) => {
    const pairs: [EnvelopeErrorStatus, [string, string] | undefined][] =
      typeof entry === 'number'
        ? [[entry, undefined]]
        : (Object.entries(entry).map(([s, m]) => [Number(s), m]) as [EnvelopeErrorStatus, [string, string]][]);
    return pairs.map(([status, custom]) => {
      const base = ERROR_EXAMPLES[status];
      return ApiResponse({
        status,
        description: custom ? `${base.description}; e.g. \`${custom[1]}\`` : base.description,
        content: {
          'application/json': {
            schema: { $ref: getSchemaPath(ErrorEnvelopeDto) },
            example: custom ? envelope(status, custom[0], custom[1]) : base.example,
          },
        },
      });
    });
  });
  return applyDecorators(ApiExtraModels(ErrorEnvelopeDto, FieldErrorDto), ...decorators);
}

export interface ApiSuccessOptions {
  /** 200 by default. */
  status?: number;
  /** A response class (its `@ApiProperty` fields) or a schema. */
  type?: Type<unknown>;
  schema?: SchemaObject;
  /** The answer is `{<wrap>: <type>, ...with}` (e.g. `{user: {...}, self}`) rather than the type itself. */
  wrap?: string;
  /** Other properties next to `wrap` (e.g. `{ self: { type: 'string' } }`). */
  with?: Record<string, SchemaObject>;
  /** An example answer, with the spec's wire names. */
  example?: unknown;
  description?: string;
  /** Another media type than JSON (e.g. application/pdf), or several; the schema is then a binary string. */
  contentType?: string | string[];
}

function schemaOf(options: ApiSuccessOptions): SchemaObject | ReferenceObject {
  const inner: SchemaObject | ReferenceObject = options.type
    ? { $ref: getSchemaPath(options.type) }
    : (options.schema ?? { type: 'object' });
  if (!options.wrap) return inner;
  return {
    type: 'object',
    required: [options.wrap, ...Object.keys(options.with ?? {})],
    properties: { [options.wrap]: inner, ...options.with },
  };
}

/** Documents the success answer: its status, schema and an example. */
export function ApiSuccess(options: ApiSuccessOptions): MethodDecorator {
  const status = options.status ?? 200;
  const contentTypes = [options.contentType ?? 'application/json'].flat();
  const schema = options.contentType ? { type: 'string', format: 'binary' } : schemaOf(options);
  const content = Object.fromEntries(
    contentTypes.map((type) => [type, { schema, ...(options.example === undefined ? {} : { example: options.example }) }]),
  );
  return applyDecorators(
    ...(options.type ? [ApiExtraModels(options.type)] : []),
    ApiResponse({ status, description: options.description ?? 'Success', content }),
  );
}

export interface ApiPageOptions {
  /** The list's property (`checks`, `users`, ...). */
  items: string;
  type: Type<unknown>;
  example: unknown[];
  /** The `self` link of the example. */
  self: string;
  description?: string;
}

/** A page of a list: `{<items>: [...], self, next?}` (`next` is the link to the following page). */
export function ApiPage(options: ApiPageOptions): MethodDecorator {
  const schema: SchemaObject = {
    type: 'object',
    required: [options.items, 'self'],
    properties: {
      [options.items]: { type: 'array', items: { $ref: getSchemaPath(options.type) } },
      self: { type: 'string', description: 'This page' },
      next: {
        type: 'string',
        description: 'The next page (carries `start_key`); absent on the last page',
      },
    },
  };
  return applyDecorators(
    ApiExtraModels(options.type),
    ApiSuccess({
      schema,
      description: options.description ?? 'A page, newest first',
      example: {
        [options.items]: options.example,
        self: options.self,
        next: `${options.self}${options.self.includes('?') ? '&' : '?'}start_key=WyIyMDI2LTExLTI1VDA2OjAwOjAwLjAwMFoiLCJDSEsifQ`,
      },
    }),
  );
}

/** A route that needs no API key (webhooks, signed links): no security requirement, no 401. */
export const ApiPublic = (): MethodDecorator => ApiOperation({ security: [] });

/** Marks a property whose value is any JSON value (`ApiAnyJson`); createOpenApiDocument drops its type. */
export const ANY_JSON_EXTENSION = 'x-kyc-any-json';

/**
 * A property that holds any JSON value as it was stored (a JSON-Logic rule: an object, or a literal
 * such as `false` or `0`): published without a type, so a strict client or validator takes every value.
 */
export function ApiAnyJson(options: { description?: string; required?: boolean; example?: unknown } = {}) {
  return ApiProperty({ ...options, [ANY_JSON_EXTENSION]: true } as Parameters<typeof ApiProperty>[0]);
}
