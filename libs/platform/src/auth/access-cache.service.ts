import { randomUUID } from 'node:crypto';

import { ApiKeyState, EventEnvelope, RoleState, roleStateKey, TOPICS, UserState, userStateKey } from '@kyc/contracts';
import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import type { Consumer, EachMessagePayload, Kafka } from 'kafkajs';

const STATE_TOPICS = [TOPICS.userState, TOPICS.roleState, TOPICS.apiKeyState];

/**
 * Every service's local copy of users, roles and API-key revocations. It folds the compacted
 * state topics from the beginning (a fresh consumer group per process, no committed offsets),
 * so a change made in account or identity reaches every service in well under 2 seconds without
 * a synchronous call per request. The service is ready once it has read up to the high
 * watermark that existed when it started.
 */
@Injectable()
export class AccessCacheService implements OnApplicationShutdown {
  private readonly logger = new Logger('access-cache');
  private readonly users = new Map<string, UserState>();
  private readonly roles = new Map<string, RoleState>();
  private readonly revokedKeys = new Set<string>();
  private consumer?: Consumer;
  private caughtUp = false;
  private readonly listeners = new Set<() => void>();

  /** Replays the state topics until caught up; then keeps following them. */
  async start(kafka: Kafka, service: string, timeoutMs = 30_000): Promise<void> {
    const admin = kafka.admin();
    await admin.connect();
    const targets = new Map<string, bigint>();
    try {
      for (const topic of STATE_TOPICS) {
        for (const p of await admin.fetchTopicOffsets(topic)) {
          if (BigInt(p.high) > BigInt(p.low)) targets.set(`${topic}:${p.partition}`, BigInt(p.high));
        }
      }
    } finally {
      await admin.disconnect();
    }
    this.consumer = kafka.consumer({
      groupId: `access-cache.${service}.${randomUUID()}`,
      maxWaitTimeInMs: 1_000,
      sessionTimeout: 10_000,
      heartbeatInterval: 1_000,
    });
    await this.consumer.connect();
    await this.consumer.subscribe({ topics: STATE_TOPICS, fromBeginning: true });
    const remaining = new Map(targets);
    const done = new Promise<void>((resolve) => {
      if (remaining.size === 0) resolve();
      this.listeners.add(() => remaining.size === 0 && resolve());
    });
    await this.consumer.run({
      autoCommit: false,
      eachMessage: (msg: EachMessagePayload) => {
        this.apply(msg.topic, msg.message.key?.toString() ?? '', msg.message.value);
        const id = `${msg.topic}:${msg.partition}`;
        const target = remaining.get(id);
        if (target !== undefined && BigInt(msg.message.offset) + 1n >= target) {
          remaining.delete(id);
          for (const l of this.listeners) l();
        }
        return Promise.resolve();
      },
    });
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      done,
      new Promise(
        (_, reject) =>
          (timer = setTimeout(() => reject(new Error(`access cache not caught up after ${timeoutMs} ms`)), timeoutMs)),
      ),
    ]).finally(() => clearTimeout(timer));
    this.caughtUp = true;
    this.logger.log({
      users: this.users.size,
      roles: this.roles.size,
      revoked_keys: this.revokedKeys.size,
      msg: 'access cache ready',
    });
  }

  get ready(): boolean {
    return this.caughtUp;
  }

  /** Folds one state record; a null value (tombstone) removes it. */
  apply(topic: string, key: string, value: Buffer | null): void {
    const envelope = value ? (JSON.parse(value.toString()) as EventEnvelope<unknown>) : null;
    const payload = envelope?.payload ?? null;
    switch (topic) {
      case TOPICS.userState: {
        const user = payload as UserState | null;
        if (user) this.users.set(userStateKey(user.tenant_id, user.user_id), user);
        else this.users.delete(key);
        break;
      }
      case TOPICS.roleState: {
        const role = payload as RoleState | null;
        if (role) this.roles.set(roleStateKey(role.tenant_id, role.name), role);
        else this.roles.delete(key);
        break;
      }
      case TOPICS.apiKeyState: {
        const apiKey = payload as ApiKeyState | null;
        if (apiKey?.revoked) this.revokedKeys.add(apiKey.key_id);
        else if (apiKey) this.revokedKeys.delete(apiKey.key_id);
        break;
      }
    }
  }

  user(tenantId: string, userId: string): UserState | undefined {
    return this.users.get(userStateKey(tenantId, userId));
  }

  /** A user of the tenant by its username (the e-mail, stored lowercased), or undefined. */
  userByUsername(tenantId: string, username: string): UserState | undefined {
    const wanted = username.toLowerCase();
    for (const user of this.users.values())
      if (user.tenant_id === tenantId && user.username.toLowerCase() === wanted) return user;
    return undefined;
  }

  role(tenantId: string, name: string): RoleState | undefined {
    return this.roles.get(roleStateKey(tenantId, name));
  }

  isRevoked(keyId: string): boolean {
    return this.revokedKeys.has(keyId);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.consumer?.disconnect().catch(() => undefined);
  }
}
