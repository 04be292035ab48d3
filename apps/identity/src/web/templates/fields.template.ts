import { flag, html, SafeHtml } from './html';

/** One input of a step as the page shows it. */
export interface PageField {
  name: string;
  label: string;
  kind: 'text' | 'email' | 'tel' | 'code' | 'select' | 'file';
  required: boolean;
  value?: string;
  hint?: string;
  autocomplete?: string;
  options?: { value: string; label: string }[];
}

const AUTOCOMPLETE: Record<string, string> = {
  first_name: 'given-name',
  last_name: 'family-name',
  email: 'email',
  phone_number: 'tel',
  cell_phone: 'tel',
  code: 'one-time-code',
};

const control = (f: PageField, id: string, describedBy: string): SafeHtml => {
  const autocomplete = f.autocomplete ?? AUTOCOMPLETE[f.name] ?? 'off';
  switch (f.kind) {
    case 'select':
      return html`<select id="${id}" name="${f.name}" aria-describedby="${describedBy}" ${flag('required', f.required)}>
        ${(f.options ?? []).map((o) => html`<option value="${o.value}" ${flag('selected', o.value === f.value)}>${o.label}</option>`)}
      </select>`;
    case 'file':
      return html`<input
        id="${id}"
        name="${f.name}"
        type="file"
        accept="image/jpeg,image/png"
        aria-describedby="${describedBy}"
        ${flag('required', f.required)}
      />`;
    case 'code':
      return html`<input
        id="${id}"
        name="${f.name}"
        type="text"
        inputmode="numeric"
        pattern="[0-9]{6}"
        maxlength="6"
        autocomplete="one-time-code"
        aria-describedby="${describedBy}"
        ${flag('required', f.required)}
      />`;
    default:
      return html`<input
        id="${id}"
        name="${f.name}"
        type="${f.kind}"
        value="${f.value ?? ''}"
        autocomplete="${autocomplete}"
        aria-describedby="${describedBy}"
        ${flag('required', f.required)}
      />`;
  }
};

/** A labelled control with its hint and its (hidden until needed) error message. */
export const fieldTemplate = (f: PageField): SafeHtml => {
  const id = `field-${f.name}`;
  const describedBy = [f.hint ? `${id}-hint` : '', `${id}-error`].filter(Boolean).join(' ');
  return html`<div class="field">
    <label for="${id}">${f.label}${f.required ? html`<span aria-hidden="true"> *</span>` : ''}</label>
    ${f.hint ? html`<p id="${id}-hint" class="hint">${f.hint}</p>` : ''} ${control(f, id, describedBy)}
    <p id="${id}-error" class="field-error" hidden></p>
  </div>`;
};
