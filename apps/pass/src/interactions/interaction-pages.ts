import { escapeHtml, page } from '../pages/html';

/** Claims shown on the consent page per scope (spec 3, Scopes table). */
export const SCOPE_CLAIMS: Record<string, string> = {
  openid: 'a stable identifier (sub)',
  email: 'e-mail address, verified',
  phone: 'phone number, verified',
  profile: 'name, first and last name, gender, birthdate, nationality',
  identity: 'verified identity: names, birthdate, nationality, document number and type, issuing authority, risk flags',
  documents: 'your identity documents',
  age: 'whether your age is verified, whether you are a minor, your age range',
  address: 'address',
  background: 'trust level and background verification badges',
  biometric: 'face enrollment and liveness results',
  verification: 'verification status, date and methods',
  contact: 'e-mail and phone, verified, and preferred communication method',
  nationality: 'nationality',
  'approval:read': 'decisions you make on approval requests',
};

export const describeScope = (scope: string) =>
  SCOPE_CLAIMS[scope] ?? (scope.startsWith('document:') ? `documents (${scope.slice(9).replace(':', ', ')})` : scope);

const notice = (code: string | undefined, text: string | undefined) =>
  code ? `<p class="notice" id="notice" data-code="${escapeHtml(code)}">${escapeHtml(text)}</p>` : '';

export const emailPage = (uid: string, client: string, n?: { code: string; text: string }) =>
  page(
    'Sign in',
    `<h1>Sign in to ${escapeHtml(client)}</h1>${notice(n?.code, n?.text)}` +
      `<form method="post" action="/interaction/${escapeHtml(uid)}/email"><label for="email">E-mail</label>` +
      `<input id="email" name="email" type="email" autocomplete="email" required autofocus>` +
      `<button type="submit" id="send-code">Send me a code</button></form>` +
      `<form method="post" action="/interaction/${escapeHtml(uid)}/abort"><button type="submit" id="cancel">Cancel</button></form>`,
  );

export const codePage = (uid: string, email: string, n?: { code: string; text: string }) =>
  page(
    'Enter your code',
    `<h1>Check your e-mail</h1>${notice(n?.code, n?.text)}<p>We sent a 6-digit code to ${escapeHtml(email)}.</p>` +
      `<form method="post" action="/interaction/${escapeHtml(uid)}/code"><label for="code">Code</label>` +
      `<input id="code" name="code" inputmode="numeric" pattern="[0-9]{6}" required autofocus>` +
      `<button type="submit" id="verify">Sign in</button></form>`,
  );

export const consentPage = (uid: string, client: string, scopes: string[]) =>
  page(
    'Share your data',
    `<h1>${escapeHtml(client)} asks for</h1><ul id="claims">` +
      scopes.map((s) => `<li data-scope="${escapeHtml(s)}">${escapeHtml(describeScope(s))}</li>`).join('') +
      `</ul><form method="post" action="/interaction/${escapeHtml(uid)}/consent">` +
      `<button name="decision" value="allow" id="allow">Allow</button>` +
      `<button name="decision" value="deny" id="deny">Deny</button></form>`,
  );

/** A step-up condition the user cannot satisfy here (acr_not_satisfied). */
export const stepUpPage = (uid: string, code: string, text: string) =>
  page(
    'More verification needed',
    `<h1>More verification needed</h1>${notice(code, text)}` +
      `<form method="post" action="/interaction/${escapeHtml(uid)}/abort"><button type="submit" id="cancel">Back to the application</button></form>`,
  );
