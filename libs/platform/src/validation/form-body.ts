import { createParamDecorator, ExecutionContext, PipeTransform, Type } from '@nestjs/common';

import { createValidationPipe } from './validation.pipe';

/** How deep dotted fields nest: 1 folds `<prefix>.<key>`, 2 also `<prefix>.<field>.<name>`. */
export type FoldLevels = 1 | 2;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Folds dotted form fields into nested objects. With one level `custom_property_values.CPR1=…` becomes
 * `{ custom_property_values: { CPR1: … } }` (the rest of the key is one name); with two,
 * `config.url=…&config.headers.X-Api-Key=…` becomes `{ config: { url, headers: { 'X-Api-Key': … } } }`.
 * A JSON body sends the object itself, and a form can also send it as JSON text in the plain field
 * (`config={"url": …}`); dotted fields are merged into it. Text that is not JSON is left for the validator.
 */
export function foldDottedFields(
  body: Record<string, unknown>,
  prefixes: readonly string[],
  levels: FoldLevels = 1,
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...body };
  for (const prefix of prefixes) {
    let value = out[prefix];
    if (typeof value === 'string') {
      try {
        value = JSON.parse(value);
      } catch {
        /* left as text: the validator names it */
      }
    }
    const dotted = Object.keys(out).filter((k) => k.startsWith(`${prefix}.`));
    if (dotted.length && (value === undefined || isObject(value))) {
      const nested: Record<string, unknown> = { ...(value ?? {}) };
      for (const key of dotted) {
        const rest = key.slice(prefix.length + 1);
        const dot = levels === 2 ? rest.indexOf('.') : -1;
        if (dot < 0) nested[rest] = out[key];
        else {
          const [field, name] = [rest.slice(0, dot), rest.slice(dot + 1)];
          const inner = nested[field];
          nested[field] = { ...(isObject(inner) ? inner : {}), [name]: out[key] };
        }
      }
      value = nested;
    }
    for (const key of dotted) delete out[key];
    if (value !== undefined) out[prefix] = value;
  }
  return out;
}

class FoldAndValidatePipe implements PipeTransform {
  private readonly validation = createValidationPipe();

  constructor(
    private readonly dto: Type<unknown>,
    readonly prefixes: readonly string[],
    readonly levels: FoldLevels,
  ) {}

  transform(value: unknown) {
    // no body, or one that is not an object: the validation pipe refuses it naming the body (or takes
    // `{}` for a missing body of a @BodyOptional() DTO)
    if (!isObject(value)) return this.validation.transform(value, { type: 'body', metatype: this.dto });
    const body = foldDottedFields(value, this.prefixes, this.levels);
    return this.validation.transform(body, { type: 'body', metatype: this.dto });
  }
}

const RawBody = createParamDecorator(
  (_: unknown, ctx: ExecutionContext): unknown => ctx.switchToHttp().getRequest<{ body?: unknown }>().body,
);

/**
 * `@Body()` for DTOs with object fields that forms send as dotted fields (see foldDottedFields), validated by
 * the platform's one validation pipe.
 */
export const FormBody = (dto: Type<unknown>, prefixes: readonly string[], levels: FoldLevels = 1): ParameterDecorator =>
  RawBody(new FoldAndValidatePipe(dto, prefixes, levels));

/** The dotted fields a `@FormBody()` folds, from a route argument's pipes (the OpenAPI document says them). */
export function formFoldsOf(pipes: unknown): { prefixes: readonly string[]; levels: FoldLevels } | undefined {
  const pipe = Array.isArray(pipes) ? pipes.find((p) => p instanceof FoldAndValidatePipe) : undefined;
  return pipe ? { prefixes: pipe.prefixes, levels: pipe.levels } : undefined;
}
