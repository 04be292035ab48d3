import { Clock } from '@kyc/platform';
import { Injectable } from '@nestjs/common';

import { ProviderService } from '../provider/provider.service';
import { DOCUMENT_SCOPE, parseScopes } from '../scopes/scopes';
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

@Injectable()
export class UserinfoService {
  constructor(
    private readonly provider: ProviderService,
    private readonly users: PassUsersService,
    private readonly clock: Clock,
  ) {}

  /** The claims of the person behind an access token, per its scopes. */
  async claims(authorization: string | undefined): Promise<Record<string, unknown>> {
    const match = /^Bearer ([A-Za-z0-9._~+/-]+=*)$/.exec(authorization ?? '');
    if (!match) throw new UserinfoException(UserinfoErrorCode.InvalidToken, 'missing or invalid bearer token');
    const token = await this.provider.provider.AccessToken.find(match[1]);
    if (!token || token.isExpired)
      throw new UserinfoException(UserinfoErrorCode.InvalidToken, 'missing or invalid bearer token');
    const scopes = parseScopes(token.scope ?? '');
    if (!scopes.some((s) => CLAIM_SCOPES.has(s) || DOCUMENT_SCOPE.test(s)))
      throw new UserinfoException(UserinfoErrorCode.InsufficientScope, 'the token carries no usable scopes');
    const user = await this.users.findById(String(token.accountId));
    if (!user)
      throw new UserinfoException(UserinfoErrorCode.UserNotFound, 'the user behind the token no longer exists');
    return userClaims(user, scopes, this.clock.now());
  }
}
