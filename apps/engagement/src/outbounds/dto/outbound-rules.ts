import type { FieldError } from '@kyc/platform';

import {
  AUTHENTICATION_TEXT,
  malformedVariables,
  OutboundButton,
  templateVariables,
  variablesOf,
} from '../../provider/template-components';
import { BUTTON_TYPES, SaveOutboundDto } from './save-outbound.dto';

export const BUTTON_LIMITS = { total: 10, QUICK_REPLY: 10, URL: 2, PHONE_NUMBER: 1, COPY_CODE: 1 } as const;
export const BUTTON_TEXT_MAX = 25;
export const BUTTON_URL_MAX = 2000;
export const BUTTON_PHONE_MAX = 20;
/** Max length of the value of `{{.code}}` (COPY_CODE button, AUTHENTICATION). */
export const CODE_VALUE_MAX = 15;

/** What the rules leave for the service: the buttons, examples and variables of a valid outbound. */
export interface CheckedOutbound {
  buttons: OutboundButton[];
  examples: Record<string, string>;
  variables: string[];
  content?: string;
}

/**
 * The rules between fields of an outbound (spec 2, "Outbound message (template)" and its button
 * rules). Returns every offending field; empty when the outbound is valid.
 */
// A field sent as null is absent (the generated clients send null for unset optional fields).
export function outboundRuleErrors(dto: SaveOutboundDto): { errors: FieldError[]; checked: CheckedOutbound } {
  const errors: FieldError[] = [];
  const fail = (field: string, message: string) => errors.push({ field, message });
  const auth = dto.category === 'AUTHENTICATION';
  const media = dto.template_type !== 'TEXT';

  if (auth && media) fail('template_type', 'AUTHENTICATION allows only TEXT');
  if (media && !dto.media_id) fail('media_id', `media_id is required for ${dto.template_type}`);
  if (!media && dto.media_id != null) fail('media_id', 'TEXT has no media');

  if (auth) {
    if (dto.content != null) fail('content', 'AUTHENTICATION text is predefined by language');
    if (dto.header_text != null) fail('header_text', 'header_text is for MARKETING and UTILITY only');
    if (dto.footer != null) fail('footer', 'footer is for MARKETING and UTILITY only');
    if (dto.buttons?.length) fail('buttons', 'buttons are not available for AUTHENTICATION (COPY_CODE is added)');
  } else {
    if (dto.code_expiration_minutes != null)
      fail('code_expiration_minutes', 'code_expiration_minutes is for AUTHENTICATION only');
    if (!dto.content?.trim()) fail('content', 'content is required for MARKETING and UTILITY');
    for (const bad of malformedVariables(dto.content))
      fail('content', `${bad} is not a variable: write variables as {{.name}}`);
    if (dto.header_text != null) {
      if (media) fail('header_text', 'header_text is for TEXT templates only');
      if (variablesOf(dto.header_text).length > 1) fail('header_text', 'header_text allows at most one variable');
      for (const bad of malformedVariables(dto.header_text))
        fail('header_text', `${bad} is not a variable: write variables as {{.name}}`);
    }
  }

  const buttons = checkButtons(dto, fail);
  const content = auth ? AUTHENTICATION_TEXT[dto.language_code] : dto.content;
  const variables = templateVariables({ category: dto.category, content, headerText: dto.header_text, buttons });

  const examples: Record<string, string> = {};
  for (const [name, example] of Object.entries(dto.var ?? {})) {
    const value = (example as { value?: unknown } | null)?.value;
    if (!example || typeof example !== 'object' || typeof value !== 'string' || Object.keys(example).length !== 1)
      fail(`var.${name}`, 'each var entry is an object with one string field `value`');
    else if (!variables.includes(name)) fail(`var.${name}`, `${name} is not a variable of this outbound`);
    else examples[name] = value;
  }
  for (const name of variables)
    if (!auth && examples[name] === undefined && !(`${name}` in (dto.var ?? {})))
      fail(`var.${name}`, `an example value is required for the variable {{.${name}}}`);
  if (examples.code !== undefined && examples.code.length > CODE_VALUE_MAX)
    fail('var.code', `the code is at most ${CODE_VALUE_MAX} characters`);

  return { errors, checked: { buttons, examples, variables, content } };
}

function checkButtons(dto: SaveOutboundDto, fail: (field: string, message: string) => void): OutboundButton[] {
  const raw = dto.buttons ?? [];
  if (raw.length > BUTTON_LIMITS.total) fail('buttons', `at most ${BUTTON_LIMITS.total} buttons`);
  const buttons: OutboundButton[] = [];
  raw.forEach((b, i) => {
    const at = `buttons[${i}]`;
    if (!b || typeof b !== 'object' || Array.isArray(b)) return fail(at, 'a button is an object');
    const { type, text, url, phone_number } = b as Record<string, unknown>;
    if (!(BUTTON_TYPES as readonly unknown[]).includes(type))
      return fail(`${at}.type`, `type must be one of ${BUTTON_TYPES.join(', ')}`);
    const button: OutboundButton = { type: type as OutboundButton['type'], text: '' };
    if (type === 'COPY_CODE') {
      if (text !== undefined && text !== '')
        fail(`${at}.text`, 'COPY_CODE text is an empty string (its label comes from language_code)');
    } else if (typeof text !== 'string' || !text.trim()) fail(`${at}.text`, 'text is required');
    else if (text.length > BUTTON_TEXT_MAX) fail(`${at}.text`, `text is at most ${BUTTON_TEXT_MAX} characters`);
    else button.text = text;
    if (type === 'URL') {
      if (typeof url !== 'string' || !url) fail(`${at}.url`, 'url is required for URL buttons');
      else if (url.length > BUTTON_URL_MAX) fail(`${at}.url`, `url is at most ${BUTTON_URL_MAX} characters`);
      else {
        const problem = urlProblem(url);
        if (problem) fail(`${at}.url`, problem);
        else button.url = url;
      }
    } else if (url !== undefined) fail(`${at}.url`, 'url is for URL buttons only');
    if (type === 'PHONE_NUMBER') {
      if (typeof phone_number !== 'string' || !phone_number)
        fail(`${at}.phone_number`, 'phone_number is required for PHONE_NUMBER buttons');
      else if (phone_number.length > BUTTON_PHONE_MAX)
        fail(`${at}.phone_number`, `phone_number is at most ${BUTTON_PHONE_MAX} characters`);
      else if (!/^\+?[0-9 ()-]+$/.test(phone_number)) fail(`${at}.phone_number`, 'phone_number must be a phone number');
      else button.phone_number = phone_number;
    } else if (phone_number !== undefined) fail(`${at}.phone_number`, 'phone_number is for PHONE_NUMBER buttons only');
    buttons.push(button);
  });
  const count = (t: OutboundButton['type']) => buttons.filter((b) => b.type === t).length;
  for (const t of ['QUICK_REPLY', 'URL', 'PHONE_NUMBER', 'COPY_CODE'] as const)
    if (count(t) > BUTTON_LIMITS[t])
      fail('buttons', `at most ${BUTTON_LIMITS[t]} ${t} button${BUTTON_LIMITS[t] > 1 ? 's' : ''}`);
  if (count('COPY_CODE') && dto.category !== 'MARKETING') fail('buttons', 'COPY_CODE buttons are for MARKETING only');
  if (count('QUICK_REPLY') && dto.is_notification)
    fail('buttons', 'a notification (is_notification true) cannot include QUICK_REPLY buttons');
  if (!quickRepliesGrouped(buttons.map((b) => b.type)))
    fail('buttons', 'quick replies must be grouped together, before or after all the other buttons');
  return buttons;
}

/**
 * Quick replies must form one run at the start or at the end: QUICK_REPLY,QUICK_REPLY,URL,PHONE_NUMBER
 * and URL,PHONE_NUMBER,QUICK_REPLY,QUICK_REPLY are valid; QUICK_REPLY,URL,QUICK_REPLY and
 * URL,QUICK_REPLY,URL are not.
 */
export function quickRepliesGrouped(types: string[]): boolean {
  const first = types.indexOf('QUICK_REPLY');
  if (first < 0) return true;
  const last = types.lastIndexOf('QUICK_REPLY');
  const run = types.slice(first, last + 1);
  if (run.some((t) => t !== 'QUICK_REPLY')) return false;
  return first === 0 || last === types.length - 1;
}

/** Why a URL button's url is invalid, or undefined: http(s), a host, at most one variable, at the end. */
export function urlProblem(url: string): string | undefined {
  const vars = [...url.matchAll(/\{\{[^}]*\}\}/g)];
  if (vars.length > 1) return 'url allows one variable';
  if (vars.length === 1) {
    if (!/^\{\{\.[A-Za-z_]\w*\}\}$/.test(vars[0][0])) return `${vars[0][0]} is not a variable: write it as {{.name}}`;
    if (!url.endsWith(vars[0][0])) return 'the url variable must be at the end';
  }
  let parsed: URL;
  try {
    parsed = new URL(url.replace(/\{\{[^}]*\}\}$/, 'x'));
  } catch {
    return 'url must be an absolute http or https URL';
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return 'url scheme must be http or https';
  if (!parsed.hostname) return 'url must have a host';
  return undefined;
}
