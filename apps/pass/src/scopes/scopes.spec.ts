import { isKnownScope, isRegistered, isSensitive, normalizeScope, parseScopes } from './scopes';

describe('scopes', () => {
  it('normalizes the detailed aliases to the flat scopes', () => {
    expect(normalizeScope('identity:full')).toBe('identity');
    expect(normalizeScope('document:passport')).toBe('document:ALL:passport');
    expect(parseScopes('openid profile:detailed profile')).toEqual(['openid', 'profile']);
  });

  it('knows the document filters with lowercase countries and known types only', () => {
    expect(isKnownScope('document:co:national-id')).toBe(true);
    expect(isKnownScope('document:ALL:ALL')).toBe(true);
    expect(isKnownScope('document:CO:national-id')).toBe(false);
    expect(isKnownScope('document:co:library-card')).toBe(false);
    expect(isKnownScope('made-up')).toBe(false);
  });

  it('covers document filters by a registered documents scope', () => {
    expect(isRegistered('document:co:passport', ['documents'])).toBe(true);
    expect(isRegistered('document:co:passport', ['identity'])).toBe(false);
    expect(isRegistered('identity:basic', ['identity'])).toBe(true);
  });

  it('treats documents, background and the document filters as sensitive', () => {
    expect(isSensitive('documents')).toBe(true);
    expect(isSensitive('background')).toBe(true);
    expect(isSensitive('document:co:ALL')).toBe(true);
    expect(isSensitive('email')).toBe(false);
  });
});
