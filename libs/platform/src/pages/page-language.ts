/** The languages of the pages people see; Spanish when nothing else is asked for. */
export const PAGE_LANGUAGES = ['es', 'en', 'pt'] as const;
export type PageLanguage = (typeof PAGE_LANGUAGES)[number];
export const DEFAULT_PAGE_LANGUAGE: PageLanguage = 'es';

/**
 * The first supported language among the candidates, in order (e.g. `ui_locales` — space separated —
 * then `Accept-Language` — comma separated, its order kept, `q` ignored): each tag is read by its primary
 * subtag (`pt-BR` → pt); Spanish when none is supported.
 */
export function pageLanguage(...candidates: (string | undefined | null)[]): PageLanguage {
  for (const c of candidates) {
    for (const part of (c ?? '').split(/[\s,]+/)) {
      const tag = part.split(';')[0].trim().toLowerCase().split(/[-_]/)[0];
      if ((PAGE_LANGUAGES as readonly string[]).includes(tag)) return tag as PageLanguage;
    }
  }
  return DEFAULT_PAGE_LANGUAGE;
}
