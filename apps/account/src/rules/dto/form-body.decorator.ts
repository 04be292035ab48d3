import { createValidationPipe } from '@kyc/platform';
import { createParamDecorator, ExecutionContext, PipeTransform, Type } from '@nestjs/common';

/**
 * Folds dotted form fields into nested objects: `config.url=…&config.headers.X-Api-Key=…`
 * becomes `{ config: { url, headers: { 'X-Api-Key': … } } }` (two levels; the rest of the key
 * is one name). A JSON body can send the object itself, and a form can also send it as JSON text
 * in the plain field (`config={"url": …}`).
 */
export function foldDottedFields(body: Record<string, unknown>, prefixes: readonly string[]): Record<string, unknown> {
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
    if (
      dotted.length &&
      (value === undefined || (typeof value === 'object' && value !== null && !Array.isArray(value)))
    ) {
      const nested: Record<string, unknown> = { ...((value as Record<string, unknown>) ?? {}) };
      for (const key of dotted) {
        const rest = key.slice(prefix.length + 1);
        const dot = rest.indexOf('.');
        if (dot < 0) nested[rest] = out[key];
        else {
          const [field, name] = [rest.slice(0, dot), rest.slice(dot + 1)];
          const inner = nested[field];
          nested[field] = {
            ...(typeof inner === 'object' && inner !== null && !Array.isArray(inner) ? inner : {}),
            [name]: out[key],
          };
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
    private readonly prefixes: readonly string[],
  ) {}

  transform(value: unknown) {
    const body =
      value && typeof value === 'object' ? foldDottedFields(value as Record<string, unknown>, this.prefixes) : {};
    return this.validation.transform(body, { type: 'body', metatype: this.dto });
  }
}

const RawBody = createParamDecorator((_: unknown, ctx: ExecutionContext) => ctx.switchToHttp().getRequest().body);

/** `@Body()` for DTOs with nested objects that forms send as dotted fields; validated by the platform's one validation pipe. */
export const FormBody = (dto: Type<unknown>, prefixes: readonly string[]): ParameterDecorator =>
  RawBody(new FoldAndValidatePipe(dto, prefixes));
