import { ValidationFailedException } from '@kyc/platform';
import { createParamDecorator, ExecutionContext } from '@nestjs/common';

/** Longest template variable value; at most this many variables. */
export const VAR_VALUE_MAX = 1024;
export const VAR_COUNT_MAX = 20;
const VAR_NAME = /^[a-zA-Z0-9_]{1,64}$/;

/**
 * The template variables of an access link: `var.<name>` fields (form or JSON), or a JSON object
 * `var: {"name": "..."}`. Names are letters, digits and `_`; values strings.
 */
export function varValuesOf(body: unknown): Record<string, string> {
  const values: Record<string, string> = {};
  const errors: { field: string; message: string }[] = [];
  const put = (name: string, v: unknown) => {
    if (!VAR_NAME.test(name)) errors.push({ field: `var.${name}`, message: 'names are 1 to 64 letters, digits or _' });
    else if (typeof v !== 'string') errors.push({ field: `var.${name}`, message: 'must be a string' });
    else if (v.length > VAR_VALUE_MAX)
      errors.push({ field: `var.${name}`, message: `at most ${VAR_VALUE_MAX} characters` });
    else values[name] = v;
  };
  if (body && typeof body === 'object')
    for (const [key, value] of Object.entries(body as Record<string, unknown>)) {
      if (key.startsWith('var.')) put(key.slice(4), value);
      else if (key === 'var' && value && typeof value === 'object' && !Array.isArray(value))
        for (const [name, v] of Object.entries(value as Record<string, unknown>)) put(name, v);
      else if (key === 'var') errors.push({ field: 'var', message: 'var must be an object of strings' });
    }
  if (Object.keys(values).length > VAR_COUNT_MAX)
    errors.push({ field: 'var', message: `at most ${VAR_COUNT_MAX} template variables` });
  if (errors.length) throw new ValidationFailedException(errors);
  return values;
}

export const VarValues = createParamDecorator((_: unknown, ctx: ExecutionContext) =>
  varValuesOf(ctx.switchToHttp().getRequest<{ body?: unknown }>().body),
);
