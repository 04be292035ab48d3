import { generateKeyPairSync } from 'node:crypto';

import { TOPICS } from '@kyc/contracts';
import { ExecutionContext, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';

import { PlatformException } from '../errors/app.exception';
import { AccessCacheService } from './access-cache.service';
import { ApiKeySigner, ApiKeyVerifier } from './api-key.tokens';
import { KEY_TYPES, PUBLIC_ROUTE, REQUIRED_PERMISSIONS } from './auth.decorators';
import { AuthGuard } from './auth.guard';
import { AuthenticatedRequest, CALLER } from './caller';

const envelope = (payload: unknown) =>
  Buffer.from(
    JSON.stringify({ id: 'e', type: 't', version: 1, tenant_id: 't1', occurred_at: '', aggregate_id: 'a', payload }),
  );

class Routes {}
/** The routes' handlers, each with the declarations a controller method would carry. */
const handlers = { read: () => undefined, write: () => undefined, open: () => undefined, anyKey: () => undefined };
SetMetadata(REQUIRED_PERMISSIONS, ['checks.read'])(handlers.read);
SetMetadata(REQUIRED_PERMISSIONS, ['checks.write'])(handlers.write);
SetMetadata(PUBLIC_ROUTE, true)(handlers.open);
SetMetadata(KEY_TYPES, ['backend', 'web'])(handlers.anyKey);

describe('AuthGuard (route metadata read once per handler, one permission set per role state)', () => {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const signer = new ApiKeySigner(privateKey.export({ type: 'pkcs8', format: 'pem' }).toString());
  const access = new AccessCacheService();
  const guard = new AuthGuard(
    new Reflector(),
    new ApiKeyVerifier(publicKey.export({ type: 'spki', format: 'pem' }).toString()),
    access,
  );
  const role = (permissions: string[]) =>
    access.apply(TOPICS.roleState, 't1/r', envelope({ tenant_id: 't1', name: 'r', permissions, access_rules: [] }));
  access.apply(
    TOPICS.userState,
    't1/u1',
    envelope({ tenant_id: 't1', user_id: 'u1', username: 'a', role: 'r', status: 'enabled' }),
  );
  let token: string;
  beforeAll(async () => {
    token = await signer.userKey('t1', 'u1', new Date(), 600);
  });

  const call = async (handler: keyof typeof handlers) => {
    const req: AuthenticatedRequest = { headers: { 'service-api-key': token } };
    const context = {
      getType: () => 'http',
      getHandler: () => handlers[handler],
      getClass: () => Routes,
      switchToHttp: () => ({ getRequest: () => req }),
    } as unknown as ExecutionContext;
    await guard.canActivate(context);
    return req[CALLER];
  };
  const refusal = (handler: keyof typeof handlers) =>
    call(handler).then(
      () => undefined,
      (err: PlatformException) => err.errorCode,
    );

  it("applies each route's own declarations, however often and in whatever order routes are called", async () => {
    role(['checks.read']);
    for (let i = 0; i < 3; i++) {
      expect((await call('read'))?.permissions.has('checks.read')).toBe(true);
      expect(await refusal('write')).toBe('forbidden');
      expect(await call('open')).toBeUndefined(); // public: no caller resolved
      expect((await call('anyKey'))?.tenantId).toBe('t1');
    }
  });

  it('follows a role whose permissions change: the next request sees the new set', async () => {
    role(['checks.read']);
    expect(await refusal('write')).toBe('forbidden');
    const before = (await call('read'))!.permissions;
    expect((await call('read'))!.permissions).toBe(before); // one set per role state, not per request
    role(['checks.read', 'checks.write']);
    expect(await refusal('write')).toBeUndefined();
    expect([...(await call('write'))!.permissions].sort()).toEqual(['checks.read', 'checks.write']);
    role([]);
    expect(await refusal('read')).toBe('forbidden');
  });
});
