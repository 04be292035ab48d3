import type { OutboundQuality } from '@kyc/contracts';

/** A button of an outbound, as the spec's wire shape has it. */
export interface OutboundButton {
  type: 'QUICK_REPLY' | 'URL' | 'PHONE_NUMBER' | 'COPY_CODE';
  text: string;
  url?: string;
  phone_number?: string;
}

/** What the adapter needs of an outbound to submit it as a provider template. */
export interface TemplateDefinition {
  providerName: string;
  category: 'MARKETING' | 'AUTHENTICATION' | 'UTILITY';
  languageCode: string;
  templateType: 'TEXT' | 'IMAGE' | 'VIDEO' | 'DOCUMENT';
  content?: string;
  headerText?: string;
  footer?: string;
  codeExpirationMinutes?: number;
  buttons: OutboundButton[];
  /** Provider media handle of the header (IMAGE, VIDEO, DOCUMENT). */
  mediaId?: string;
  /** Example value of each variable (the spec's `var`). */
  examples: Record<string, string>;
}

/** `{{.name}}`: the spec's variable syntax. */
export const VARIABLE_PATTERN = /\{\{\.([A-Za-z_][A-Za-z0-9_]*)\}\}/g;
/** Any `{{...}}`, to find malformed variables. */
export const ANY_BRACES = /\{\{([^}]*)\}\}/g;

/** Variable names of a text in order of first appearance. */
export function variablesOf(text: string | undefined): string[] {
  const names: string[] = [];
  for (const m of (text ?? '').matchAll(VARIABLE_PATTERN)) if (!names.includes(m[1])) names.push(m[1]);
  return names;
}

/** The `{{...}}` of a text that are not `{{.name}}` variables. */
export function malformedVariables(text: string | undefined): string[] {
  return [...(text ?? '').matchAll(ANY_BRACES)].map((m) => m[0]).filter((v) => !/^\{\{\.[A-Za-z_]\w*\}\}$/.test(v));
}

/** The predefined AUTHENTICATION body per language (the provider's fixed text), with `{{.code}}`. */
export const AUTHENTICATION_TEXT: Record<string, string> = {
  en: '{{.code}} is your verification code.',
  en_GB: '{{.code}} is your verification code.',
  en_US: '{{.code}} is your verification code.',
  es: '{{.code}} es tu código de verificación.',
  es_AR: '{{.code}} es tu código de verificación.',
  es_MX: '{{.code}} es tu código de verificación.',
  es_ES: '{{.code}} es tu código de verificación.',
  pt_BR: '{{.code}} é o seu código de verificação.',
  pt_PT: '{{.code}} é o seu código de verificação.',
};

/** The predefined expiry footer of AUTHENTICATION templates. */
export function authenticationFooter(language: string, minutes: number): string {
  if (language.startsWith('es')) return `Este código caduca en ${minutes} minutos.`;
  if (language.startsWith('pt')) return `Este código expira em ${minutes} minutos.`;
  return `This code expires in ${minutes} minutes.`;
}

/** The label of the automatic COPY_CODE button per language. */
export function copyCodeLabel(language: string): string {
  if (language.startsWith('es')) return 'Copiar código';
  if (language.startsWith('pt')) return 'Copiar código';
  return 'Copy code';
}

/** `{{.a}} and {{.b}}` → `{{1}} and {{2}}` (the provider numbers variables per component). */
export function toPositional(text: string, names = variablesOf(text)): string {
  return text.replace(VARIABLE_PATTERN, (_, name: string) => `{{${names.indexOf(name) + 1}}}`);
}

/** `{{1}} and {{2}}` → `{{.a}} and {{.b}}`, given the names in order (a provider template read back). */
export function fromPositional(text: string, names: string[]): string {
  return text.replace(/\{\{(\d+)\}\}/g, (whole, n: string) =>
    names[Number(n) - 1] ? `{{.${names[Number(n) - 1]}}}` : whole,
  );
}

/** Every variable of a template, in the order a send supplies them: header, body, URL buttons, COPY_CODE. */
export function templateVariables(
  def: Pick<TemplateDefinition, 'category' | 'content' | 'headerText' | 'buttons'>,
): string[] {
  const names: string[] = [];
  const add = (n: string) => !names.includes(n) && names.push(n);
  if (def.category === 'AUTHENTICATION') return ['code'];
  variablesOf(def.headerText).forEach(add);
  variablesOf(def.content).forEach(add);
  for (const b of def.buttons) {
    if (b.type === 'URL') variablesOf(b.url).forEach(add);
    if (b.type === 'COPY_CODE') add('code');
  }
  return names;
}

/** The provider's template components (Graph API `message_templates` POST body). */
export function toGraphTemplate(def: TemplateDefinition): Record<string, unknown> {
  const ex = (n: string) => def.examples[n] ?? n;
  const components: Record<string, unknown>[] = [];
  if (def.category === 'AUTHENTICATION') {
    components.push({ type: 'BODY', add_security_recommendation: false });
    if (def.codeExpirationMinutes)
      components.push({ type: 'FOOTER', code_expiration_minutes: def.codeExpirationMinutes });
    components.push({
      type: 'BUTTONS',
      buttons: [{ type: 'OTP', otp_type: 'COPY_CODE', text: copyCodeLabel(def.languageCode) }],
    });
  } else {
    if (def.templateType === 'TEXT' && def.headerText) {
      const names = variablesOf(def.headerText);
      components.push({
        type: 'HEADER',
        format: 'TEXT',
        text: toPositional(def.headerText, names),
        ...(names.length ? { example: { header_text: names.map(ex) } } : {}),
      });
    } else if (def.templateType !== 'TEXT')
      components.push({ type: 'HEADER', format: def.templateType, example: { header_handle: [def.mediaId] } });
    const bodyNames = variablesOf(def.content);
    components.push({
      type: 'BODY',
      text: toPositional(def.content ?? '', bodyNames),
      ...(bodyNames.length ? { example: { body_text: [bodyNames.map(ex)] } } : {}),
    });
    if (def.footer) components.push({ type: 'FOOTER', text: def.footer });
    if (def.buttons.length)
      components.push({
        type: 'BUTTONS',
        buttons: def.buttons.map((b) => {
          if (b.type === 'URL') {
            const names = variablesOf(b.url);
            return {
              type: 'URL',
              text: b.text,
              url: toPositional(b.url ?? '', names),
              ...(names.length ? { example: [(b.url ?? '').replace(VARIABLE_PATTERN, (_, n: string) => ex(n))] } : {}),
            };
          }
          if (b.type === 'PHONE_NUMBER') return { type: 'PHONE_NUMBER', text: b.text, phone_number: b.phone_number };
          if (b.type === 'COPY_CODE') return { type: 'COPY_CODE', example: ex('code') };
          return { type: 'QUICK_REPLY', text: b.text };
        }),
      });
  }
  return { name: def.providerName, language: def.languageCode, category: def.category, components };
}

/** The `template` object of a send (Graph API `messages` POST), with the values of every variable. */
export function toGraphSend(
  def: Pick<
    TemplateDefinition,
    'providerName' | 'category' | 'languageCode' | 'templateType' | 'content' | 'headerText' | 'buttons' | 'mediaId'
  >,
  values: Record<string, string>,
): Record<string, unknown> {
  const text = (n: string) => ({ type: 'text', text: values[n] });
  const components: Record<string, unknown>[] = [];
  if (def.category === 'AUTHENTICATION') {
    components.push({ type: 'body', parameters: [text('code')] });
    components.push({ type: 'button', sub_type: 'url', index: '0', parameters: [text('code')] });
  } else {
    if (def.templateType === 'TEXT') {
      const names = variablesOf(def.headerText);
      if (names.length) components.push({ type: 'header', parameters: names.map(text) });
    } else {
      const kind = def.templateType.toLowerCase();
      components.push({ type: 'header', parameters: [{ type: kind, [kind]: { id: def.mediaId } }] });
    }
    const bodyNames = variablesOf(def.content);
    if (bodyNames.length) components.push({ type: 'body', parameters: bodyNames.map(text) });
    def.buttons.forEach((b, index) => {
      const names = b.type === 'URL' ? variablesOf(b.url) : [];
      if (names.length)
        components.push({ type: 'button', sub_type: 'url', index: String(index), parameters: names.map(text) });
      if (b.type === 'COPY_CODE')
        components.push({
          type: 'button',
          sub_type: 'copy_code',
          index: String(index),
          parameters: [{ type: 'coupon_code', coupon_code: values.code }],
        });
    });
  }
  return { name: def.providerName, language: { code: def.languageCode }, components };
}

/** The provider's quality rating (GREEN, YELLOW, RED, UNKNOWN) as the spec's quality. */
export function qualityOf(rating: string | undefined): OutboundQuality {
  switch ((rating ?? '').toUpperCase()) {
    case 'GREEN':
    case 'HIGH':
      return 'HIGH';
    case 'YELLOW':
    case 'MEDIUM':
      return 'MEDIUM';
    case 'RED':
    case 'LOW':
      return 'LOW';
    default:
      return 'PENDING';
  }
}
