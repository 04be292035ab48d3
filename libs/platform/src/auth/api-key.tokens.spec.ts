import { ApiKeySigner, ApiKeyVerifier, generateSigningKeys } from './api-key.tokens';

const keys = generateSigningKeys();
const signer = new ApiKeySigner(keys.privateKey);
const verifier = new ApiKeyVerifier(keys.publicKey);
const now = Math.floor(Date.now() / 1000);
const claims = { jti: 'k1', sub: 'u1', tenant_id: 't1', key_type: 'backend' as const, ver: 1 as const, iat: now };

describe('API key tokens', () => {
  it('verifies a key it signed and returns its claims', () => {
    expect(verifier.verify(signer.sign(claims))).toMatchObject({ jti: 'k1', tenant_id: 't1', ver: 1 });
  });

  it('refuses a key signed with another private key', () => {
    const forged = new ApiKeySigner(generateSigningKeys().privateKey).sign(claims);
    expect(() => verifier.verify(forged)).toThrow(
      expect.objectContaining({ errorCode: 'invalid_api_key', status: 401 }),
    );
  });

  it('refuses a key whose claims were altered after signing', () => {
    const [h, , s] = signer.sign(claims).split('.');
    const tampered = Buffer.from(JSON.stringify({ ...claims, tenant_id: 'other' })).toString('base64url');
    expect(() => verifier.verify(`${h}.${tampered}.${s}`)).toThrow(
      expect.objectContaining({ errorCode: 'invalid_api_key' }),
    );
  });

  it('refuses malformed keys', () => {
    expect(() => verifier.verify('not-a-token')).toThrow(expect.objectContaining({ errorCode: 'invalid_api_key' }));
  });

  it('refuses an expired key, also after it was cached as valid', () => {
    const token = signer.sign({ ...claims, jti: 'k2', exp: now + 10 });
    expect(verifier.verify(token, now)).toBeDefined();
    expect(() => verifier.verify(token, now + 11)).toThrow(expect.objectContaining({ errorCode: 'expired_api_key' }));
  });
});
