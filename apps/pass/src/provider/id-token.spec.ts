import { createHash, createVerify, generateKeyPairSync } from 'node:crypto';

import { AUTH_REQ_ID_CLAIM, IdTokenSigner, signIdToken } from './id-token';

const decode = (part: string) => JSON.parse(Buffer.from(part, 'base64url').toString()) as Record<string, unknown>;

describe('signIdToken', () => {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const signer: IdTokenSigner = {
    current: () => Promise.resolve({ key: privateKey, kid: 'kid-1' }),
    issuer: 'https://pass.example',
    ttl: 300,
    now: () => 1000,
  };
  // What oidc-provider's IdToken model assembles: the grant handler sets the access token itself as at_hash.
  const claims = { sub: 'u1', acr: 'urn:pass:loa:1', amr: ['otp', 'email'], auth_time: 900, at_hash: 'access-token' };

  it('signs once with RS256 and the provider kid: iss, aud as an array, iat, exp, a unique jti', async () => {
    const token = await signIdToken(claims, 'pc_1', signer, false);
    const [header, payload, signature] = token.split('.');
    expect(decode(header)).toEqual({ alg: 'RS256', typ: 'JWT', kid: 'kid-1' });
    const verified = createVerify('RSA-SHA256')
      .update(`${header}.${payload}`)
      .verify(publicKey, signature, 'base64url');
    expect(verified).toBe(true);
    const body = decode(payload);
    expect(body).toMatchObject({
      sub: 'u1',
      iss: 'https://pass.example',
      aud: ['pc_1'],
      iat: 1000,
      exp: 1300,
      acr: 'urn:pass:loa:1',
      amr: ['otp', 'email'],
      auth_time: 900,
    });
    expect(body.jti).toEqual(expect.any(String));
    expect(body).not.toHaveProperty('at_hash');
    const again = decode((await signIdToken(claims, 'pc_1', signer, false)).split('.')[1]);
    expect(again.jti).not.toBe(body.jti);
  });

  it('on the CIBA grant hashes the access token into at_hash and keeps auth_req_id', async () => {
    const token = await signIdToken({ ...claims, [AUTH_REQ_ID_CLAIM]: 'r1' }, 'pc_1', signer, true);
    const expected = createHash('sha256').update('access-token').digest().subarray(0, 16).toString('base64url');
    expect(decode(token.split('.')[1])).toMatchObject({ at_hash: expected, [AUTH_REQ_ID_CLAIM]: 'r1' });
  });

  it('drops at_hash and auth_req_id on the other grants and never carries a token in clear', async () => {
    const raw = { ...claims, [AUTH_REQ_ID_CLAIM]: 'r1', 'urn:openid:params:jwt:claim:rt_hash': 'refresh-token' };
    const body = decode((await signIdToken(raw, 'pc_1', signer, false)).split('.')[1]);
    expect(body).not.toHaveProperty('at_hash');
    expect(body).not.toHaveProperty(AUTH_REQ_ID_CLAIM);
    expect(JSON.stringify(body)).not.toContain('refresh-token');
  });
});
