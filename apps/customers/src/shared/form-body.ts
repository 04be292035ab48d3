import { createValidationPipe } from '@kyc/platform';
import { createParamDecorator, ExecutionContext, PipeTransform, Type } from '@nestjs/common';

/**
 * Folds dotted form fields into an object: `custom_property_values.CPR1=…` becomes
 * `{ custom_property_values: { CPR1: … } }`. A JSON body sends the object itself (or a form its
 * JSON text in the plain field); both then go through the platform's one validation pipe.
 */
export function foldDottedFields(body: Record<string, unknown>, prefix: string): Record<string, unknown> {
  const out: Record<string, unknown> = { ...body };
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
    for (const key of dotted) nested[key.slice(prefix.length + 1)] = out[key];
    value = nested;
  }
  for (const key of dotted) delete out[key];
  if (value !== undefined) out[prefix] = value;
  return out;
}

class FoldAndValidatePipe implements PipeTransform {
  private readonly validation = createValidationPipe();

  constructor(
    private readonly dto: Type<unknown>,
    private readonly prefix: string,
  ) {}

  transform(value: unknown) {
    const body =
      value && typeof value === 'object' ? foldDottedFields(value as Record<string, unknown>, this.prefix) : {};
    return this.validation.transform(body, { type: 'body', metatype: this.dto });
  }
}

const RawBody = createParamDecorator(
  (_: unknown, ctx: ExecutionContext) => ctx.switchToHttp().getRequest<{ body: unknown }>().body,
);

/** `@Body()` for a DTO with one object field that forms send as dotted fields (`<prefix>.<key>`). */
export const FormBody = (dto: Type<unknown>, prefix: string): ParameterDecorator =>
  RawBody(new FoldAndValidatePipe(dto, prefix));
