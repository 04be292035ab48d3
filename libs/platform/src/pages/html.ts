/**
 * HTML of the pages people see (identity's end-user page, pass's sign-in and approval pages). Templates are
 * tagged with `html`: every interpolated value is escaped unless it is itself the result of `html` (a
 * fragment built the same way), so no user input is ever concatenated into markup.
 */
export class SafeHtml {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export const escapeHtml = (value: unknown): string =>
  (typeof value === 'string'
    ? value
    : typeof value === 'number' || typeof value === 'boolean'
      ? String(value)
      : ''
  ).replace(/[&<>"']/g, (c) => ESCAPES[c]);

export type Interpolated = SafeHtml | string | number | boolean | null | undefined | readonly Interpolated[];

function render(value: Interpolated): string {
  if (value instanceof SafeHtml) return value.value;
  if (Array.isArray(value)) return (value as readonly Interpolated[]).map(render).join('');
  return escapeHtml(value);
}

/** Tagged template: `html\`<p>${text}</p>\`` escapes `text`; arrays of fragments are joined. */
export function html(strings: TemplateStringsArray, ...values: Interpolated[]): SafeHtml {
  let out = strings[0];
  values.forEach((v, i) => (out += render(v) + strings[i + 1]));
  return new SafeHtml(out);
}

/** An attribute present only when `on` (boolean attributes such as required, selected). */
export const flag = (
  name: 'required' | 'selected' | 'checked' | 'hidden' | 'autofocus' | 'disabled',
  on: boolean | undefined,
): SafeHtml => new SafeHtml(on ? ` ${name}` : '');
