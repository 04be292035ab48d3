import { createPrivateKey, sign } from 'node:crypto';

import { decodeJwt, decodeProtectedHeader, SignJWT } from 'jose';

import {
  API_KEY_AUDIENCE,
  ApiKeySigner,
  ApiKeyVerifier,
  generateSigningKeys,
  PLATFORM_ADMIN_AUDIENCE,
} from './api-key.tokens';

const keys = generateSigningKeys();
const signer = new ApiKeySigner(keys.privateKey);
const verifier = new ApiKeyVerifier(keys.publicKey);
const now = Math.floor(Date.now() / 1000);
const claims = { jti: 'k1', sub: 'u1', tenant_id: 't1', key_type: 'backend' as const, ver: 1 as const, iat: now };
const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** A key as identity issued them before jose and the audience: header and claims signed by hand. */
function legacyKey(payload: object, header: object = { alg: 'EdDSA', typ: 'JWT' }): string {
  const input = `${b64(header)}.${b64(payload)}`;
  return `${input}.${sign(null, Buffer.from(input), createPrivateKey(keys.privateKey)).toString('base64url')}`;
}

const refusedWith = (errorCode: string) => expect.objectContaining({ errorCode, status: 401 });

describe('API key tokens (jose)', () => {
  it('verifies a key it signed, EdDSA with the API audience, and returns its claims', async () => {
    const token = await signer.sign(claims);
    expect(decodeProtectedHeader(token)).toEqual({ alg: 'EdDSA', typ: 'JWT' });
    expect(decodeJwt(token).aud).toBe(API_KEY_AUDIENCE);
    expect(await verifier.verify(token)).toMatchObject({ jti: 'k1', tenant_id: 't1', ver: 1 });
  });

  it("mints a user's short-lived backend key at the given time: valid 5 minutes from it, then expired", async () => {
    const at = new Date((now - 60) * 1000);
    const key = await signer.userKey('t1', 'u1', at);
    expect(await verifier.verify(key, now)).toMatchObject({
      sub: 'u1',
      tenant_id: 't1',
      key_type: 'backend',
      ver: 1,
      iat: now - 60,
      exp: now + 240,
      jti: expect.stringMatching(/^KEY[0-9a-f]{32}$/),
    });
    await expect(verifier.verify(key, now + 240)).rejects.toThrow('expired');
  });

  it('keeps accepting keys issued before (same format, no audience)', async () => {
    expect(await verifier.verify(legacyKey(claims))).toMatchObject({ jti: 'k1', sub: 'u1' });
  });

  it('gives operator tokens their own audience and refuses an API key audience on them', async () => {
    const token = await signer.platformAdminToken('op');
    expect(decodeJwt(token).aud).toBe(PLATFORM_ADMIN_AUDIENCE);
    expect(await verifier.verify(token)).toMatchObject({ key_type: 'platform_admin', sub: 'op' });
    const misdirected = await signer.sign({ ...claims, jti: 'k3', aud: PLATFORM_ADMIN_AUDIENCE });
    await expect(verifier.verify(misdirected)).rejects.toThrow(refusedWith('invalid_api_key'));
    const otherAudience = legacyKey({ ...claims, jti: 'k4', aud: 'another-service' });
    await expect(verifier.verify(otherAudience)).rejects.toThrow(refusedWith('invalid_api_key'));
  });

  it('refuses a key signed with another private key', async () => {
    const forged = await new ApiKeySigner(generateSigningKeys().privateKey).sign(claims);
    await expect(verifier.verify(forged)).rejects.toThrow(refusedWith('invalid_api_key'));
  });

  it('refuses a key whose claims were altered after signing', async () => {
    const [h, , s] = (await signer.sign(claims)).split('.');
    await expect(verifier.verify(`${h}.${b64({ ...claims, tenant_id: 'other' })}.${s}`)).rejects.toThrow(
      refusedWith('invalid_api_key'),
    );
  });

  it('pins the algorithm: alg none and HMAC keyed with the public key are refused', async () => {
    await expect(verifier.verify(`${b64({ alg: 'none', typ: 'JWT' })}.${b64(claims)}.`)).rejects.toThrow(
      refusedWith('invalid_api_key'),
    );
    const hmac = await new SignJWT({ ...claims })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .sign(Buffer.from(keys.publicKey));
    await expect(verifier.verify(hmac)).rejects.toThrow(refusedWith('invalid_api_key'));
  });

  it('refuses malformed keys and keys without jti or iat', async () => {
    await expect(verifier.verify('not-a-token')).rejects.toThrow(refusedWith('invalid_api_key'));
    const { jti: _jti, ...noJti } = claims;
    await expect(verifier.verify(legacyKey(noJti))).rejects.toThrow(refusedWith('invalid_api_key'));
    const { iat: _iat, ...noIat } = claims;
    await expect(verifier.verify(legacyKey({ ...noIat, jti: 'k5' }))).rejects.toThrow(refusedWith('invalid_api_key'));
  });

  it('refuses an expired key, also after it was cached as valid', async () => {
    const token = await signer.sign({ ...claims, jti: 'k2', exp: now + 10 });
    expect(await verifier.verify(token, now)).toBeDefined();
    await expect(verifier.verify(token, now + 11)).rejects.toThrow(refusedWith('expired_api_key'));
    await expect(verifier.verify(await signer.sign({ ...claims, exp: now - 1 }), now)).rejects.toThrow(
      refusedWith('expired_api_key'),
    );
  });

  it('refuses a key before its nbf', async () => {
    const early = await signer.sign({ ...claims, jti: 'k6', nbf: now + 100 });
    await expect(verifier.verify(early, now)).rejects.toThrow(refusedWith('invalid_api_key'));
    expect(await verifier.verify(early, now + 100)).toMatchObject({ jti: 'k6' });
  });
});
