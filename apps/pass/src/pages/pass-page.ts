import { html, Interpolated, PAGE_HEADERS, PageLanguage, pageLanguage, pageShell, SafeHtml } from '@kyc/platform';

import { PASS_MESSAGES, PassMessages } from './i18n/messages';

/** Where pass serves the platform's page stylesheet (PagesController). */
export const PAGE_STYLESHEET = '/assets/page.css';

/** The headers of every pass page (frame-ancestors 'none', nosniff, no Referer, no cache). */
export const PASS_PAGE_HEADERS = PAGE_HEADERS;

/** A page pass answers: its status and HTML. */
export interface PageAnswer {
  status: number;
  html: string;
}

/** The language of a page and its catalog. */
export interface PageContext {
  lang: PageLanguage;
  m: PassMessages;
}

/** `ui_locales` (the application's wish, space separated), then the browser's Accept-Language, then Spanish. */
export const pageContext = (uiLocales: unknown, acceptLanguage: string | string[] | undefined): PageContext => {
  const lang = pageLanguage(
    typeof uiLocales === 'string' ? uiLocales : undefined,
    Array.isArray(acceptLanguage) ? acceptLanguage.join(',') : acceptLanguage,
  );
  return { lang, m: PASS_MESSAGES[lang] };
};

/** The application a page names: its name, its tenant, and a link back to it when known. */
export interface AppView {
  name: string;
  tenant?: string;
  /** The origin of the redirect URI of the request (a page of the application the person came from). */
  link?: string;
}

/** A pass page: the platform's shell (header band "Pass" and the application's name, one card). */
export const passPage = (c: PageContext, title: string, main: Interpolated, app?: AppView): string =>
  pageShell({ lang: c.lang, title, brand: c.m.brand, aside: app?.name, stylesheet: PAGE_STYLESHEET, main }).value;

/** A notice above a form, with its machine code in data-code (the tests and integrators read it). */
export const notice = (
  n: { code: string; text: string } | undefined,
  kind: 'info' | 'error' = 'error',
): SafeHtml | '' =>
  n ? html`<p class="notice ${kind}" id="notice" role="alert" data-code="${n.code}">${n.text}</p>` : '';

/** "Back to <application>", a link when the application's address is known. */
export const backLink = (c: PageContext, app: AppView | undefined): SafeHtml | '' =>
  app?.link
    ? html`<p class="actions"><a class="button" id="back" href="${app.link}">${c.m.backTo(app.name)}</a></p>`
    : '';

/** The page of a sign-in that expired or is unknown (Back after consent, a link without its cookie). */
export const expiredPage = (c: PageContext, app?: AppView): PageAnswer => ({
  status: 400,
  html: passPage(
    c,
    c.m.expired.title,
    html`<h1 id="heading" data-page="expired">${c.m.expired.heading}</h1>
      <p id="message">${app ? c.m.expired.text(app.name) : c.m.expired.textUnknown}</p>
      ${backLink(c, app)}`,
    app,
  ),
});

/** A failure of GET /authorize before anything is redirected: said to the person, the code for the developer. */
export const authorizeErrorPage = (c: PageContext, error: string, description: string): PageAnswer => ({
  status: 400,
  html: passPage(
    c,
    c.m.authorizeError.title,
    html`<h1 id="heading" data-page="authorize-error">${c.m.authorizeError.heading}</h1>
      <p id="message">${c.m.authorizeError.text}</p>
      <details>
        <summary>${c.m.technicalDetails}</summary>
        <p id="error">${error}</p>
        <p id="error_description">${description}</p>
      </details>`,
  ),
});

/** Anything else that stopped a step: a way back, the error code for whoever helps the person. */
export const genericErrorPage = (c: PageContext, status: number, error?: string, app?: AppView): PageAnswer => ({
  status,
  html: passPage(
    c,
    c.m.genericError.title,
    html`<h1 id="heading" data-page="error">${c.m.genericError.heading}</h1>
      <p id="message">${c.m.genericError.text}</p>
      ${backLink(c, app)}
      ${
        error
          ? html`<details>
              <summary>${c.m.technicalDetails}</summary>
              <p id="error">${error}</p>
            </details>`
          : ''
      }`,
    app,
  ),
});
