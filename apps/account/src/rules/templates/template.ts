/**
 * Templates of action configurations: text with `{{.name}}` expressions (Go-template style).
 *
 *   {{.national_id}}            an event variable (see GET /v1/bre/variables-spec), or else an
 *                               environment variable of the action with that name
 *   {{.env.API_TOKEN}}          an environment variable of the action, explicitly
 *   {{.first_name | json}}      filters: `json` (a JSON value: quoted string, number, null),
 *                               `urlquery` (percent-encoded, for URLs)
 *
 * A name with no value renders as the empty string (`json` renders it as null). Anything else
 * between `{{` and `}}` is refused when the action is saved.
 */
export const TEMPLATE_FILTERS = ['json', 'urlquery'] as const;
export type TemplateFilter = (typeof TEMPLATE_FILTERS)[number];

export interface TemplateExpression {
  /** `env` for `{{.env.NAME}}`, `any` for `{{.name}}` (event variable first, then env var). */
  scope: 'any' | 'env';
  name: string;
  filters: TemplateFilter[];
}

export type TemplatePart = string | TemplateExpression;

export interface TemplateScope {
  variables: Readonly<Record<string, unknown>>;
  env: Readonly<Record<string, string>>;
}

const EXPRESSION = /^\s*\.(env\.)?([A-Za-z_][A-Za-z0-9_]*)\s*((?:\|\s*[A-Za-z]+\s*)*)$/;

export class TemplateSyntaxError extends Error {}

/** Splits a template into literal text and expressions; throws TemplateSyntaxError naming the problem. */
export function parseTemplate(text: string): TemplatePart[] {
  const parts: TemplatePart[] = [];
  let at = 0;
  while (at < text.length) {
    const open = text.indexOf('{{', at);
    if (open < 0) {
      parts.push(text.slice(at));
      break;
    }
    if (open > at) parts.push(text.slice(at, open));
    const close = text.indexOf('}}', open + 2);
    if (close < 0) throw new TemplateSyntaxError(`unclosed "{{" at character ${open + 1}`);
    const inner = text.slice(open + 2, close);
    const m = EXPRESSION.exec(inner);
    if (!m)
      throw new TemplateSyntaxError(
        `"{{${inner}}}" is not a template expression; use {{.name}}, {{.env.NAME}} or {{.name | json}}`,
      );
    const filters = m[3]
      .split('|')
      .map((f) => f.trim())
      .filter(Boolean);
    for (const f of filters)
      if (!(TEMPLATE_FILTERS as readonly string[]).includes(f))
        throw new TemplateSyntaxError(`unknown template filter "${f}" (known: ${TEMPLATE_FILTERS.join(', ')})`);
    parts.push({ scope: m[1] ? 'env' : 'any', name: m[2], filters: filters as TemplateFilter[] });
    at = close + 2;
  }
  return parts;
}

/** The problem with a template, or undefined when it parses. */
export function templateError(text: string): string | undefined {
  try {
    parseTemplate(text);
    return undefined;
  } catch (err) {
    if (err instanceof TemplateSyntaxError) return err.message;
    throw err;
  }
}

const own = (o: object, k: string) => Object.prototype.hasOwnProperty.call(o, k);

function lookup(expr: TemplateExpression, scope: TemplateScope): unknown {
  if (expr.scope === 'env') return own(scope.env, expr.name) ? scope.env[expr.name] : undefined;
  if (own(scope.variables, expr.name) && scope.variables[expr.name] !== undefined) return scope.variables[expr.name];
  return own(scope.env, expr.name) ? scope.env[expr.name] : undefined;
}

function text(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return value.toString();
  return JSON.stringify(value) ?? '';
}

export function renderParts(parts: readonly TemplatePart[], scope: TemplateScope): string {
  let out = '';
  for (const part of parts) {
    if (typeof part === 'string') {
      out += part;
      continue;
    }
    let value: unknown = lookup(part, scope);
    let rendered: string | undefined;
    for (const filter of part.filters) {
      if (filter === 'json') rendered = JSON.stringify(rendered ?? value ?? null);
      else rendered = encodeURIComponent(rendered ?? text(value));
      value = rendered;
    }
    out += rendered ?? text(value);
  }
  return out;
}

/** Parses and renders (templates are validated on save, so a syntax error here is a bug). */
export const renderTemplate = (template: string, scope: TemplateScope): string =>
  renderParts(parseTemplate(template), scope);
