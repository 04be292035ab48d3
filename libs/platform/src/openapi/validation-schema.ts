import { INestApplication, Type } from '@nestjs/common';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import { ModulesContainer } from '@nestjs/core';
import { FASTIFY_ROUTE_CONFIG_METADATA } from '@nestjs/platform-fastify/constants';
import type { OpenAPIObject } from '@nestjs/swagger';
import type {
  OperationObject,
  ParameterObject,
  ReferenceObject,
  SchemaObject,
} from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { getMetadataStorage, isISO31661Alpha2 } from 'class-validator';

import { PLATFORM_ADMIN_ROUTE, REQUIRED_PERMISSIONS } from '../auth/auth.decorators';
import type { PlatformRouteConfig } from '../http/request-limits';
import { isBodyOptional } from '../validation/body-optional';
import { formFoldsOf } from '../validation/form-body';
import { isTrimmed } from '../validation/transforms';

type Schema = SchemaObject & { nullable?: boolean };

/** class-transformer's metadata (where `@Type(() => Nested)` is kept); its storage module has no typings of its own. */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { defaultMetadataStorage } = require('class-transformer/cjs/storage') as {
  defaultMetadataStorage: {
    findTypeMetadata(target: unknown, property: string): { typeFunction: () => unknown } | undefined;
  };
};
type Metadata = ReturnType<ReturnType<typeof getMetadataStorage>['getTargetValidationMetadatas']>[number];

/** Free-form objects (JSON the server stores as given) say so with this: `additionalProperties: true`. */
export const FREE_FORM: SchemaObject = { type: 'object', additionalProperties: true };

const metadataOf = (cls: Type<unknown>): Metadata[] =>
  getMetadataStorage().getTargetValidationMetadatas(cls, '', true, false);

const isDtoClass = (value: unknown): value is Type<unknown> =>
  typeof value === 'function' && value !== Object && metadataOf(value as Type<unknown>).length > 0;

/** The class a nested property validates (class-transformer's @Type, else its declared type). */
function nestedClass(cls: Type<unknown>, property: string): Type<unknown> | undefined {
  const typed = defaultMetadataStorage.findTypeMetadata(cls, property);
  const found: unknown = typed?.typeFunction() ?? Reflect.getMetadata('design:type', cls.prototype as object, property);
  return isDtoClass(found) ? found : undefined;
}

/**
 * An `i` pattern as an ECMA pattern without flags (JSON Schema has none): letter ranges get their
 * other case. Patterns using Unicode property escapes (`\p{L}`) are not portable to the regex
 * engines of clients and fuzzers (Python's `re`); they stay in `x-pattern` and the description.
 */
function portablePattern(pattern: RegExp | string, modifiers?: string): { pattern?: string; xPattern?: string } {
  const source = typeof pattern === 'string' ? pattern : pattern.source;
  const flags = `${typeof pattern === 'string' ? '' : pattern.flags}${modifiers ?? ''}`;
  if (/\\[pP]\{/.test(source)) return { xPattern: source };
  if (flags.includes('i')) return { pattern: source.replace(/a-z/g, 'a-zA-Z').replace(/A-Z(?!a-z)/g, 'A-Za-z') };
  return { pattern: source };
}

const FORMATS: Record<string, string> = {
  isEmail: 'email',
  isUrl: 'uri',
  isUUID: 'uuid',
  isISO8601: 'date-time',
  isIso8601: 'date-time',
  isDateString: 'date-time',
  isCalendarDate: 'date',
  isFullDate: 'date',
};

const LETTERS = [...'ABCDEFGHIJKLMNOPQRSTUVWXYZ'];
/** The assigned ISO 3166-1 alpha-2 codes, as class-validator's isISO31661Alpha2 knows them. */
const COUNTRY_CODES = LETTERS.flatMap((a) => LETTERS.map((b) => a + b)).filter((code) => isISO31661Alpha2(code));

/** class-validator's own rules this generator reads (any other rule is the application's own validator). */
const BUILT_IN = new Set([
  ...Object.keys(FORMATS),
  ...['isString', 'isInt', 'isNumber', 'isBoolean', 'isArray', 'isObject', 'isIn', 'isEnum', 'matches'],
  'isISO31661Alpha2',
  'equals',
  ...['isLength', 'minLength', 'maxLength', 'min', 'max', 'isPositive', 'isNotEmpty'],
  ...['arrayMinSize', 'arrayMaxSize', 'arrayNotEmpty'],
]);

/** Applies one class-validator rule to a (value or items) schema. */
function applyRule(schema: Schema, m: Metadata): void {
  const c = m.constraints ?? [];
  switch (m.name) {
    case 'isString':
      schema.type ??= 'string';
      if (schema.type === 'object' && !schema.properties) schema.type = 'string';
      break;
    case 'isInt':
      schema.type = 'integer';
      break;
    case 'isNumber':
      if (schema.type !== 'integer') schema.type = 'number';
      break;
    case 'isBoolean':
      schema.type = 'boolean';
      break;
    case 'isArray':
      schema.type = 'array';
      break;
    case 'isObject':
      if (!schema.properties) Object.assign(schema, FREE_FORM);
      break;
    case 'isIn': {
      const values = c[0] as unknown[];
      if (!schema.enum && Array.isArray(values)) {
        schema.enum = [...values];
        if (values.every((v) => typeof v === 'boolean')) schema.type = 'boolean';
        else if (values.every((v) => typeof v === 'string')) schema.type ??= 'string';
      }
      break;
    }
    case 'equals':
      if (['string', 'number', 'boolean'].includes(typeof c[0])) {
        schema.enum = [c[0]];
        schema.type = typeof c[0];
      }
      break;
    case 'isISO31661Alpha2':
      schema.type = 'string';
      schema.enum ??= COUNTRY_CODES;
      break;
    case 'isEnum':
      if (!schema.enum && c[0] && typeof c[0] === 'object') schema.enum = Object.values(c[0] as object);
      break;
    case 'matches': {
      if (schema.pattern) break;
      const { pattern, xPattern } = portablePattern(c[0] as RegExp | string, c[1] as string | undefined);
      if (pattern) schema.pattern = pattern;
      if (xPattern) (schema as Record<string, unknown>)['x-pattern'] = xPattern;
      schema.type ??= 'string';
      break;
    }
    case 'maxLength':
      schema.maxLength = Math.min(schema.maxLength ?? Infinity, c[0] as number);
      break;
    case 'minLength':
      schema.minLength = Math.max(schema.minLength ?? 0, c[0] as number);
      break;
    case 'isLength':
      if (typeof c[0] === 'number') schema.minLength = Math.max(schema.minLength ?? 0, c[0]);
      if (typeof c[1] === 'number') schema.maxLength = Math.min(schema.maxLength ?? Infinity, c[1]);
      break;
    case 'isNotEmpty':
      if (schema.type === 'string' || !schema.type) schema.minLength = Math.max(schema.minLength ?? 0, 1);
      break;
    case 'min':
      schema.minimum = Math.max(schema.minimum ?? -Infinity, c[0] as number);
      break;
    case 'max':
      schema.maximum = Math.min(schema.maximum ?? Infinity, c[0] as number);
      break;
    case 'isPositive':
      schema.minimum = 0;
      schema.exclusiveMinimum = true;
      break;
    case 'arrayMaxSize':
      schema.maxItems = Math.min(schema.maxItems ?? Infinity, c[0] as number);
      break;
    case 'arrayMinSize':
      schema.minItems = Math.max(schema.minItems ?? 0, c[0] as number);
      break;
    case 'arrayNotEmpty':
      schema.minItems = Math.max(schema.minItems ?? 0, 1);
      break;
    default:
      if (m.name && FORMATS[m.name]) {
        schema.type = 'string';
        schema.format ??= FORMATS[m.name];
      }
  }
}

const TYPE_OF_DESIGN = new Map<unknown, Schema>([
  [String, { type: 'string' }],
  [Number, { type: 'number' }],
  [Boolean, { type: 'boolean' }],
  [Array, { type: 'array' }],
  [Date, { type: 'string', format: 'date-time' }],
]);

/**
 * Writes what a DTO's class-validator rules accept into its schema, so the document says what the
 * server checks (the rules are the truth; `@ApiProperty` adds descriptions and examples): types
 * (integer vs number), enums, patterns, formats, lengths, bounds, item rules (`each`), nested
 * objects, required (no `@IsOptional`/`@ValidateIf`) and nullable (`@IsOptional` lets `null` through).
 */
export function applyValidationRules(
  schema: Schema,
  cls: Type<unknown>,
  refOf: (nested: Type<unknown>) => ReferenceObject,
): void {
  const byProperty = new Map<string, Metadata[]>();
  for (const m of metadataOf(cls)) {
    if (!byProperty.has(m.propertyName)) byProperty.set(m.propertyName, []);
    byProperty.get(m.propertyName)!.push(m);
  }
  schema.type = 'object';
  const properties = (schema.properties ??= {}) as Record<string, Schema>;
  const required = new Set(schema.required ?? []);
  // `@ApiPropertyOptional` on a property whose rules are only custom validators that decide for themselves
  // whether it may be left out (e.g. required for one type, refused for another)
  const declaredOptional = new Set(Object.keys(schema.properties ?? {}).filter((name) => !required.has(name)));
  for (const [name, rules] of byProperty) {
    const declared = properties[name];
    const property: Schema =
      declared && !('$ref' in declared)
        ? declared
        : { ...(TYPE_OF_DESIGN.get(Reflect.getMetadata('design:type', cls.prototype as object, name)) ?? {}) };
    const nested = rules.some((m) => m.type === 'nestedValidation') ? nestedClass(cls, name) : undefined;
    const eachNested = rules.some((m) => m.type === 'nestedValidation' && m.each);
    if (nested && eachNested) {
      property.type = 'array';
      property.items = refOf(nested);
    } else if (nested) {
      delete property.type;
      delete property.properties;
      Object.assign(property, { allOf: [refOf(nested)] });
    }
    if (property.type === 'object' && !property.properties && !property.additionalProperties && !nested)
      delete property.type; // `string | null` reflected as Object: the rules say the real type
    for (const m of rules) {
      if (m.type !== 'customValidation') continue;
      if (m.each) {
        property.type = 'array';
        const items = (property.items && !('$ref' in property.items) ? property.items : {}) as Schema;
        applyRule(items, m);
        property.items = items;
      } else applyRule(property, m);
    }
    if (property.type === 'array' && !property.items) property.items = {};
    // trimmed, then not empty: at least one character other than white space
    if (
      isTrimmed(cls.prototype as object, name) &&
      rules.some((m) => m.name === 'isNotEmpty' && !m.each) &&
      property.type === 'string' &&
      !property.pattern
    )
      property.pattern = '\\S';
    const optional = rules.some((m) => m.type === 'conditionalValidation');
    const defined = rules.some((m) => m.type === 'isDefined');
    // `@ValidateIf(...)` with `@IsDefined()`: required only when another field says so (a rule across
    // fields, stated in the description), so not required in the schema
    const requiredIf = defined && rules.some((m) => m.type === 'conditionalValidation' && m.name !== 'isOptional');
    if ((optional && !defined) || requiredIf) {
      required.delete(name);
      if (rules.some((m) => m.type === 'conditionalValidation' && m.name === 'isOptional')) property.nullable = true;
    } else if (declaredOptional.has(name) && rules.every((m) => m.type === 'customValidation' && !BUILT_IN.has(m.name ?? '')))
      required.delete(name);
    else required.add(name);
    if (property.nullable && property.enum && property.default !== undefined) {
      // openapi-generator's Go client does not compile a nullable enum with a default (it names an
      // undefined type): the default is said in the description instead; the server applies it.
      property.description = `${property.description ? `${property.description}. ` : ''}Default: ${String(property.default)}`;
      delete property.default;
    }
    if (property.nullable && property.allOf) {
      /* allOf with nullable is how OpenAPI 3.0 says "this object or null" */
    }
    properties[name] = property;
  }
  schema.required = [...required].filter((name) => name in properties);
  if (!schema.required.length) delete schema.required;
}

/** The route of an operation: a route served at several paths is `Name_method[0]`, `Name_method[1]`, ... */
export const routeOperationId = (operationId: string): string => operationId.replace(/\[\d+\]$/, '');

export interface RouteDtos {
  operationId: string;
  body?: Type<unknown>;
  /** `@Body()` or `@Req()` reads a body that is not a DTO (a webhook's JSON, an upload). */
  rawBody: boolean;
  /** `@ApiConsumes(...)`: the media types an upload takes. */
  consumes: string[];
  queries: Type<unknown>[];
  /** @PlatformAdmin(): only an operator token. */
  adminOnly: boolean;
  /** @RequirePermissions(...): the caller's role needs one of them. */
  permissions: string[];
  /** @OAuthErrorShape(): errors in the RFC 6749 shape. */
  oauthErrors: boolean;
  /** `@FormBody(dto, prefixes, levels)`: object fields a form sends as JSON text or as dotted fields. */
  formFolds?: { prefixes: readonly string[]; levels: 1 | 2 };
}

/** The DTO classes each route validates: its body (`@Body()` or a custom body decorator) and query objects. */
export function routeDtos(app: INestApplication): RouteDtos[] {
  const routes: RouteDtos[] = [];
  const seen = new Set<unknown>();
  for (const module of app.get(ModulesContainer).values()) {
    for (const wrapper of module.controllers.values()) {
      const controller = wrapper.metatype as Type<unknown> | undefined;
      if (!controller || seen.has(controller)) continue;
      seen.add(controller);
      const proto = controller.prototype as Record<string, unknown>;
      for (const key of Object.getOwnPropertyNames(proto)) {
        if (key === 'constructor' || typeof proto[key] !== 'function') continue;
        const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, key) ?? {}) as Record<
          string,
          { index: number; data?: unknown; pipes?: unknown[] }
        >;
        const types = (Reflect.getMetadata('design:paramtypes', proto, key) ?? []) as unknown[];
        const handler = proto[key] as object;
        const meta = (name: string): unknown =>
          Reflect.getMetadata(name, handler) ?? Reflect.getMetadata(name, controller);
        const route: RouteDtos = {
          operationId: `${controller.name.replace(/Controller$/, '')}_${key}`,
          queries: [],
          rawBody: false,
          consumes: (Reflect.getMetadata('swagger/apiConsumes', handler) ?? []) as string[],
          adminOnly: meta(PLATFORM_ADMIN_ROUTE) === true,
          permissions: (meta(REQUIRED_PERMISSIONS) ?? []) as string[],
          oauthErrors:
            (Reflect.getMetadata(FASTIFY_ROUTE_CONFIG_METADATA, handler) as PlatformRouteConfig | undefined)
              ?.kycOAuthErrors === true,
        };
        for (const [argKey, arg] of Object.entries(args)) {
          const type = types[arg.index];
          const kind = argKey.split(':')[0];
          if (kind === String(RouteParamtypes.BODY) && !isDtoClass(type)) route.rawBody = true;
          if (!isDtoClass(type)) continue;
          if (kind === String(RouteParamtypes.QUERY) && arg.data === undefined) route.queries.push(type);
          else if (kind === String(RouteParamtypes.BODY) && arg.data === undefined) route.body = type;
          else if (kind.includes('__customRouteArgs__')) {
            route.body ??= type;
            route.formFolds ??= formFoldsOf(arg.pipes);
          }
        }
        // A body read as a plain object and validated by the route itself against a DTO it documents
        // with `@ApiBody({ type })` (e.g. `@ValidatesBody`): that DTO's rules are still the ones checked.
        if (!route.body) {
          const documented = (Reflect.getMetadata('swagger/apiParameters', handler) ?? []) as {
            in?: string;
            type?: unknown;
          }[];
          const type = documented.find((p) => p.in === 'body' && isDtoClass(p.type))?.type;
          if (isDtoClass(type)) route.body = type;
        }
        routes.push(route);
      }
    }
  }
  return routes;
}

/**
 * A `@FormBody()` route also reads the body as a form (application/x-www-form-urlencoded, after JSON so
 * generated clients keep sending JSON): each folded object field is JSON text in its own field (the
 * `encoding`), or dotted fields the server folds into it, which OpenAPI 3.0's form styles cannot name
 * (`form` and `deepObject` write `field[name]`): the description says them.
 */
function documentFormBody(
  body: { content: Record<string, unknown>; description?: string },
  ref: ReferenceObject,
  folds: { prefixes: readonly string[]; levels: 1 | 2 },
): void {
  body.content['application/x-www-form-urlencoded'] ??= {
    schema: ref,
    encoding: Object.fromEntries(folds.prefixes.map((p) => [p, { contentType: 'application/json' }])),
  };
  const dotted = folds.prefixes
    .map((p) => (folds.levels === 2 ? `\`${p}.<name>\` or \`${p}.<field>.<name>\`` : `\`${p}.<name>\``))
    .join(', ');
  const note =
    `A form body sends ${folds.prefixes.map((p) => `\`${p}\``).join(', ')} as JSON text, or as dotted fields ` +
    `(${dotted}) merged into it; repeated fields are a list, values are text`;
  if (!body.description?.includes(note)) body.description = body.description ? `${body.description}. ${note}` : note;
}

/**
 * Makes the document say what the validation pipe checks: every body DTO's schema (and the DTOs
 * nested in it) and every query DTO's parameters carry the class-validator rules; a route whose
 * body is read by a custom decorator gets its requestBody.
 */
export function applyValidationToDocument(routes: RouteDtos[], document: OpenAPIObject): void {
  const schemas = (document.components!.schemas ??= {}) as Record<string, Schema>;
  // A route served at several paths is one operation per path.
  const operations = new Map<string, OperationObject[]>();
  for (const item of Object.values(document.paths))
    for (const method of ['get', 'post', 'put', 'patch', 'delete'] as const) {
      const op = item[method];
      if (!op?.operationId) continue;
      const id = routeOperationId(op.operationId);
      operations.set(id, [...(operations.get(id) ?? []), op]);
    }
  const done = new Set<Type<unknown>>();
  const refOf = (cls: Type<unknown>): ReferenceObject => {
    if (!done.has(cls)) {
      done.add(cls);
      const schema = (schemas[cls.name] ??= { type: 'object', properties: {} });
      applyValidationRules(schema, cls, refOf);
    }
    return { $ref: `#/components/schemas/${cls.name}` };
  };
  for (const route of routes)
    for (const op of operations.get(route.operationId) ?? []) documentRoute(route, op);

  function documentRoute(route: RouteDtos, op: OperationObject): void {
    if (route.body) {
      const ref = refOf(route.body);
      // optional only for a @BodyOptional() DTO (the server then takes no body as `{}`)
      const required = !isBodyOptional(route.body);
      if (!op.requestBody) op.requestBody = { required, content: { 'application/json': { schema: ref } } };
      else if (!('$ref' in op.requestBody)) op.requestBody.required = required;
      if (route.formFolds && !('$ref' in op.requestBody)) documentFormBody(op.requestBody, ref, route.formFolds);
    } else if (!op.requestBody && route.consumes.length) {
      const content = Object.fromEntries(
        route.consumes.map((type) => [type, { schema: { type: 'string', format: 'binary' } }]),
      );
      op.requestBody = { required: true, content };
    } else if (!op.requestBody && route.rawBody) {
      op.requestBody = { required: true, content: { 'application/json': { schema: FREE_FORM } } };
    }
    for (const query of route.queries) {
      const schema: Schema = { type: 'object', properties: {} };
      applyValidationRules(schema, query, refOf);
      const parameters = (op.parameters ??= []) as ParameterObject[];
      for (const name of Object.keys(schema.properties ?? {}))
        if (!parameters.some((p) => p.in === 'query' && p.name === name))
          parameters.push({ name, in: 'query', required: false, schema: {} });
      for (const parameter of parameters) {
        if (parameter.in !== 'query' || !schema.properties?.[parameter.name]) continue;
        const rules = schema.properties[parameter.name] as Schema;
        const current = (parameter.schema ?? {}) as Schema;
        parameter.schema = { ...current, ...rules, nullable: undefined };
        delete (parameter.schema as Schema).nullable;
        parameter.required = schema.required?.includes(parameter.name) ?? false;
      }
    }
  }
}
