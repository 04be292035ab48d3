import { ApplicationEntity } from '../applications/application.entity';
import { isKnownScope, isRegistered, parseScopes } from '../scopes/scopes';

export type GateResult = { ok: true; scope: string | undefined } | { ok: false; error: string; description: string };

const RESPONSE_MODES = ['', 'query', 'web_message'];

const originOf = (uri: string): string | undefined => {
  try {
    return new URL(uri).origin;
  } catch {
    return undefined;
  }
};

const one = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/**
 * The rules of GET /authorize checked before anything can be redirected (spec 3, "Rejected before redirect"):
 * a failure is shown to the user as a page, never sent to the redirect_uri. Scope aliases are normalized.
 */
export function checkAuthorizeRequest(
  query: Record<string, unknown>,
  application: ApplicationEntity | undefined,
): GateResult {
  const fail = (error: string, description: string): GateResult => ({ ok: false, error, description });
  for (const [name, value] of Object.entries(query))
    if (Array.isArray(value)) return fail('invalid_request', `${name} must be given once`);
  if (!application) return fail('invalid_client', 'client_id is missing or not a registered application');
  const redirectUri = one(query.redirect_uri);
  if (!redirectUri || !application.redirectUris.includes(redirectUri))
    return fail('invalid_redirect_uri', 'redirect_uri does not exactly match a registered redirect URI');
  if (one(query.response_type) !== 'code') return fail('unsupported_response_type', 'response_type must be code');
  const responseMode = one(query.response_mode) ?? '';
  if (!RESPONSE_MODES.includes(responseMode))
    return fail('unsupported_response_mode', 'response_mode must be empty, query or web_message');
  if (responseMode === 'web_message') {
    if (!application.allowsWebMessage)
      return fail('unsupported_response_mode', 'web_message is not enabled for this application');
    const origin = originOf(redirectUri);
    if (!origin || !application.allowedWebMessageOrigins.includes(origin))
      return fail('unsupported_response_mode', 'the web_message origin is not allow-listed for this application');
  }
  const scopes = parseScopes(one(query.scope));
  const registered = [...application.scopes, ...application.restrictedScopes];
  const unregistered = scopes.filter((s) => !isKnownScope(s) || !isRegistered(s, registered));
  if (unregistered.length)
    return fail('invalid_scope', `scope not registered for the application: ${unregistered.join(' ')}`);
  return { ok: true, scope: scopes.length ? scopes.join(' ') : undefined };
}
