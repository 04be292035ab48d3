import { Clock } from '@kyc/platform';
import { Injectable } from '@nestjs/common';

import { FINISHED_CHECK_STATUSES } from '../claims/claim-store.service';
import { PassConfig } from '../config/pass.config';
import { ProviderService } from '../provider/provider.service';
import { DOCUMENT_SCOPE, parseScopes } from '../scopes/scopes';
import { PassUserEntity } from '../users/pass-user.entity';
import { PassUsersService } from '../users/pass-users.service';
import { userClaims } from '../users/user-claims';
import { UserinfoErrorCode, UserinfoException } from './userinfo.exception';

/** Scopes that carry claims beyond sub (the others gate endpoints or deliver images). */
const CLAIM_SCOPES = new Set([
  'email',
  'phone',
  'profile',
  'identity',
  'documents',
  'age',
  'address',
  'background',
  'biometric',
  'verification',
  'contact',
  'nationality',
]);

const REFRESH_POLL_MS = 200;

/** RFC 6750 b64token. */
const BEARER_TOKEN = /^[A-Za-z0-9._~+/-]+=*$/;

const inProgress = (user: PassUserEntity) =>
  !!user.background.check_id && !FINISHED_CHECK_STATUSES.includes(user.background.status ?? '');

@Injectable()
export class UserinfoService {
  constructor(
    private readonly config: PassConfig,
    private readonly provider: ProviderService,
    private readonly users: PassUsersService,
    private readonly clock: Clock,
  ) {}

  /**
   * The claims of the person behind an access token, per its scopes. The token comes in the Authorization
   * header (`Bearer`, the scheme case-insensitive: RFC 7235 2.1) or, on POST, as the form parameter
   * access_token (RFC 6750 2.2); never both.
   */
  async claims(authorization: string | undefined, formToken?: string): Promise<Record<string, unknown>> {
    if (authorization !== undefined && formToken !== undefined)
      throw new UserinfoException(
        UserinfoErrorCode.InvalidRequest,
        'the access token was sent both in the header and in the body',
      );
    const value = formToken ?? /^Bearer +([A-Za-z0-9._~+/-]+=*)$/i.exec(authorization ?? '')?.[1];
    if (!value || !BEARER_TOKEN.test(value))
      throw new UserinfoException(UserinfoErrorCode.InvalidToken, 'missing or invalid bearer token');
    const token = await this.provider.provider.AccessToken.find(value);
    if (!token || token.isExpired)
      throw new UserinfoException(UserinfoErrorCode.InvalidToken, 'missing or invalid bearer token');
    const scopes = parseScopes(token.scope ?? '');
    if (!scopes.some((s) => CLAIM_SCOPES.has(s) || DOCUMENT_SCOPE.test(s)))
      throw new UserinfoException(UserinfoErrorCode.InsufficientScope, 'the token carries no usable scopes');
    let user = await this.users.findById(String(token.accountId));
    if (!user)
      throw new UserinfoException(UserinfoErrorCode.UserNotFound, 'the user behind the token no longer exists');
    if (scopes.includes('background')) user = await this.refreshedBackground(user);
    return userClaims(user, scopes, this.clock.now());
  }

  /**
   * Scopes table: `background` "refreshes an in-progress background check before responding". The person's
   * check is followed through the checks service's events; while it is in progress, userinfo waits for its
   * result (re-reading the claim store) for at most PASS_BACKGROUND_REFRESH_MS, then answers with what it has.
   */
  private async refreshedBackground(user: PassUserEntity): Promise<PassUserEntity> {
    const deadline = Date.now() + this.config.PASS_BACKGROUND_REFRESH_MS;
    let current = user;
    while (inProgress(current) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, Math.min(REFRESH_POLL_MS, deadline - Date.now())));
      current = (await this.users.findById(user.id)) ?? current;
    }
    return current;
  }
}
