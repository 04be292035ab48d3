import { html, Interpolated, SafeHtml } from './html';
import type { PageLanguage } from './page-language';

/**
 * The headers of every page a person sees: never framed (clickjacking), never cached, no Referer leaving
 * with the page's URL (it may carry a link's secret), no content-type sniffing, and only this origin's
 * scripts and stylesheet (no inline script; a response that needs one adds its hash to script-src, as
 * oidc-provider's web_message response does). A page with a camera adds its permissions (identity's page).
 */
export const PAGE_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'",
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
};

export interface PageShell {
  lang: PageLanguage;
  /** The document title (the heading, then the brand). */
  title: string;
  /** The left of the header band (the service: "Pass", "Verificación de identidad"). */
  brand: string;
  /** The right of the header band (a progress, the application's name), optional. */
  aside?: Interpolated;
  /** The stylesheet's path on this origin (it serves PAGE_STYLE). */
  stylesheet: string;
  /** The card's content, starting with its one h1. */
  main: Interpolated;
}

/** A complete page: the header band and one card (`<main>`). */
export const pageShell = (p: PageShell): SafeHtml =>
  html`<!doctype html>
    <html lang="${p.lang}">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>${p.title} · ${p.brand}</title>
        <link rel="stylesheet" href="${p.stylesheet}" />
      </head>
      <body>
        <header>
          <p class="brand">${p.brand}</p>
          ${p.aside ? html`<p class="aside">${p.aside}</p>` : ''}
        </header>
        <main id="main">${p.main}</main>
      </body>
    </html>`;
