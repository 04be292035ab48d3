/**
 * What a person's browser gets instead of the JSON envelope when its address is over the limit of
 * the keyless routes (pass's pages, identity's page): a page in their language (es, pt or en, from
 * Accept-Language; Spanish by default) that says how long to wait.
 */
const TEXT = {
  es: {
    title: 'Demasiadas solicitudes',
    body: (s: number) => `Llegaron demasiadas solicitudes desde tu red. Intenta de nuevo en ${s} segundos.`,
  },
  pt: {
    title: 'Solicitações demais',
    body: (s: number) => `Chegaram solicitações demais da sua rede. Tente novamente em ${s} segundos.`,
  },
  en: {
    title: 'Too many requests',
    body: (s: number) => `Too many requests came from your network. Try again in ${s} seconds.`,
  },
} as const;

type Lang = keyof typeof TEXT;

/** The first of es, pt, en that Accept-Language names (by its primary tag), else es. */
export function pageLanguageOf(acceptLanguage: string | undefined): Lang {
  for (const part of (acceptLanguage ?? '').split(',')) {
    const tag = part.split(';')[0].trim().toLowerCase().split('-')[0];
    if (tag === 'es' || tag === 'pt' || tag === 'en') return tag;
  }
  return 'es';
}

/** A request a browser makes for a page (navigation or form post), not an API call. */
export const wantsPage = (accept: string | undefined): boolean => /\btext\/html\b/i.test(accept ?? '');

export function tooManyRequestsPage(acceptLanguage: string | undefined, retryAfterSeconds: number): string {
  const lang = pageLanguageOf(acceptLanguage);
  const t = TEXT[lang];
  return (
    `<!doctype html><html lang="${lang}"><head><meta charset="utf-8">` +
    '<meta name="viewport" content="width=device-width, initial-scale=1">' +
    `<title>${t.title}</title></head><body><main><h1>${t.title}</h1>` +
    `<p role="alert">${t.body(Math.max(1, Math.ceil(retryAfterSeconds)))}</p></main></body></html>`
  );
}
