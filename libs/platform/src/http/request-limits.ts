import { FASTIFY_ROUTE_CONFIG_METADATA } from '@nestjs/platform-fastify/constants';

import { FieldError } from '../errors/app.exception';

/**
 * Bounds on what a request may carry, enforced by the platform before any handler, guard or
 * pipe sees it (see `registerRequestHardening` in bootstrap.ts):
 * - the body is read only after the API key checked out (routes not marked @Public());
 * - a JSON or form body is at most `bodyBytes` (HTTP_BODY_LIMIT_BYTES, default 1 MiB; a route
 *   that needs more says so with @BodyLimit(bytes); uploads have parsers and limits of their own);
 * - parsed bodies and query strings are at most `maxDepth` levels deep, with at most
 *   `maxKeys` keys in any one object, `maxNodes` values in all and strings of at most
 *   `maxStringLength` characters (413 when the size is exceeded, 400 for the depth);
 * - no text (values or keys, in bodies, query strings and path parameters) holds a NUL
 *   character or an unpaired UTF-16 surrogate (400 naming the field): PostgreSQL refuses both.
 */
export interface InputLimits {
  maxDepth: number;
  maxKeys: number;
  maxNodes: number;
  maxStringLength: number;
}

export const DEFAULT_INPUT_LIMITS: Readonly<InputLimits> = Object.freeze({
  maxDepth: 128,
  maxKeys: 1_000,
  maxNodes: 50_000,
  maxStringLength: 1_048_576,
});

export const DEFAULT_BODY_LIMIT_BYTES = 1_048_576;

/** The longest path parameter the router reads (Fastify's `maxParamLength`); a longer one is 414. */
export const PATH_PARAM_MAX_LENGTH = 100;

/** What the platform keeps in a route's Fastify config (`req.routeOptions.config`). */
export interface PlatformRouteConfig {
  /** Marked @Public(): no API key is checked before the body is read. */
  kycPublic?: boolean;
  /** Raised (or lowered) body limit of the route, in bytes (@BodyLimit). */
  kycBodyLimit?: number;
  /** Input limits of the route (@InputLimits). */
  kycInputLimits?: Partial<InputLimits>;
  /** Limited per client address although it has an API key (@RateLimitByClientAddress). */
  kycClientRateLimit?: boolean;
  /** Errors leave in the RFC 6749 shape `{error, error_description}` (@OAuthErrorShape). */
  kycOAuthErrors?: boolean;
  /** Not limited per client address although @Public() (@NoRateLimit). */
  kycNoRateLimit?: boolean;
}

/** Merges `config` into the Fastify route config of a handler (what Nest's @RouteConfig sets, without replacing it). */
export function mergeRouteConfig(handler: object, config: PlatformRouteConfig): void {
  const current = (Reflect.getMetadata(FASTIFY_ROUTE_CONFIG_METADATA, handler) ?? {}) as Record<string, unknown>;
  Reflect.defineMetadata(FASTIFY_ROUTE_CONFIG_METADATA, { ...current, ...config }, handler);
}

/** Applies a route config to one handler (method decorator) or every handler of a controller (class decorator). */
export function routeConfigDecorator(config: PlatformRouteConfig): ClassDecorator & MethodDecorator {
  return ((target: object, _key?: string | symbol, descriptor?: PropertyDescriptor) => {
    if (descriptor?.value) {
      mergeRouteConfig(descriptor.value as object, config);
      return descriptor;
    }
    const proto = (target as { prototype?: object }).prototype;
    if (!proto) return;
    for (const name of Object.getOwnPropertyNames(proto)) {
      if (name === 'constructor') continue;
      const method = Object.getOwnPropertyDescriptor(proto, name)?.value as unknown;
      if (typeof method === 'function') mergeRouteConfig(method, config);
    }
  }) as ClassDecorator & MethodDecorator;
}

/** The route accepts JSON or form bodies of up to `bytes` (default HTTP_BODY_LIMIT_BYTES, 1 MiB). */
export const BodyLimit = (bytes: number) => routeConfigDecorator({ kycBodyLimit: bytes });

/**
 * An OAuth endpoint (RFC 6749 section 5.2): the errors the platform raises on it (input
 * inspection, body limits, unsupported media, 5xx) leave as `{error, error_description}`, as the
 * endpoint's own errors do, instead of the service envelope.
 */
export const OAuthErrorShape = () => routeConfigDecorator({ kycOAuthErrors: true });

/** Other input limits for the route (see DEFAULT_INPUT_LIMITS). */
export const InputLimits = (limits: Partial<InputLimits>) => routeConfigDecorator({ kycInputLimits: limits });

export interface InputProblem {
  status: 400 | 413;
  message: string;
  fields: FieldError[];
}

const hasBadText = (s: string): string | undefined => {
  if (s.includes('\u0000')) return 'must not contain NUL characters';
  if (!(s as unknown as { isWellFormed(): boolean }).isWellFormed())
    return 'must be valid Unicode text (unpaired surrogate)';
  return undefined;
};

const fieldName = (parent: string, key: string | number) =>
  typeof key === 'number' ? `${parent}[${key}]` : parent ? `${parent}.${key}` : key;

/**
 * Checks a parsed input (body, query or path parameters) against the limits: one pass over it,
 * iterative (no recursion, whatever the depth), stopping at the first size problem. Returns
 * undefined when it is acceptable.
 */
export function inspectInput(
  value: unknown,
  limits: InputLimits = DEFAULT_INPUT_LIMITS,
  root = '',
): InputProblem | undefined {
  const textProblems: FieldError[] = [];
  const stack: { value: unknown; path: string; depth: number }[] = [{ value, path: root, depth: 0 }];
  let nodes = 0;
  while (stack.length) {
    const { value: v, path, depth } = stack.pop()!;
    if (++nodes > limits.maxNodes)
      return { status: 413, message: `The request holds more than ${limits.maxNodes} values`, fields: [] };
    if (typeof v === 'string') {
      if (v.length > limits.maxStringLength)
        return {
          status: 413,
          message: 'A text value is too long',
          fields: [{ field: path || 'body', message: `must be at most ${limits.maxStringLength} characters` }],
        };
      const bad = textProblems.length < 20 ? hasBadText(v) : undefined;
      if (bad) textProblems.push({ field: path || 'body', message: bad });
      continue;
    }
    // Raw bodies (uploads: a Buffer from their own parser, limited by it) are bytes, not text or structure.
    if (v === null || typeof v !== 'object' || ArrayBuffer.isView(v)) continue;
    if (depth >= limits.maxDepth)
      return {
        status: 400,
        message: `The request is nested more than ${limits.maxDepth} levels deep`,
        fields: [{ field: path || 'body', message: `is nested more than ${limits.maxDepth} levels deep` }],
      };
    if (Array.isArray(v)) {
      if (v.length > limits.maxNodes)
        return { status: 413, message: `The request holds more than ${limits.maxNodes} values`, fields: [] };
      for (let i = v.length - 1; i >= 0; i--)
        stack.push({ value: v[i] as unknown, path: fieldName(path, i), depth: depth + 1 });
      continue;
    }
    // Counted up to the limit first: an object with 500,000 keys is refused without listing them.
    let count = 0;
    for (const key in v) if (Object.prototype.hasOwnProperty.call(v, key) && ++count > limits.maxKeys) break;
    const keys = count > limits.maxKeys ? [] : Object.keys(v);
    if (count > limits.maxKeys)
      return {
        status: 413,
        message: `An object of the request has more than ${limits.maxKeys} keys`,
        fields: [{ field: path || 'body', message: `must have at most ${limits.maxKeys} keys` }],
      };
    for (let i = keys.length - 1; i >= 0; i--) {
      const key = keys[i];
      const bad = textProblems.length < 20 ? hasBadText(key) : undefined;
      if (bad)
        textProblems.push({
          field: fieldName(path, cleanName(key)),
          message: `name ${bad}`,
        });
      stack.push({ value: (v as Record<string, unknown>)[key], path: fieldName(path, key), depth: depth + 1 });
    }
  }
  if (textProblems.length)
    return { status: 400, message: 'Invalid request parameters', fields: sanitizeFields(textProblems) };
  return undefined;
}

/** Field names echoed back must themselves be clean text. */
const sanitizeFields = (fields: FieldError[]): FieldError[] =>
  fields.map((f) => ({ field: cleanName(f.field).slice(0, 200), message: f.message }));

/** A name with its NUL characters and surrogate halves replaced (only for echoing it back). */
function cleanName(name: string): string {
  return name
    .replace(/[\uD800-\uDFFF]/g, '?')
    .split(String.fromCharCode(0))
    .join('?');
}
