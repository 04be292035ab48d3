import type { PageLanguage, PageMessages } from '../i18n/messages';
import { fieldTemplate, PageField } from './fields.template';
import { html, SafeHtml } from './html';

export interface StepRef {
  step_id: string;
  verification_id: string;
  type: string;
}

/** What the page shows for the process's state (built by WebPageService, rendered here). */
export type PageState =
  | { kind: 'step'; heading: string; intro: string; fields: PageField[]; submit: string; step: StepRef; alert?: string }
  | { kind: 'upload'; heading: string; intro: string; fields: PageField[]; submit: string }
  | { kind: 'waiting'; heading: string; text: string }
  | {
      kind: 'result';
      success: boolean;
      heading: string;
      text: string;
      reason?: string;
      redirectUrl?: string;
      redirectSeconds: number;
    }
  | { kind: 'invalid-link'; heading: string; text: string };

export interface PageModel {
  lang: PageLanguage;
  messages: PageMessages;
  state: PageState;
  processId?: string;
  /** The process's temporary web key: the page's scripts call the process API with it. */
  key?: string;
  /** The process's update_date: the page reloads when it changes while waiting. */
  updatedAt?: string;
  /** The process has no device information yet: the page sends it (browser, screen, language). */
  sendDeviceInfo?: boolean;
  progress?: string;
}

const stepForm = (s: Extract<PageState, { kind: 'step' }>, m: PageMessages): SafeHtml =>
  html`<p class="intro">${s.intro}</p>
    ${s.alert ? html`<p class="notice" role="alert">${s.alert}</p>` : ''}
    <form
      id="step-form"
      data-kind="step"
      data-step-id="${s.step.step_id}"
      data-verification-id="${s.step.verification_id}"
      data-type="${s.step.type}"
      novalidate
    >
      ${s.fields.map(fieldTemplate)}
      <button type="submit" data-working="${m.working}">${s.submit}</button>
    </form>`;

const uploadForm = (s: Extract<PageState, { kind: 'upload' }>, m: PageMessages): SafeHtml =>
  html`<p class="intro">${s.intro}</p>
    <form id="upload-form" data-kind="upload" novalidate>
      ${s.fields.map(fieldTemplate)}
      <button type="submit" data-working="${m.working}">${s.submit}</button>
    </form>`;

const waiting = (s: Extract<PageState, { kind: 'waiting' }>): SafeHtml =>
  html`<p class="waiting" data-poll><span class="spinner" aria-hidden="true"></span>${s.text}</p>`;

const result = (s: Extract<PageState, { kind: 'result' }>, m: PageMessages): SafeHtml =>
  html`<div
    id="result"
    class="result ${s.success ? 'success' : 'failure'}"
    data-status="${s.success ? 'success' : 'failure'}"
  >
    <p>${s.text}</p>
    ${s.reason ? html`<p id="reason"><strong>${m.result.reason}:</strong> ${s.reason}</p>` : ''}
    ${
      s.redirectUrl
        ? html`<p id="redirect-note" data-redirect="${s.redirectUrl}" data-seconds="${s.redirectSeconds}">
              ${m.result.redirecting(s.redirectSeconds)}
            </p>
            <p><a id="redirect-link" href="${s.redirectUrl}">${m.result.continueLink}</a></p>`
        : ''
    }
  </div>`;

const body = (model: PageModel): SafeHtml => {
  const s = model.state;
  switch (s.kind) {
    case 'step':
      return stepForm(s, model.messages);
    case 'upload':
      return uploadForm(s, model.messages);
    case 'waiting':
      return waiting(s);
    case 'result':
      return result(s, model.messages);
    case 'invalid-link':
      return html`<p>${s.text}</p>`;
  }
};

/** The whole page: one heading (focused on load), the current step, and the live regions. */
export const pageTemplate = (model: PageModel): SafeHtml => {
  const m = model.messages;
  return html`<!doctype html>
    <html lang="${model.lang}">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>${model.state.heading} · ${m.title}</title>
        <link rel="stylesheet" href="/web/assets/page.css" />
        <script src="/web/assets/page.js" defer></script>
      </head>
      <body>
        <header>
          <p class="brand">${m.title}</p>
          ${model.progress ? html`<p class="progress">${model.progress}</p>` : ''}
        </header>
        <main
          id="main"
          data-process="${model.processId ?? ''}"
          data-key="${model.key ?? ''}"
          data-updated="${model.updatedAt ?? ''}"
          data-device="${model.sendDeviceInfo ? 'send' : ''}"
          data-msg-required="${m.required}"
          data-msg-invalid="${m.invalid}"
          data-msg-error="${m.genericError}"
          data-msg-too-many="${m.tooManyAttempts}"
        >
          <h1 id="heading" tabindex="-1">${model.state.heading}</h1>
          ${body(model)}
          <div id="errors" class="errors" role="alert" aria-live="assertive"></div>
          <div id="status" class="visually-hidden" role="status" aria-live="polite"></div>
        </main>
      </body>
    </html> `;
};
