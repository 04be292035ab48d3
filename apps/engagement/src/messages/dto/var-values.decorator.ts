import { ValidationFailedException } from '@kyc/platform';
import { createParamDecorator, ExecutionContext } from '@nestjs/common';

/** Max length of one variable value. */
export const VAR_VALUE_MAX = 1024;

/**
 * The `var.<name>` values of a send: flat form or JSON fields `var.name=...`, or a JSON object
 * `var: {"name": "..."}` (also `{"name": {"value": "..."}}`). Values must be strings.
 */
export function varValuesOf(body: unknown): Record<string, string> {
  const values: Record<string, string> = {};
  const errors: { field: string; message: string }[] = [];
  const put = (name: string, value: unknown) => {
    const v = value && typeof value === 'object' && 'value' in value ? value.value : value;
    if (typeof v !== 'string' && typeof v !== 'number')
      errors.push({ field: `var.${name}`, message: 'must be a string' });
    else if (String(v).length > VAR_VALUE_MAX)
      errors.push({ field: `var.${name}`, message: `at most ${VAR_VALUE_MAX} characters` });
    else values[name] = String(v);
  };
  if (body && typeof body === 'object') {
    for (const [key, value] of Object.entries(body as Record<string, unknown>)) {
      if (key.startsWith('var.')) put(key.slice(4), value);
      else if (key === 'var' && value && typeof value === 'object' && !Array.isArray(value))
        for (const [name, v] of Object.entries(value as Record<string, unknown>)) put(name, v);
    }
  }
  if (errors.length) throw new ValidationFailedException(errors);
  return values;
}

export const VarValues = createParamDecorator((_: unknown, ctx: ExecutionContext) =>
  varValuesOf(ctx.switchToHttp().getRequest<{ body?: unknown }>().body),
);
