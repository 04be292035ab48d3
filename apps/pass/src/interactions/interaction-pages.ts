import { flag, html } from '@kyc/platform';

import { describeScope } from '../pages/i18n/messages';
import { AppView, notice, PageContext, passPage } from '../pages/pass-page';

/** A notice on a page: its machine code (data-code) and its text in the person's language. */
export interface Notice {
  code: string;
  text: string;
}

const action = (uid: string, step: string) => `/interaction/${encodeURIComponent(uid)}/${step}`;

/** The cancel button: ends the sign-in with access_denied and sends the person back to the application. */
const cancelForm = (c: PageContext, uid: string, label: string, primary = false) =>
  html`<form method="post" action="${action(uid, 'abort')}">
    <button type="submit" id="cancel" class="${primary ? '' : 'secondary'}">${label}</button>
  </form>`;

/** Sign-in: the e-mail (prefilled with login_hint or what was typed) to send a code to. */
export const emailPage = (c: PageContext, uid: string, app: AppView, email?: string, n?: Notice) =>
  passPage(
    c,
    c.m.signIn.title,
    html`<h1 id="heading" data-page="sign-in">${c.m.signIn.heading(app.name)}</h1>
      ${notice(n)}
      <p>${c.m.signIn.intro}</p>
      <form method="post" action="${action(uid, 'email')}" id="email-form">
        <div class="field">
          <label for="email">${c.m.signIn.email}</label>
          <input
            id="email"
            name="email"
            type="email"
            autocomplete="email"
            inputmode="email"
            maxlength="254"
            required
            value="${email ?? ''}"
            ${flag('autofocus', true)}
          />
        </div>
        <button type="submit" id="send-code">${c.m.signIn.send}</button>
      </form>
      <div class="actions">${cancelForm(c, uid, c.m.signIn.cancel)}</div>`,
    app,
  );

/** The code sent to the e-mail; another code, or another e-mail. */
export const codePage = (c: PageContext, uid: string, app: AppView, email: string, n?: Notice) =>
  passPage(
    c,
    c.m.code.title,
    html`<h1 id="heading" data-page="code">${c.m.code.heading}</h1>
      ${notice(n, n?.code === 'code_sent' ? 'info' : 'error')}
      <p id="sent-to">${c.m.code.intro(email)}</p>
      <form method="post" action="${action(uid, 'code')}" id="code-form">
        <input type="hidden" name="email" value="${email}" />
        <div class="field">
          <label for="code">${c.m.code.label}</label>
          <p class="hint" id="code-hint">${c.m.code.hint}</p>
          <input
            id="code"
            name="code"
            inputmode="numeric"
            autocomplete="one-time-code"
            pattern="[0-9]{6}"
            maxlength="6"
            required
            aria-describedby="code-hint"
            ${flag('autofocus', true)}
          />
        </div>
        <button type="submit" id="verify">${c.m.code.verify}</button>
      </form>
      <div class="actions">
        <form method="post" action="${action(uid, 'email')}">
          <input type="hidden" name="email" value="${email}" />
          <input type="hidden" name="resend" value="1" />
          <button type="submit" id="resend" class="secondary">${c.m.code.resend}</button>
        </form>
        <a href="/interaction/${encodeURIComponent(uid)}" id="other-email">${c.m.code.otherEmail}</a>
      </div>`,
    app,
  );

/** Too many wrong codes (or codes asked for): how long to wait, and the way back. */
export const lockoutPage = (c: PageContext, uid: string, app: AppView, seconds: number) =>
  passPage(
    c,
    c.m.lockout.title,
    html`<h1 id="heading" data-page="lockout">${c.m.lockout.heading}</h1>
      ${notice({ code: 'too_many_attempts', text: c.m.lockout.text(c.m.wait(seconds)) })}
      <p>${c.m.lockout.after}</p>
      <div class="actions">${cancelForm(c, uid, c.m.backTo(app.name), true)}</div>`,
    app,
  );

/** Consent: who asks (the application and its tenant), what each scope gives, Allow (primary) or Deny. */
export const consentPage = (c: PageContext, uid: string, app: AppView, scopes: string[]) =>
  passPage(
    c,
    c.m.consent.title,
    html`<h1 id="heading" data-page="consent">${c.m.consent.heading(app.name)}</h1>
      ${app.tenant ? html`<p id="owner">${c.m.consent.owner(app.name, app.tenant)}</p>` : ''}
      <p>${c.m.consent.intro(app.name)}</p>
      <ul id="claims" class="claims">
        ${scopes.map((s) => html`<li data-scope="${s}">${describeScope(c.m, s)}</li>`)}
      </ul>
      <form method="post" action="${action(uid, 'consent')}" class="actions">
        <button name="decision" value="allow" id="allow">${c.m.consent.allow}</button>
        <button name="decision" value="deny" id="deny" class="secondary">${c.m.consent.deny}</button>
      </form>
      <p class="muted">${c.m.consent.note}</p>`,
    app,
  );

/** A step-up condition the person cannot satisfy here (acr_not_satisfied): back to the application. */
export const stepUpPage = (c: PageContext, uid: string, app: AppView, n: Notice) =>
  passPage(
    c,
    c.m.stepUp.title,
    html`<h1 id="heading" data-page="step-up">${c.m.stepUp.heading}</h1>
      ${notice(n)}
      <div class="actions">${cancelForm(c, uid, c.m.backTo(app.name), true)}</div>`,
    app,
  );
