/** HTML of pass's pages: every interpolated value goes through escapeHtml. */
export const escapeHtml = (value: unknown): string =>
  (typeof value === 'string'
    ? value
    : typeof value === 'number' || typeof value === 'boolean'
      ? String(value)
      : ''
  ).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** A complete page; `body` must already be escaped HTML. */
export const page = (title: string, body: string): string =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">` +
  `<title>${escapeHtml(title)}</title><style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem}` +
  `label,input,button{display:block;margin:.5rem 0}input{padding:.5rem;width:100%}button{padding:.5rem 1rem}` +
  `.notice{background:#fff4e5;padding:.75rem;border-radius:.25rem}</style></head><body><main>${body}</main></body></html>`;

/** The page of a failure before redirect (shown to the user, no callback). */
export const errorPage = (error: string, description: string): string =>
  page(
    'Sign-in error',
    `<h1>We could not start the sign-in</h1><p id="error">${escapeHtml(error)}</p>` +
      `<p id="error_description">${escapeHtml(description)}</p>`,
  );
