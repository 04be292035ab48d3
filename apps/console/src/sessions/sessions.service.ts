import { createHash, randomBytes } from 'node:crypto';

import type { UserState } from '@kyc/contracts';
import { AccessCacheService, Clock } from '@kyc/platform';
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { IsNull, Repository } from 'typeorm';

import { ConsoleConfig } from '../config/console.config';
import { SessionEntity } from './session.entity';

/** A session's last use is written at most this often (each request reads it; few write it). */
const TOUCH_EVERY_MS = 15_000;

export const hashToken = (token: string) => createHash('sha256').update(token).digest('base64url');

/** An open session, with the user as the access cache knows her now. */
export interface OpenSession {
  session: SessionEntity;
  user: UserState;
}

/**
 * Operators' sessions, in the console's schema so every replica sees the same ones and ending a
 * session (or all of a user's) takes effect at once everywhere. A session ends after
 * CONSOLE_SESSION_IDLE_MINUTES without use, CONSOLE_SESSION_ABSOLUTE_HOURS after sign-in, when the
 * user signs out (this one or all of hers), and when her account user is disabled or deleted.
 */
@Injectable()
export class SessionsService {
  constructor(
    @InjectRepository(SessionEntity) private readonly sessions: Repository<SessionEntity>,
    private readonly access: AccessCacheService,
    private readonly config: ConsoleConfig,
    private readonly clock: Clock,
  ) {}

  /** Opens a session for the user: the cookie's token (never stored) and the session. */
  async open(user: UserState): Promise<{ token: string; session: SessionEntity }> {
    const token = randomBytes(32).toString('base64url');
    const now = this.clock.now();
    const session = this.sessions.create({
      tokenHash: hashToken(token),
      tenantId: user.tenant_id,
      userId: user.user_id,
      username: user.username,
      csrfToken: randomBytes(24).toString('base64url'),
      createdAt: now,
      lastSeenAt: now,
      expiresAt: new Date(now.getTime() + this.config.CONSOLE_SESSION_ABSOLUTE_HOURS * 3_600_000),
      endedAt: null,
    });
    await this.sessions.insert(session);
    return { token, session };
  }

  /** The open session of a cookie's token, or undefined (unknown, ended, timed out, or its user disabled). */
  async resolve(token: string | undefined): Promise<OpenSession | undefined> {
    if (!token || token.length > 200) return undefined;
    const session = await this.sessions.findOneBy({ tokenHash: hashToken(token), endedAt: IsNull() });
    if (!session) return undefined;
    const now = this.clock.now();
    const idleUntil = session.lastSeenAt.getTime() + this.config.CONSOLE_SESSION_IDLE_MINUTES * 60_000;
    const user = await this.access.findUser(session.tenantId, session.userId);
    if (now >= session.expiresAt || now.getTime() >= idleUntil || !user || user.status !== 'enabled') {
      await this.end(session);
      return undefined;
    }
    if (now.getTime() - session.lastSeenAt.getTime() >= TOUCH_EVERY_MS) {
      session.lastSeenAt = now;
      await this.sessions.update({ tokenHash: session.tokenHash }, { lastSeenAt: now });
    }
    return { session, user };
  }

  /** When the session ends if unused from now on (the earlier of the idle and the absolute timeout). */
  idleExpiry(session: SessionEntity): Date {
    const idle = session.lastSeenAt.getTime() + this.config.CONSOLE_SESSION_IDLE_MINUTES * 60_000;
    return new Date(Math.min(idle, session.expiresAt.getTime()));
  }

  async end(session: SessionEntity): Promise<void> {
    await this.sessions.update({ tokenHash: session.tokenHash, endedAt: IsNull() }, { endedAt: this.clock.now() });
  }

  /** Ends every open session of the user (sign out everywhere): answers how many were open. */
  async endAll(tenantId: string, userId: string): Promise<number> {
    const result = await this.sessions.update({ tenantId, userId, endedAt: IsNull() }, { endedAt: this.clock.now() });
    return result.affected ?? 0;
  }
}
