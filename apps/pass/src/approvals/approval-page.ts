import { describeScope } from '../interactions/interaction-pages';
import { escapeHtml, page } from '../pages/html';
import type { AuthorizationDetail, FormField } from './authorization-details';

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
  requester: { application: string; tenant: string } | null;
  bindingMessage?: string;
  scopes: string[];
  details: AuthorizationDetail[];
  attachments: Map<string, AttachmentView>;
  /** What the approver typed (shown again with the errors). */
  values?: Record<string, unknown>;
  errors?: Record<string, string>;
}

const base = (v: ApprovalView) => `/approvals/${escapeHtml(encodeURIComponent(v.authReqId))}`;

const sizeText = (size: number | null) =>
  size === null
    ? ''
    : size < 1024
      ? `${size} B`
      : size < 1048576
        ? `${(size / 1024).toFixed(1)} KiB`
        : `${(size / 1048576).toFixed(1)} MiB`;

function fieldInput(f: FormField, value: unknown): string {
  const id = `field_${f.name}`;
  const attrs = `name="${id}" id="${id}"${f.required ? ' required' : ''}`;
  const current = typeof value === 'string' ? value : '';
  switch (f.type) {
    case 'checkbox':
      return `<input type="checkbox" ${attrs}${current === 'on' ? ' checked' : ''}>`;
    case 'select':
      return (
        `<select ${attrs}><option value="">Choose…</option>` +
        f.options!.map((o) => `<option${o === current ? ' selected' : ''}>${escapeHtml(o)}</option>`).join('') +
        `</select>`
      );
    case 'number':
      return `<input type="number" step="any" ${attrs} value="${escapeHtml(current)}">`;
    case 'date':
    case 'email':
      return `<input type="${f.type}" ${attrs} value="${escapeHtml(current)}">`;
    default:
      return `<input type="text" maxlength="${f.max_length ?? 1000}" ${attrs} value="${escapeHtml(current)}">`;
  }
}

function detailHtml(v: ApprovalView, d: AuthorizationDetail, i: number): string {
  const shown = Object.fromEntries(
    Object.entries(d.raw).filter(([k]) => k !== 'type' && k !== 'attachments' && k !== 'form_fields'),
  );
  const attachments = d.attachments.map((ref) => {
    const a = v.attachments.get(ref.s3_key);
    const href = `${base(v)}/attachments?sig=${escapeHtml(encodeURIComponent(v.sig))}&amp;s3_key=${escapeHtml(encodeURIComponent(ref.s3_key))}`;
    return (
      `<li class="attachment" data-s3-key="${escapeHtml(ref.s3_key)}"><a href="${href}" download>${escapeHtml(a?.file_name ?? ref.s3_key)}</a>` +
      ` <span>${escapeHtml(a?.content_type ?? '')} ${escapeHtml(sizeText(a?.size ?? null))}</span></li>`
    );
  });
  return (
    `<section class="detail" id="detail_${i}"><h2>${escapeHtml(d.type)}</h2>` +
    (Object.keys(shown).length ? `<pre class="detail-data">${escapeHtml(JSON.stringify(shown, null, 2))}</pre>` : '') +
    (attachments.length ? `<ul class="attachments">${attachments.join('')}</ul>` : '') +
    `</section>`
  );
}

/** The CIBA approval page: binding message, requested data, authorization details, attachments, the form. */
export function approvalPage(v: ApprovalView): string {
  const fields = v.details.flatMap((d) => d.form_fields);
  const errors = v.errors ?? {};
  const formHtml = fields
    .map(
      (f) =>
        `<label for="field_${escapeHtml(f.name)}">${escapeHtml(f.label)}${f.required ? ' *' : ''}</label>` +
        fieldInput(f, v.values?.[`field_${f.name}`]) +
        (errors[f.name]
          ? `<p class="field-error" id="error_${escapeHtml(f.name)}">${escapeHtml(`${f.label} ${errors[f.name]}`)}</p>`
          : ''),
    )
    .join('');
  return page(
    'Approve the request',
    `<h1>Approve the request</h1>` +
      (v.requester
        ? `<p id="requester"><strong id="requester_application">${escapeHtml(v.requester.application)}</strong>` +
          ` (tenant <span id="requester_tenant">${escapeHtml(v.requester.tenant)}</span>) asks you to approve this request.</p>`
        : `<p id="requester">An application that no longer exists asks you to approve this request.</p>`) +
      (v.bindingMessage ? `<p>Their message: <q id="binding_message">${escapeHtml(v.bindingMessage)}</q></p>` : '') +
      (Object.keys(errors).length ? `<p class="notice" id="form_errors">Some answers need your attention.</p>` : '') +
      `<p>The application asks to share:</p>` +
      `<ul id="claims">${v.scopes.map((s) => `<li data-scope="${escapeHtml(s)}">${escapeHtml(describeScope(s))}</li>`).join('')}</ul>` +
      (v.details.length
        ? `<div id="authorization_details">${v.details.map((d, i) => detailHtml(v, d, i)).join('')}</div>`
        : '') +
      `<form method="post" action="${base(v)}" id="approval_form">` +
      `<input type="hidden" name="sig" value="${escapeHtml(v.sig)}">` +
      (fields.length ? `<fieldset id="form_fields"><legend>Requested information</legend>${formHtml}</fieldset>` : '') +
      `<button name="decision" value="approve" id="approve">Approve</button>` +
      `<button name="decision" value="decline" id="decline" formnovalidate>Decline</button></form>`,
  );
}
