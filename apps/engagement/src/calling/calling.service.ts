import { Caller, Clock } from '@kyc/platform';
import { Injectable } from '@nestjs/common';

import { EngagementConfig } from '../config/engagement.config';
import { turnCredential } from './turn-credentials';

const urls = (list: string) =>
  list
    .split(',')
    .map((u) => u.trim())
    .filter(Boolean);

/** ICE servers for the workspace's calls: STUN as configured, TURN with a credential minted per request. */
@Injectable()
export class CallingService {
  constructor(
    private readonly config: EngagementConfig,
    private readonly clock: Clock,
  ) {}

  iceServers(caller: Caller) {
    const stun = urls(this.config.ENGAGEMENT_ICE_STUN_URLS);
    const turn = urls(this.config.ENGAGEMENT_ICE_TURN_URLS);
    const servers: { urls: string[]; username?: string; credential?: string }[] = [];
    if (stun.length) servers.push({ urls: stun });
    let expiresAt: Date | undefined;
    if (turn.length && this.config.ENGAGEMENT_TURN_SECRET) {
      const c = turnCredential(
        this.config.ENGAGEMENT_TURN_SECRET,
        caller.username ?? caller.userId,
        this.clock.now().getTime(),
        this.config.ENGAGEMENT_TURN_TTL_S,
      );
      servers.push({ urls: turn, username: c.username, credential: c.credential });
      expiresAt = c.expiresAt;
    }
    return {
      ice_servers: servers,
      ...(expiresAt ? { ttl: this.config.ENGAGEMENT_TURN_TTL_S, expires_at: expiresAt.toISOString() } : {}),
    };
  }
}
