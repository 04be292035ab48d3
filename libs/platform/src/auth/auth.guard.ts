import type { ApiKeyClaims, ApiKeyType } from '@kyc/contracts';
import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';

import { PlatformErrorCode, PlatformException } from '../errors/app.exception';
import { ambientContext } from '../observability/request-context.storage';
import { AccessCacheService } from './access-cache.service';
import { ApiKeyVerifier } from './api-key.tokens';
import { KEY_TYPES, PLATFORM_ADMIN_ROUTE, PUBLIC_ROUTE, REQUIRED_PERMISSIONS } from './auth.decorators';
import { AuthenticatedRequest, CALLER, Caller } from './caller';

export const API_KEY_HEADERS = ['service-api-key', 'truora-api-key'];

/** A route that states no key types takes backend keys only. */
const BACKEND_ONLY: readonly ApiKeyType[] = ['backend'];

/** What a route declares about its callers (its decorators, read once per handler). */
interface RouteAuth {
  public: boolean;
  platformAdmin: boolean;
  keyTypes: readonly ApiKeyType[];
  required: string[] | undefined;
}

const NO_PERMISSIONS: ReadonlySet<string> = new Set();

/**
 * Global guard: every route needs a valid API key unless marked @Public(). Missing, malformed,
 * forged, expired or revoked keys, and keys of unknown or disabled users, get 401. Then the key's
 * type (the route's @KeyTypes, backend only by default): a key of another type, or a temporary
 * key bound to no flow, gets 403 `key_type_not_allowed`. Then the route's permissions.
 */
@Injectable()
export class AuthGuard implements CanActivate {
  /** Route metadata per handler: decorators are fixed once the application is built. */
  private readonly routes = new WeakMap<object, RouteAuth>();
  /**
   * A role's permissions as a Set, per role state (the access cache replaces a role's state
   * object when the role changes, so a changed role gets a new Set): one Set per role, not one
   * per request.
   */
  private readonly permissionSets = new WeakMap<object, ReadonlySet<string>>();

  constructor(
    private readonly reflector: Reflector,
    private readonly verifier: ApiKeyVerifier,
    private readonly access: AccessCacheService,
  ) {}

  private routeAuth(context: ExecutionContext): RouteAuth {
    const handler = context.getHandler();
    let route = this.routes.get(handler);
    if (!route) {
      const targets = [handler, context.getClass()];
      route = {
        public: !!this.reflector.getAllAndOverride<boolean>(PUBLIC_ROUTE, targets),
        platformAdmin: !!this.reflector.getAllAndOverride<boolean>(PLATFORM_ADMIN_ROUTE, targets),
        keyTypes: this.reflector.getAllAndOverride<ApiKeyType[]>(KEY_TYPES, targets) ?? BACKEND_ONLY,
        required: this.reflector.getAllAndOverride<string[]>(REQUIRED_PERMISSIONS, targets),
      };
      this.routes.set(handler, route);
    }
    return route;
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http') return true;
    const route = this.routeAuth(context);
    if (route.public) return true;
    const req = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const token = API_KEY_HEADERS.map((h) => req.headers[h]).find(
      (v): v is string => typeof v === 'string' && v.length > 0,
    );
    if (!token) throw new PlatformException(PlatformErrorCode.MissingApiKey, 'The Service-API-Key header is required');
    const claims = await this.verifier.verify(token.trim());

    if (route.platformAdmin) {
      if (claims.key_type !== 'platform_admin')
        throw new PlatformException(PlatformErrorCode.Forbidden, 'This operation needs a platform operator token');
      return true;
    }
    if (claims.key_type === 'platform_admin')
      throw new PlatformException(PlatformErrorCode.InvalidApiKey, 'Operator tokens are not API keys');

    const caller = await this.resolveCaller(claims);
    this.requireKeyType(caller, route.keyTypes);
    req[CALLER] = caller;
    const store = ambientContext.getStore();
    if (store) store.tenantId = caller.tenantId;

    const required = route.required;
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

  /**
   * Web and sdk keys are temporary and bound to one flow's process: they pass only where the route
   * lets them in, and only when they carry the digital-identity grant and their flow.
   */
  private requireKeyType(caller: Caller, allowed: readonly ApiKeyType[]): void {
    if (!allowed.includes(caller.keyType))
      throw new PlatformException(
        PlatformErrorCode.KeyTypeNotAllowed,
        `A ${caller.keyType} key may not call this operation; it needs a key of type ${allowed.join(' or ')}`,
      );
    if (caller.keyType !== 'backend' && (caller.grant !== 'digital-identity' || !caller.flowId))
      throw new PlatformException(
        PlatformErrorCode.KeyTypeNotAllowed,
        `A ${caller.keyType} key may call this operation only when bound to a flow of the digital-identity grant`,
      );
  }

  private permissionsOf(role: { permissions?: string[] } | undefined): ReadonlySet<string> {
    if (!role?.permissions) return NO_PERMISSIONS;
    let permissions = this.permissionSets.get(role);
    if (!permissions) {
      permissions = new Set(role.permissions);
      this.permissionSets.set(role, permissions);
    }
    return permissions;
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
      this.permissionsOf(role),
      role?.access_rules ?? [],
      claims.grant,
      claims.flow_id,
      typeof claims.iat === 'number' ? new Date(claims.iat * 1000) : undefined,
    );
  }
}
