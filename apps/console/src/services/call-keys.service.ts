import { randomUUID } from 'node:crypto';

import { ApiKeySigner } from '@kyc/platform';
import { Injectable } from '@nestjs/common';

import { ConsoleConfig } from '../config/console.config';
import { SessionEntity } from '../sessions/session.entity';

/**
 * The credential of each call to a service: a backend API key of the signed-in user (sub = her user
 * id, tenant_id = her tenant), living CONSOLE_CALL_KEY_TTL_SECONDS, minted here and never sent to
 * the browser. It carries no role or permission: each service's guard resolves the user's role and
 * status from its access cache on every request, so a changed role or a disabled user counts at once.
 * One key per session is reused for half its life.
 */
@Injectable()
export class CallKeysService {
  private readonly signer: ApiKeySigner;
  private readonly keys = new Map<string, { token: string; renewAt: number }>();

  constructor(private readonly config: ConsoleConfig) {
    this.signer = new ApiKeySigner(config.API_KEY_PRIVATE_KEY!);
  }

  async keyFor(session: SessionEntity): Promise<string> {
    const now = Date.now();
    const cached = this.keys.get(session.tokenHash);
    if (cached && cached.renewAt > now) return cached.token;
    const ttl = this.config.CONSOLE_CALL_KEY_TTL_SECONDS;
    const iat = Math.floor(now / 1000);
    const token = await this.signer.sign({
      jti: `CON${randomUUID().replace(/-/g, '')}`,
      sub: session.userId,
      tenant_id: session.tenantId,
      key_type: 'backend',
      ver: 1,
      username: session.username,
      iat,
      exp: iat + ttl,
    });
    if (this.keys.size > 10_000) this.keys.clear();
    this.keys.set(session.tokenHash, { token, renewAt: now + (ttl * 1000) / 2 });
    return token;
  }

  forget(session: SessionEntity): void {
    this.keys.delete(session.tokenHash);
  }
}
