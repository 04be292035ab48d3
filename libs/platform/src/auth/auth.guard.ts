import type { ApiKeyClaims } from '@kyc/contracts';
import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';

import { PlatformErrorCode, PlatformException } from '../errors/app.exception';
import { ambientContext } from '../observability/request-context.storage';
import { AccessCacheService } from './access-cache.service';
import { ApiKeyVerifier } from './api-key.tokens';
import { PLATFORM_ADMIN_ROUTE, PUBLIC_ROUTE, REQUIRED_PERMISSIONS } from './auth.decorators';
import { AuthenticatedRequest, CALLER, Caller } from './caller';

export const API_KEY_HEADERS = ['service-api-key', 'truora-api-key'];

/**
 * Global guard: every route needs a valid API key unless marked @Public(). Missing, malformed,
 * forged, expired or revoked keys, and keys of unknown or disabled users, get 401.
 */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly verifier: ApiKeyVerifier,
    private readonly access: AccessCacheService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http') return true;
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(PUBLIC_ROUTE, targets)) return true;
    const req = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const token = API_KEY_HEADERS.map((h) => req.headers[h]).find(
      (v): v is string => typeof v === 'string' && v.length > 0,
    );
    if (!token) throw new PlatformException(PlatformErrorCode.MissingApiKey, 'The Service-API-Key header is required');
    const claims = await this.verifier.verify(token.trim());

    if (this.reflector.getAllAndOverride<boolean>(PLATFORM_ADMIN_ROUTE, targets)) {
      if (claims.key_type !== 'platform_admin')
        throw new PlatformException(PlatformErrorCode.Forbidden, 'This operation needs a platform operator token');
      return true;
    }
    if (claims.key_type === 'platform_admin')
      throw new PlatformException(PlatformErrorCode.InvalidApiKey, 'Operator tokens are not API keys');

    const caller = await this.resolveCaller(claims);
    req[CALLER] = caller;
    const store = ambientContext.getStore();
    if (store) store.tenantId = caller.tenantId;

    const required = this.reflector.getAllAndOverride<string[]>(REQUIRED_PERMISSIONS, targets);
    if (required?.length) caller.requireAny(...required);
    return true;
  }

  /**
   * The key check that needs no route metadata, run before a request's body is read (see
   * registerRequestHardening): a missing, malformed, forged, expired or revoked key, or the key of
   * an unknown or disabled user, is refused before the body costs anything. Operator tokens pass
   * here; the guard decides what they may call.
   */
  async checkKey(headers: Record<string, unknown>): Promise<void> {
    const token = API_KEY_HEADERS.map((h) => headers[h]).find((v) => typeof v === 'string' && v.length > 0) as
      string | undefined;
    if (!token) throw new PlatformException(PlatformErrorCode.MissingApiKey, 'The Service-API-Key header is required');
    const claims = await this.verifier.verify(token.trim());
    if (claims.key_type !== 'platform_admin') await this.resolveCaller(claims);
  }

  /**
   * The caller of a key given outside the headers (a page link carrying the user's temporary key):
   * the same checks as the guard's (signature, expiry, revocation, user); operator tokens refused.
   */
  async callerOf(token: string): Promise<Caller> {
    const claims = await this.verifier.verify(token.trim());
    if (claims.key_type === 'platform_admin')
      throw new PlatformException(PlatformErrorCode.InvalidApiKey, 'Operator tokens are not API keys');
    return this.resolveCaller(claims);
  }

  private async resolveCaller(claims: ApiKeyClaims): Promise<Caller> {
    if (!claims.tenant_id || !claims.sub)
      throw new PlatformException(PlatformErrorCode.InvalidApiKey, 'The API key is malformed');
    if (this.access.isRevoked(claims.jti))
      throw new PlatformException(PlatformErrorCode.RevokedApiKey, 'The API key has been revoked');
    const user =
      this.access.user(claims.tenant_id, claims.sub) ?? (await this.access.findUser(claims.tenant_id, claims.sub));
    if (!user) throw new PlatformException(PlatformErrorCode.InvalidApiKey, 'The API key belongs to no known user');
    if (user.status !== 'enabled')
      throw new PlatformException(PlatformErrorCode.UserDisabled, 'The user of this API key is disabled');
    const role = this.access.role(claims.tenant_id, user.role);
    return new Caller(
      claims.tenant_id,
      claims.sub,
      user.username,
      claims.jti,
      claims.key_type,
      claims.ver === 1 ? 1 : 0,
      user.role,
      new Set(role?.permissions ?? []),
      role?.access_rules ?? [],
      claims.grant,
      claims.flow_id,
      typeof claims.iat === 'number' ? new Date(claims.iat * 1000) : undefined,
    );
  }
}
