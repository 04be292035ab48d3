import { createHmac, createVerify, generateKeyPairSync } from 'node:crypto';

import { reshapeIdToken } from './id-token';

const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
const decode = (part: string) => JSON.parse(Buffer.from(part, 'base64url').toString()) as Record<string, unknown>;

/** oidc-provider's intermediate id_token (HS256 with the client secret), as the token endpoint receives it. */
const intermediate = (payload: Record<string, unknown>) => {
  const input = `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64(payload)}`;
  return `${input}.${createHmac('sha256', 'client-secret').update(input).digest('base64url')}`;
};

describe('reshapeIdToken', () => {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const claims = { sub: 'u1', iss: 'https://pass.example', aud: 'pc_1', iat: 1, exp: 301, at_hash: 'h', auth_time: 1 };

  it('re-signs with RS256 and the provider kid, aud as an array and a unique jti', () => {
    const token = reshapeIdToken(intermediate(claims), privateKey, 'kid-1', false);
    const [header, payload, signature] = token.split('.');
    expect(decode(header)).toEqual({ alg: 'RS256', typ: 'JWT', kid: 'kid-1' });
    const verified = createVerify('RSA-SHA256')
      .update(`${header}.${payload}`)
      .verify(publicKey, signature, 'base64url');
    expect(verified).toBe(true);
    const body = decode(payload);
    expect(body).toMatchObject({ sub: 'u1', aud: ['pc_1'], auth_time: 1 });
    expect(body.jti).toEqual(expect.any(String));
    expect(body.at_hash).toBeUndefined();
    expect(decode(reshapeIdToken(intermediate(claims), privateKey, 'kid-1', false).split('.')[1]).jti).not.toBe(
      body.jti,
    );
  });

  it('keeps at_hash and auth_req_id on the CIBA grant', () => {
    const token = reshapeIdToken(
      intermediate({ ...claims, 'urn:openid:params:jwt:claim:auth_req_id': 'r1' }),
      privateKey,
      'kid-1',
      true,
    );
    expect(decode(token.split('.')[1])).toMatchObject({
      at_hash: 'h',
      'urn:openid:params:jwt:claim:auth_req_id': 'r1',
    });
  });
});
