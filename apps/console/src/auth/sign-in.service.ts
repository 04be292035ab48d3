import { createHmac, randomBytes } from 'node:crypto';

import type { UserState } from '@kyc/contracts';
import { AccessCacheService, OneTimeCodePurpose, OneTimeCodeService, waitInWords } from '@kyc/platform';
import { Injectable, Logger } from '@nestjs/common';

import { ConsoleConfig } from '../config/console.config';
import { SessionEntity } from '../sessions/session.entity';
import { SessionsService } from '../sessions/sessions.service';
import { ConsoleErrorCode, ConsoleException } from '../shared/console.exception';
import { SignInMailer } from './sign-in-mailer';

const CODE_TTL_SECONDS = 600;

/**
 * Operators sign in with their e-mail (an account user's username) and a one-time code sent to it,
 * through the platform's one-time codes: codes sent per address and per client address are
 * limited an hour, wrong guesses are counted per code and per person, with growing lockouts.
 * Asking for a code answers the same whether or not the e-mail is a user's (no enumeration).
 */
@Injectable()
export class SignInService {
  private readonly logger = new Logger('sign-in');
  private readonly purpose: OneTimeCodePurpose;

  constructor(
    private readonly codes: OneTimeCodeService,
    private readonly access: AccessCacheService,
    private readonly sessions: SessionsService,
    private readonly mailer: SignInMailer,
    config: ConsoleConfig,
  ) {
    const secret = config.CONSOLE_SECRET_KEY ?? randomBytes(32).toString('hex');
    this.purpose = {
      name: 'console.sign-in',
      key: createHmac('sha256', secret).update('console.sign-in').digest(),
    };
  }

  /** Sends a code to the e-mail when it is an enabled user's (of the named account, when one is named). */
  async requestCode(email: string, tenantId: string | undefined, clientAddress: string): Promise<void> {
    const address = email.trim().toLowerCase();
    const refusal = await this.codes.admit(this.purpose, { subject: address, address, clientAddress });
    if (refusal) {
      const code = refusal.refused === 'subject' ? ConsoleErrorCode.SignInLocked : ConsoleErrorCode.CodesLimited;
      throw new ConsoleException(
        code,
        `Too many codes asked for; try again in ${waitInWords(refusal.retryAfterSeconds)}`,
        [{ field: 'email', message: `Try again in ${waitInWords(refusal.retryAfterSeconds)}` }],
      ).retryAfter(refusal.retryAfterSeconds);
    }
    if (!this.candidates(address, tenantId).length) return;
    const code = await this.codes.create(this.purpose, {
      reference: address,
      subject: address,
      address,
      ttlSeconds: CODE_TTL_SECONDS,
    });
    // The answer does not wait for (or reveal) the delivery.
    this.mailer.sendCode(address, code).catch((err: Error) => this.logger.error({ err }, 'sign-in code not sent'));
  }

  /** Checks the code and opens a session for the user (the named account's, or the first account's). */
  async signIn(
    email: string,
    guess: string,
    tenantId: string | undefined,
  ): Promise<{ token: string; session: SessionEntity; user: UserState }> {
    const address = email.trim().toLowerCase();
    const check = await this.codes.verify(this.purpose, address, guess.trim());
    switch (check.outcome) {
      case 'wrong':
        throw new ConsoleException(ConsoleErrorCode.WrongCode, 'The code is not the one sent', [
          {
            field: 'code',
            message: check.attemptsLeft
              ? `The code is not the one sent; ${check.attemptsLeft} attempt(s) left`
              : 'The code is not the one sent and is now used up; ask for a new one',
          },
        ]);
      case 'locked':
        throw new ConsoleException(
          ConsoleErrorCode.SignInLocked,
          `Too many wrong codes; try again in ${waitInWords(check.retryAfterSeconds)}`,
          [{ field: 'code', message: `Too many wrong codes; try again in ${waitInWords(check.retryAfterSeconds)}` }],
        ).retryAfter(check.retryAfterSeconds);
      case 'unavailable':
        throw new ConsoleException(ConsoleErrorCode.CodeUnavailable, 'No code is waiting for this e-mail', [
          { field: 'code', message: 'This code has expired or was used; ask for a new one' },
        ]);
    }
    const [user] = this.candidates(address, tenantId);
    if (!user) throw new ConsoleException(ConsoleErrorCode.NoAccount, 'This e-mail is no enabled user of an account');
    const { token, session } = await this.sessions.open(user);
    return { token, session, user };
  }

  private candidates(address: string, tenantId: string | undefined): UserState[] {
    return this.access
      .usersNamed(address)
      .filter((u) => u.status === 'enabled' && (!tenantId || u.tenant_id === tenantId))
      .sort((a, b) => a.tenant_id.localeCompare(b.tenant_id));
  }
}
