import type { PageLanguage, PageMessages } from '../i18n/messages';
import { fieldTemplate, PageField } from './fields.template';
import { html, SafeHtml } from './html';

export interface StepRef {
  step_id: string;
  verification_id: string;
  type: string;
}

/** One finished step's outcome in words: done ("Document read") or failed (its reason). */
export interface StepOutcome {
  state: 'done' | 'failed';
  text: string;
}

/** What the page shows for the process's state (built by WebPageService, rendered here). */
export type PageState =
  | { kind: 'step'; heading: string; intro: string; fields: PageField[]; submit: string; step: StepRef; alert?: string }
  | {
      kind: 'upload';
      heading: string;
      intro: string;
      fields: PageField[];
      submit: string;
      /** The capture module's mode: rear camera and a card frame, or front camera and an oval. */
      capture: 'document' | 'face';
      /** The step's last photo failed and it is taken again: why, in words. */
      alert?: string;
    }
  | { kind: 'waiting'; heading: string; text: string; outcomes?: StepOutcome[] }
  | {
      kind: 'result';
      success: boolean;
      heading: string;
      text: string;
      reason?: string;
      redirectUrl?: string;
      redirectSeconds: number;
      outcomes?: StepOutcome[];
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

/** The capture module's texts (advice, buttons), read by /web/assets/capture.js from the form. */
const captureMessages = (kind: 'document' | 'face', m: PageMessages): string => {
  const c = m.capture;
  return JSON.stringify({
    opening: c.opening,
    noCamera: c.noCamera,
    retake: c.retake,
    previewOf: c.previewOf,
    continueWith: c.continueWith,
    taken: c.taken,
    ready: c.ready,
    advice: { ...c.advice, start: c[kind].start, place: c[kind].place },
  });
};

/** The camera (hidden until capture.js opens it): the video, its guide, the live advice and the buttons. */
const camera = (kind: 'document' | 'face', m: PageMessages): SafeHtml =>
  html`<section id="camera" class="camera" aria-label="${m.capture.camera}" hidden>
    <p id="camera-title" class="camera-title">${m.capture.camera}</p>
    <div class="viewfinder ${kind}">
      <video id="camera-video" muted playsinline aria-hidden="true"></video>
      <div class="guide" aria-hidden="true"></div>
    </div>
    <p id="capture-advice" class="advice" role="status" aria-live="polite"></p>
    <div class="camera-actions">
      <button type="button" id="shutter" hidden>${m.capture.shutter}</button>
      <button type="button" id="next-side" hidden></button>
      <button type="button" id="use-file" class="secondary">${m.capture.useFile}</button>
    </div>
  </section>`;

const uploadForm = (s: Extract<PageState, { kind: 'upload' }>, m: PageMessages): SafeHtml =>
  html`<p class="intro">${s.intro}</p>
    ${s.alert ? html`<p id="retry-reason" class="notice" role="alert">${s.alert}</p>` : ''}
    <form
      id="upload-form"
      data-kind="upload"
      data-capture="${s.capture}"
      data-capture-messages="${captureMessages(s.capture, m)}"
      novalidate
    >
      ${camera(s.capture, m)} ${s.fields.map(fieldTemplate)}
      <button type="submit" data-working="${m.working}">${s.submit}</button>
    </form>`;

const outcomeList = (outcomes: StepOutcome[] | undefined): SafeHtml | string =>
  outcomes?.length
    ? html`<ol id="outcomes" class="outcomes">
        ${outcomes.map((o) => html`<li data-state="${o.state}">${o.text}</li>`)}
      </ol>`
    : '';

const waiting = (s: Extract<PageState, { kind: 'waiting' }>, m: PageMessages): SafeHtml =>
  html`${outcomeList(s.outcomes)}
    <p class="waiting" data-poll data-slow="${m.outcome.slow}">
      <span class="spinner" aria-hidden="true"></span><span class="waiting-text">${s.text}</span>
    </p>`;

const result = (s: Extract<PageState, { kind: 'result' }>, m: PageMessages): SafeHtml =>
  html`<div
    id="result"
    class="result ${s.success ? 'success' : 'failure'}"
    data-status="${s.success ? 'success' : 'failure'}"
  >
    <p>${s.text}</p>
    ${outcomeList(s.outcomes)}
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
      return waiting(s, model.messages);
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
        ${model.state.kind === 'upload' ? html`<script src="/web/assets/capture.js" defer></script>` : ''}
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
