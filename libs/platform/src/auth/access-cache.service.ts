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
      eachMessage: async (msg: EachMessagePayload) => {
        this.apply(msg.topic, msg.message.key?.toString() ?? '', msg.message.value);
        const id = `${msg.topic}:${msg.partition}`;
        const target = remaining.get(id);
        if (target !== undefined && BigInt(msg.message.offset) + 1n >= target) {
          remaining.delete(id);
          for (const l of this.listeners) l();
        }
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
    const payload = envelope?.payload as any;
    switch (topic) {
      case TOPICS.userState:
        if (payload) this.users.set(userStateKey(payload.tenant_id, payload.user_id), payload as UserState);
        else this.users.delete(key);
        break;
      case TOPICS.roleState:
        if (payload) this.roles.set(roleStateKey(payload.tenant_id, payload.name), payload as RoleState);
        else this.roles.delete(key);
        break;
      case TOPICS.apiKeyState:
        if (payload && (payload as ApiKeyState).revoked) this.revokedKeys.add(payload.key_id);
        else if (payload) this.revokedKeys.delete(payload.key_id);
        break;
    }
  }

  user(tenantId: string, userId: string): UserState | undefined {
    return this.users.get(userStateKey(tenantId, userId));
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
