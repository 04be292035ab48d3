import type { ApiKeyType } from '@kyc/contracts';
import { createParamDecorator, ExecutionContext } from '@nestjs/common';

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
    /** When the API key was issued (its `iat`): rules that apply only to keys created after a date read it. */
    readonly keyIssuedAt?: Date,
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

/** An HTTP request as the auth guard sees it: headers, and the Caller it attaches. */
export interface AuthenticatedRequest {
  headers: Record<string, string | string[] | undefined>;
  [CALLER]?: Caller;
}

/** Injects the authenticated Caller into a controller method. */
export const CurrentCaller = createParamDecorator((_: unknown, ctx: ExecutionContext): Caller => {
  return ctx.switchToHttp().getRequest<AuthenticatedRequest>()[CALLER]!;
});
