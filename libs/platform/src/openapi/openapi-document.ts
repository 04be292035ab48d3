import { DynamicModule, INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { DocumentBuilder, getSchemaPath, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import type {
  OperationObject,
  ParameterObject,
  SchemaObject,
} from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';

import { envelope } from '../errors/error-envelope';
import { NO_RATE_LIMIT_EXTENSION } from '../http/rate-limit/rate-limit.decorators';
import { PATH_PARAM_MAX_LENGTH } from '../http/request-limits';
import { ANY_JSON_EXTENSION, ErrorEnvelopeDto, FieldErrorDto } from './api-docs.decorators';
import { applyValidationToDocument, RouteDtos, routeDtos, routeOperationId } from './validation-schema';

export interface OpenApiInfo {
  title: string;
  description?: string;
}

const IDEMPOTENCY_PARAMETER: ParameterObject = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    'At most 255 characters, per tenant. The same key with the same body within 24 h replays the stored ' +
    'answer (header `Idempotent-Replayed: true`) without doing the work again; with another body: 422; ' +
    'while the first request is still running: 409. A 5xx frees the key.',
  schema: { type: 'string', maxLength: 255 },
};

const KEY_TYPE_REFUSAL =
  'The API key is of a type this operation does not take (a temporary web or sdk key on a backend route): `key_type_not_allowed`';

const errorContent = (status: number, message: string, code: string) => ({
  'application/json': { schema: { $ref: getSchemaPath(ErrorEnvelopeDto) }, example: envelope(status, message, code) },
});

const RATE_LIMIT_HEADERS = {
  'Retry-After': { description: 'Seconds until a request can succeed', schema: { type: 'integer' } },
  'RateLimit-Limit': { description: 'Requests the bucket holds', schema: { type: 'integer' } },
  'RateLimit-Remaining': { description: 'Requests left in the bucket', schema: { type: 'integer' } },
  'RateLimit-Reset': { description: 'Seconds until the bucket is full again', schema: { type: 'integer' } },
};

const OAUTH_ERROR_SCHEMA = {
  type: 'object',
  required: ['error'],
  properties: { error: { type: 'string' }, error_description: { type: 'string' } },
};

/** Adds `reason` to a documented answer's description (once). */
function mention(response: { description?: string }, reason: string): void {
  const current = response.description ?? '';
  if (current.includes(reason)) return;
  response.description = current ? `${current}; or ${reason.charAt(0).toLowerCase()}${reason.slice(1)}` : reason;
}

const MALFORMED_INPUT =
  'Input the platform refuses before any rule of the route: NUL characters or unpaired surrogates in the path, query or body, or a body nested too deep or with too many keys (`validation_failed`)';

/**
 * What every route of every service has in common, added to the document once instead of on each
 * route: the Idempotency-Key header of every POST that takes an API key (and its 400/409/422), the
 * 401, 403 (key type, permissions, operator token) and 429 (rate limits) of every route that needs
 * an API key, the 429 of the public routes limited per client address, the 400 of malformed input
 * and the 413 of bodies beyond the limit on every route, and the envelope's schema. Routes document
 * their own success answer and the errors of their own rules (ApiSuccess, ApiPage, ApiEnvelopeErrors).
 * `routes` (from the app's controllers) says which routes need an operator token or permissions,
 * and which answer errors in the OAuth shape.
 */
export function finishOpenApiDocument(document: OpenAPIObject, routes: RouteDtos[] = []): OpenAPIObject {
  const facts = new Map(routes.map((r) => [r.operationId, r]));
  const schemas = (document.components ??= {}).schemas ?? {};
  document.components.schemas = schemas;
  document.components.responses = {
    ...document.components.responses,
    TooManyRequests: {
      description:
        "The tenant's or the API key's rate limit is used up (docs/security.md, Rate limits); retry after Retry-After seconds",
      headers: RATE_LIMIT_HEADERS,
      content: errorContent(429, 'Too many requests for this tenant: retry after 1 s', 'too_many_requests'),
    },
  };
  // The router refuses a path parameter beyond its bound (on routes with one)
  document.components.responses.UriTooLong = {
    description: `A path parameter is longer than ${PATH_PARAM_MAX_LENGTH} characters`,
    content: errorContent(414, "'/v1/checks/CHK…' is exceeding the max param length", 'bad_request'),
  };
  // Node's HTTP parser refuses headers (or a URL with its query) beyond its limit on every route
  document.components.responses.HeadersTooLarge = {
    description: 'The request headers, or its URL with its query, are larger than the server reads',
    content: errorContent(431, 'The request headers (or its URL) are too large', ''),
  };
  const shadowing = fixedPathsShadowing(document);
  let clientLimited = false;
  for (const [path, item] of Object.entries(document.paths)) {
    // A wildcard route (`uploads/*`) is written `{path}`; its parameter must carry that name.
    for (const operation of Object.values(item) as OperationObject[])
      for (const parameter of (operation.parameters ?? []) as ParameterObject[])
        if (parameter.in === 'path' && parameter.name === '*' && path.includes('{path}')) {
          parameter.name = 'path';
          parameter.description ??= 'The rest of the path (may contain `/`, sent percent-encoded as `%2F`)';
        } else if (parameter.in === 'path') {
          // the router answers 414 to a longer parameter, before the route
          const schema = (parameter.schema ?? { type: 'string' }) as SchemaObject;
          if (schema.type === 'string' && schema.maxLength === undefined) schema.maxLength = PATH_PARAM_MAX_LENGTH;
          parameter.schema = schema;
        }
    for (const method of METHODS) {
      const operation: OperationObject | undefined = item[method];
      if (!operation) continue;
      const fact = operation.operationId ? facts.get(routeOperationId(operation.operationId)) : undefined;
      const oauth = fact?.oauthErrors === true;
      const isPublic = Array.isArray(operation.security) && operation.security.length === 0;
      if (!isPublic && !operation.responses['401'])
        operation.responses['401'] = {
          description: 'Missing, malformed, forged, expired or revoked API key, or its user is disabled',
          content: errorContent(401, 'Missing API key (Service-API-Key header)', 'missing_api_key'),
        };
      if (!isPublic) operation.responses['429'] ??= { $ref: '#/components/responses/TooManyRequests' };
      else if (!(operation as unknown as Record<string, unknown>)[NO_RATE_LIMIT_EXTENSION]) {
        operation.responses['429'] ??= { $ref: '#/components/responses/TooManyRequestsFromClient' };
        clientLimited = true;
      }
      // Every keyed route refuses the key types it does not take (docs/security.md, Keys and what each
      // may call); an operator route refuses API keys; a route with permissions refuses roles without them.
      if (!isPublic) {
        const forbidden = (operation.responses['403'] ??= {
          description: '',
          content: fact?.adminOnly
            ? errorContent(403, 'This operation needs a platform operator token', 'forbidden')
            : fact?.permissions.length
              ? errorContent(403, `Requires one of the permissions: ${fact.permissions.join(', ')}`, 'forbidden')
              : errorContent(
                  403,
                  'A web key may not call this operation; it needs a key of type backend',
                  'key_type_not_allowed',
                ),
        }) as { description?: string };
        if (fact?.adminOnly) mention(forbidden, 'An API key instead of a platform operator token: `forbidden`');
        else {
          if (fact?.permissions.length)
            mention(
              forbidden,
              `The caller's role holds none of the permissions ${fact.permissions.join(', ')}: \`forbidden\``,
            );
          mention(forbidden, KEY_TYPE_REFUSAL);
        }
      }
      const bad = (operation.responses['400'] ??= {
        description: '',
        content: oauth
          ? { 'application/json': { schema: OAUTH_ERROR_SCHEMA } }
          : errorContent(400, 'name must not contain NUL characters', 'validation_failed'),
      }) as { description?: string };
      mention(bad, MALFORMED_INPUT);
      operation.responses['431'] ??= { $ref: '#/components/responses/HeadersTooLarge' };
      if ((operation.parameters as ParameterObject[] | undefined)?.some((p) => p.in === 'path'))
        operation.responses['414'] ??= { $ref: '#/components/responses/UriTooLong' };
      // A parameter's value that spells a fixed path of the API (`GET /v1/customers/{customer_id}` with
      // `query`) reaches that path, which answers 405 when it does not take this method.
      const fixed = shadowing.get(path)?.filter((other) => !(document.paths[other])[method]);
      if (fixed?.length)
        operation.responses['405'] ??= {
          description: `A path parameter whose value names a fixed path of this API (${fixed.map((f) => `\`${f}\``).join(', ')}), which does not answer this method`,
          content: errorContent(
            405,
            `${method.toUpperCase()} is not allowed here; the path answers ${METHODS.filter((m) => (document.paths[fixed[0]])[m])
              .map((m) => m.toUpperCase())
              .join(', ')}`,
            'method_not_allowed',
          ),
        };
      if (operation.requestBody)
        operation.responses['413'] ??= {
          description: 'The body is larger than the route accepts, or holds a text value beyond the limits',
          content: oauth
            ? { 'application/json': { schema: OAUTH_ERROR_SCHEMA } }
            : errorContent(413, 'The request body is larger than 1048576 bytes', 'payload_too_large'),
        };
      if (operation.requestBody)
        operation.responses['415'] ??= {
          description: 'A content type the route does not read (JSON and form bodies, or the media types it lists)',
          content: oauth
            ? { 'application/json': { schema: OAUTH_ERROR_SCHEMA } }
            : errorContent(415, 'Unsupported Media Type: text/xml', 'bad_request'),
        };
      // Idempotency-Key: only routes that take an API key (a tenant to scope the key to); public
      // routes (OAuth endpoints, webhooks, signed links) ignore the header.
      if (method === 'post' && !isPublic) {
        operation.parameters = [...(operation.parameters ?? []), IDEMPOTENCY_PARAMETER];
        mention(operation.responses['400'] as { description?: string }, 'An Idempotency-Key over 255 characters');
        operation.responses['409'] ??= {
          description: 'A request with this Idempotency-Key is still in progress',
          content: errorContent(
            409,
            'A request with this Idempotency-Key is in progress',
            'idempotency_key_in_progress',
          ),
        };
        operation.responses['422'] ??= {
          description: 'The Idempotency-Key was used with another body',
          content: errorContent(422, 'Idempotency-Key was used with a different request', 'idempotency_key_reused'),
        };
      }
    }
  }
  finishSchemas(document);
  if (clientLimited)
    document.components.responses.TooManyRequestsFromClient = {
      description:
        "The client address's rate limit of the routes without an API key is used up (docs/security.md, Rate limits); retry after Retry-After seconds",
      headers: RATE_LIMIT_HEADERS,
      content: errorContent(429, 'Too many requests for this client address: retry after 1 s', 'too_many_requests'),
    };
  return document;
}

/**
 * For each templated path, the fixed paths of the document it also matches (a fixed segment where the
 * template has a parameter): the router sends such a request to the fixed path.
 */
const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

function fixedPathsShadowing(document: OpenAPIObject): Map<string, string[]> {
  const paths = Object.keys(document.paths);
  const isParam = (segment: string) => segment.startsWith('{') && segment.endsWith('}');
  const shadowing = new Map<string, string[]>();
  for (const template of paths.filter((p) => p.includes('{'))) {
    const t = template.split('/');
    const fixed = paths.filter((other) => {
      const o = other.split('/');
      if (other === template || o.length !== t.length) return false;
      let shadows = false;
      for (let i = 0; i < t.length; i++) {
        if (isParam(t[i])) shadows ||= !isParam(o[i]);
        else if (t[i] !== o[i]) return false;
      }
      return shadows;
    });
    if (fixed.length) shadowing.set(template, fixed);
  }
  return shadowing;
}

/**
 * Every schema of the document: a nullable enum lists `null` among its values (OpenAPI 3.0.3,
 * "nullable"): `enum` is checked on its own, so without it a JSON Schema validator (a client's, a
 * fuzzer's) refuses the null the server takes (an optional field sent as null is absent) or answers
 * (a field not known yet); an `ApiAnyJson` property has no type.
 */
function finishSchemas(node: unknown): void {
  if (Array.isArray(node)) return node.forEach(finishSchemas);
  if (!node || typeof node !== 'object') return;
  const schema = node as Record<string, unknown> & { nullable?: boolean; enum?: unknown[] };
  // a new list: the enum may be the very array a validator or another schema uses
  if (schema.nullable === true && Array.isArray(schema.enum) && !schema.enum.includes(null))
    schema.enum = [...schema.enum, null];
  if (schema[ANY_JSON_EXTENSION] === true) {
    // ApiAnyJson: any JSON value, so no type (the reflected `unknown` reads as object)
    for (const key of [ANY_JSON_EXTENSION, 'type', 'properties', 'additionalProperties']) delete schema[key];
  }
  for (const value of Object.values(node)) finishSchemas(value);
}

/** The OpenAPI document of a service as `/docs/openapi.json` serves it (and `npm run openapi` writes it). */
export function createOpenApiDocument(app: INestApplication, info: OpenApiInfo): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle(info.title)
    .setDescription(info.description ?? '')
    .setVersion('1')
    .setLicense('MIT', 'https://opensource.org/licenses/MIT')
    .addApiKey({ type: 'apiKey', in: 'header', name: 'Service-API-Key' }, 'api-key')
    .addSecurityRequirements('api-key')
    .build();
  const document = SwaggerModule.createDocument(app, config, {
    extraModels: [ErrorEnvelopeDto, FieldErrorDto],
    operationIdFactory: (controllerKey: string, methodKey: string) =>
      `${controllerKey.replace(/Controller$/, '')}_${methodKey}`,
  });
  const routes = routeDtos(app);
  applyValidationToDocument(routes, document);
  return finishOpenApiDocument(document, routes);
}

/**
 * The document of a service without starting it: Nest's preview mode builds the module graph
 * (controllers, routes, metadata) without instantiating providers, so no database or broker is
 * needed. `npm run openapi` writes these to openapi/<service>.json; an integration test checks
 * that the running services serve the same.
 */
export async function previewOpenApiDocument(def: {
  module: DynamicModule;
  title: string;
  description?: string;
}): Promise<OpenAPIObject> {
  const app = await NestFactory.create(def.module, new FastifyAdapter(), {
    preview: true,
    logger: false,
    abortOnError: false,
  });
  try {
    return createOpenApiDocument(app, def);
  } finally {
    await app.close();
  }
}
