import { flag, html, SafeHtml } from '@kyc/platform';

import { describeScope } from '../pages/i18n/messages';
import { AppView, notice, PageAnswer, PageContext, passPage } from '../pages/pass-page';
import type { AuthorizationDetail, FieldErrorCode, FormField } from '../provider/authorization-details';
import { maxLengthOf } from '../provider/authorization-details';

export interface AttachmentView {
  s3_key: string;
  file_name: string;
  content_type: string;
  size: number | null;
}

export interface ApprovalView {
  authReqId: string;
  sig: string;
  /** Who asks: the application and its tenant (as registered by the operator), not what the client wrote. */
  requester: AppView | null;
  bindingMessage?: string;
  scopes: string[];
  details: AuthorizationDetail[];
  attachments: Map<string, AttachmentView>;
  /** What the approver typed (shown again with the errors). */
  values?: Record<string, unknown>;
  errors?: Record<string, FieldErrorCode>;
}

const base = (v: ApprovalView) => `/approvals/${encodeURIComponent(v.authReqId)}`;

const sizeText = (size: number | null) =>
  size === null
    ? ''
    : size < 1024
      ? `${size} B`
      : size < 1048576
        ? `${(size / 1024).toFixed(1)} KiB`
        : `${(size / 1048576).toFixed(1)} MiB`;

/** `loan_agreement`, `amountLimit` → "Loan agreement", "Amount limit": a member's name in words. */
export const humanize = (name: string): string => {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_\-.:]+/g, ' ')
    .trim()
    .toLowerCase();
  return words ? words[0].toUpperCase() + words.slice(1) : name;
};

/** A member's value as text (no JSON): lists joined, objects as "name: value" pairs. */
function valueText(c: PageContext, value: unknown, depth = 0): string {
  if (typeof value === 'boolean') return value ? c.m.approval.yes : c.m.approval.no;
  if (typeof value === 'string' || typeof value === 'number') return String(value);
  if (depth > 2 || value === null || value === undefined) return '';
  if (Array.isArray(value))
    return value
      .map((v) => valueText(c, v, depth + 1))
      .filter(Boolean)
      .join(', ');
  if (typeof value === 'object')
    return Object.entries(value as Record<string, unknown>)
      .map(([k, v]) => `${humanize(k)}: ${valueText(c, v, depth + 1)}`)
      .join('; ');
  return '';
}

const HIDDEN_MEMBERS = new Set(['type', 'label', 'attachments', 'form_fields']);

function detailHtml(c: PageContext, v: ApprovalView, d: AuthorizationDetail, i: number): SafeHtml {
  const label = typeof d.raw.label === 'string' && d.raw.label.length <= 100 ? d.raw.label : humanize(d.type);
  const facts = Object.entries(d.raw).filter(([k]) => !HIDDEN_MEMBERS.has(k));
  const attachments = d.attachments.map((ref) => {
    const a = v.attachments.get(ref.s3_key);
    const href = `${base(v)}/attachments?sig=${encodeURIComponent(v.sig)}&s3_key=${encodeURIComponent(ref.s3_key)}`;
    return html`<li class="attachment" data-s3-key="${ref.s3_key}">
      <a href="${href}" download>${a?.file_name ?? ref.s3_key}</a>
      <span class="muted">${a?.content_type ?? ''} ${sizeText(a?.size ?? null)}</span>
    </li>`;
  });
  return html`<section class="detail" id="detail_${i}" data-type="${d.type}" aria-labelledby="detail_${i}_label">
    <h3 id="detail_${i}_label">${label}</h3>
    ${
      facts.length
        ? html`<dl class="facts detail-data">
            ${facts.map(
              ([k, value]) =>
                html`<dt>${humanize(k)}</dt>
                  <dd data-member="${k}">${valueText(c, value)}</dd>`,
            )}
          </dl>`
        : ''
    }
    ${
      attachments.length
        ? html`<p class="muted">${c.m.approval.attachments}</p>
            <ul class="attachments">
              ${attachments}
            </ul>`
        : ''
    }
  </section>`;
}

function fieldHtml(c: PageContext, f: FormField, value: unknown, error: FieldErrorCode | undefined): SafeHtml {
  const id = `field_${f.name}`;
  const current = typeof value === 'string' ? value : '';
  const errorId = `error_${f.name}`;
  const described = error ? html` aria-invalid="true" aria-describedby="${errorId}"` : '';
  const errorText = error
    ? html`<p class="field-error" id="${errorId}">${c.m.approval.fieldErrors[error](f.label, maxLengthOf(f))}</p>`
    : '';
  const required = f.required ? html` <span class="muted">(${c.m.approval.required})</span>` : '';
  if (f.type === 'checkbox')
    return html`<div class="field">
      <label class="check" for="${id}"
        ><input
          type="checkbox"
          name="${id}"
          id="${id}"
          ${flag('required', f.required)}
          ${flag('checked', current === 'on')}${described}
        />
        <span>${f.label}${required}</span></label
      >${errorText}
    </div>`;
  const input =
    f.type === 'select'
      ? html`<select name="${id}" id="${id}" ${flag('required', f.required)}${described}>
          <option value="">${c.m.approval.choose}</option>
          ${f.options!.map((o) => html`<option ${flag('selected', o === current)}>${o}</option>`)}
        </select>`
      : f.type === 'number'
        ? html`<input
            type="number"
            step="any"
            inputmode="decimal"
            name="${id}"
            id="${id}"
            value="${current}"
            ${flag('required', f.required)}${described}
          />`
        : f.type === 'date' || f.type === 'email'
          ? html`<input
              type="${f.type}"
              name="${id}"
              id="${id}"
              value="${current}"
              ${flag('required', f.required)}${described}
            />`
          : html`<input
              type="text"
              maxlength="${maxLengthOf(f)}"
              name="${id}"
              id="${id}"
              value="${current}"
              ${flag('required', f.required)}${described}
            />`;
  return html`<div class="field"><label for="${id}">${f.label}${required}</label>${input}${errorText}</div>`;
}

/** The CIBA approval page: who asks, their message, the data shared, what is approved, attachments, the form. */
export function approvalPage(c: PageContext, v: ApprovalView): string {
  const a = c.m.approval;
  const fields = v.details.flatMap((d) => d.form_fields);
  const errors = v.errors ?? {};
  const app = v.requester ?? undefined;
  return passPage(
    c,
    a.title,
    html`<h1 id="heading" data-page="approval">${a.heading}</h1>
      ${
        app
          ? html`<p id="requester" data-application="${app.name}" data-tenant="${app.tenant}">
              ${a.requester(app.name, app.tenant ?? '')}
            </p>`
          : html`<p id="requester">${a.unknownRequester}</p>`
      }
      ${v.bindingMessage ? html`<p>${a.theirMessage}: <q id="binding_message">${v.bindingMessage}</q></p>` : ''}
      ${Object.keys(errors).length ? notice({ code: 'form_errors', text: a.formErrors }) : ''}
      <h2>${a.shares}</h2>
      <ul id="claims" class="claims">
        ${v.scopes.map((s) => html`<li data-scope="${s}">${describeScope(c.m, s)}</li>`)}
      </ul>
      ${
        v.details.length
          ? html`<h2>${a.details}</h2>
              <div id="authorization_details">${v.details.map((d, i) => detailHtml(c, v, d, i))}</div>`
          : ''
      }
      <form method="post" action="${base(v)}?ui_locales=${c.lang}" id="approval_form">
        <input type="hidden" name="sig" value="${v.sig}" />
        ${
          fields.length
            ? html`<fieldset id="form_fields">
                <legend>${a.requested}</legend>
                ${fields.map((f) => fieldHtml(c, f, v.values?.[`field_${f.name}`], errors[f.name]))}
              </fieldset>`
            : ''
        }
        <div class="actions">
          <button name="decision" value="approve" id="approve">${a.approve}</button>
          <button name="decision" value="decline" id="decline" class="secondary" formnovalidate>${a.decline}</button>
        </div>
      </form>`,
    app,
  );
}

/** After the decision: what was decided, for whom. */
export const decidedNowPage = (
  c: PageContext,
  decision: 'approve' | 'decline',
  app: AppView | undefined,
): PageAnswer => {
  const t = decision === 'approve' ? c.m.approval.approved : c.m.approval.declined;
  const name = app?.name ?? c.m.theApplication;
  return {
    status: 200,
    html: passPage(
      c,
      t.title,
      html`<h1 id="outcome" data-decision="${decision === 'approve' ? 'approved' : 'declined'}">${t.heading}</h1>
        <p>${t.text(name)}</p>`,
      app,
    ),
  };
};

/** The link of a request that was already decided (on this page, earlier). */
export const alreadyDecidedPage = (c: PageContext, decision: 'approved' | 'declined', app?: AppView): PageAnswer => ({
  status: 409,
  html: passPage(
    c,
    c.m.approval.decided.title,
    html`<h1 id="heading" data-page="approval-decided" data-decision="${decision}">${c.m.approval.decided.heading}</h1>
      <p>
        ${decision === 'approved' ? c.m.approval.decided.approved : c.m.approval.decided.declined}
        ${c.m.approval.decided.text}
      </p>`,
    app,
  ),
});

/** The link of a request that expired (or never existed with this signature's id). */
export const approvalExpiredPage = (c: PageContext): PageAnswer => ({
  status: 410,
  html: passPage(
    c,
    c.m.approval.expired.title,
    html`<h1 id="heading" data-page="approval-expired">${c.m.approval.expired.heading}</h1>
      <p>${c.m.approval.expired.text}</p>`,
  ),
});

/** A link whose signature does not match (cut, altered or made up). */
export const badLinkPage = (c: PageContext): PageAnswer => ({
  status: 404,
  html: passPage(
    c,
    c.m.approval.badLink.title,
    html`<h1 id="heading" data-page="bad-link">${c.m.approval.badLink.heading}</h1>
      <p>${c.m.approval.badLink.text}</p>`,
  ),
});
