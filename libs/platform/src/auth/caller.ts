import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { ApiKeyType } from '@kyc/contracts';
import { PlatformErrorCode, PlatformException } from '../errors/app.exception';

/** Who is calling: resolved once per request by the auth guard from the API key and the access cache. */
export class Caller {
  constructor(
    readonly tenantId: string,
    readonly userId: string,
    readonly username: string | undefined,
    readonly keyId: string,
    readonly keyType: ApiKeyType,
    readonly keyVersion: 0 | 1,
    readonly role: string | undefined,
    readonly permissions: ReadonlySet<string>,
    readonly accessRules: readonly unknown[],
    readonly grant?: string,
    readonly flowId?: string,
  ) {}

  hasAny(...permissions: string[]): boolean {
    return permissions.some((p) => this.permissions.has(p));
  }

  /** Throws 403 naming the permissions that would allow the operation. */
  requireAny(...permissions: string[]): void {
    if (!this.hasAny(...permissions)) {
      throw new PlatformException(
        PlatformErrorCode.Forbidden,
        `This operation needs one of the permissions: ${[...new Set(permissions)].join(', ')}`,
      );
    }
  }
}

export const CALLER = Symbol('caller');

/** Injects the authenticated Caller into a controller method. */
export const CurrentCaller = createParamDecorator((_: unknown, ctx: ExecutionContext): Caller => {
  const req = ctx.switchToHttp().getRequest();
  return req[CALLER];
});
