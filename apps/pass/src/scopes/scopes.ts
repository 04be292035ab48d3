/** The scopes of spec 3 ("Scopes" table): which exist, which are sensitive or restricted, and the aliases. */

export const BASE_SCOPES = [
  'openid',
  'email',
  'phone',
  'profile',
  'identity',
  'documents',
  'age',
  'address',
  'background',
  'biometric',
  'verification',
  'contact',
  'nationality',
  'documents:images',
  'biometric:image',
  'approval:read',
] as const;

export const RESTRICTED_SCOPES = [
  'validations:write',
  'thirdparty:storage:readonly',
  'thirdparty:documents:readonly',
  'thirdparty:spreadsheets:readonly',
  'thirdparty:mail:readonly',
  'thirdparty:calendar:readonly',
] as const;

/** Sensitive scopes need a binding_message on CIBA requests. */
export const SENSITIVE_SCOPES = new Set([
  'documents',
  'background',
  'documents:images',
  'biometric:image',
  'validations:write',
]);

export const DOCUMENT_TYPES = [
  'national-id',
  'foreign-id',
  'driver-license',
  'passport',
  'identity-card',
  'rut',
  'ppt',
  'invoice',
  'picture-id',
  'record',
  'cnh',
] as const;

/** `document:<COUNTRY>:<TYPE>`: COUNTRY lowercase alpha-2 or ALL, TYPE a known document type or ALL. */
export const DOCUMENT_SCOPE = new RegExp(`^document:([a-z]{2}|ALL):(${DOCUMENT_TYPES.join('|')}|ALL)$`);

/** Detailed aliases accepted and normalized to the flat scopes. */
export const SCOPE_ALIASES: Record<string, string> = {
  'profile:basic': 'profile',
  'profile:detailed': 'profile',
  'identity:basic': 'identity',
  'identity:full': 'identity',
  'document:passport': 'document:ALL:passport',
  'age:exact': 'age',
  'age:verified': 'age',
  'address:full': 'address',
  'background:summary': 'background',
  'background:full': 'background',
  'verification:basic': 'verification',
  'verification:detailed': 'verification',
  'contact:basic': 'contact',
  'contact:full': 'contact',
  'biometric:status': 'biometric',
};

const KNOWN = new Set<string>([...BASE_SCOPES, ...RESTRICTED_SCOPES]);

export const isRestricted = (scope: string) => (RESTRICTED_SCOPES as readonly string[]).includes(scope);

/** The flat form of one requested scope (aliases resolved); unknown scopes are returned unchanged. */
export const normalizeScope = (scope: string): string => SCOPE_ALIASES[scope] ?? scope;

/** True when the scope (after normalization) is one of the table. */
export const isKnownScope = (scope: string): boolean => {
  const flat = normalizeScope(scope);
  return KNOWN.has(flat) || DOCUMENT_SCOPE.test(flat);
};

/** Splits a space-delimited scope parameter, normalizing aliases, dropping duplicates. */
export const parseScopes = (value: string | undefined): string[] => [
  ...new Set((value ?? '').split(' ').filter(Boolean).map(normalizeScope)),
];

/**
 * True when an application registered with `registered` may request `scope`: registered as is, or a
 * document filter covered by `documents` or by a registered `document:*` filter.
 */
export function isRegistered(scope: string, registered: readonly string[]): boolean {
  const flat = normalizeScope(scope);
  if (registered.includes(flat)) return true;
  const doc = DOCUMENT_SCOPE.exec(flat);
  if (!doc) return false;
  return registered.includes('documents') || registered.includes('document:ALL:ALL');
}

/** True when a scope (flat) is sensitive: the list above and every document filter. */
export const isSensitive = (scope: string) => SENSITIVE_SCOPES.has(scope) || DOCUMENT_SCOPE.test(scope);
