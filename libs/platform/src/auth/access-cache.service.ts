import { randomUUID } from 'node:crypto';

import { ApiKeyState, EventEnvelope, RoleState, roleStateKey, TOPICS, UserState, userStateKey } from '@kyc/contracts';
import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import type { Consumer, EachMessagePayload, Kafka } from 'kafkajs';

const STATE_TOPICS = [TOPICS.userState, TOPICS.roleState, TOPICS.apiKeyState];

/**
 * Read-your-writes across services (findUser, findRole, findUserByUsername): how long a miss waits
 * for the owner's record, how long a miss that stayed one is remembered (answered at once), and
 * how many distinct misses are remembered and waited for at most.
 */
export const ACCESS_MISS_WAIT_MS = 2_000;
export const ACCESS_MISS_REMEMBER_MS = 10_000;
const MAX_REMEMBERED_MISSES = 10_000;
/** Deleted users and roles (tombstones folded) remembered, so their keys are refused at once. */
const MAX_REMEMBERED_DELETIONS = 100_000;
const MAX_WAITING_MISSES = 1_000;

/**
 * Every service's local copy of users, roles and API-key revocations. It folds the compacted
 * state topics from the beginning (a fresh consumer group per process, no committed offsets),
 * so a change made in account or identity reaches every service in well under 2 seconds without
 * a synchronous call per request. The service is ready once it has read up to the high
 * watermark that existed when it started.
 */
const usernameKey = (tenantId: string, username: string) => `username:${tenantId}:${username.toLowerCase()}`;

@Injectable()
export class AccessCacheService implements OnApplicationShutdown {
  private readonly logger = new Logger('access-cache');
  private readonly users = new Map<string, UserState>();
  private readonly roles = new Map<string, RoleState>();
  private readonly revokedKeys = new Set<string>();
  private consumer?: Consumer;
  private caughtUp = false;
  private readonly listeners = new Set<() => void>();
  /** Waiters of misses, told after each record folded. */
  private readonly folded = new Set<() => void>();
  /** Misses that stayed misses: key -> until when they are answered without waiting. */
  private readonly misses = new Map<string, number>();
  /** Lookup keys of deleted users and roles: nothing is on its way for them, so a miss does not wait. */
  private readonly deleted = new Set<string>();
  /** Misses being waited for: one wait per key, shared by every request asking. */
  private readonly waits = new Map<string, Promise<void>>();

  /**
   * Replays the state topics until caught up; then keeps following them. `maxWaitTimeInMs`: how long a
   * fetch waits at the broker when nothing is new (PlatformConfig.KAFKA_CONSUMER_MAX_WAIT_MS).
   */
  async start(
    kafka: Kafka,
    service: string,
    { timeoutMs = 30_000, maxWaitTimeInMs = 1_000 }: { timeoutMs?: number; maxWaitTimeInMs?: number } = {},
  ): Promise<void> {
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
      maxWaitTimeInMs,
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
        if (user) {
          const userKey = userStateKey(user.tenant_id, user.user_id);
          this.users.set(userKey, user);
          this.deleted.delete(`user:${userKey}`);
          this.deleted.delete(usernameKey(user.tenant_id, user.username));
        } else {
          const gone = this.users.get(key);
          this.users.delete(key);
          this.markDeleted(`user:${key}`);
          if (gone) this.markDeleted(usernameKey(gone.tenant_id, gone.username));
        }
        break;
      }
      case TOPICS.roleState: {
        const role = payload as RoleState | null;
        if (role) {
          this.roles.set(roleStateKey(role.tenant_id, role.name), role);
          this.deleted.delete(`role:${roleStateKey(role.tenant_id, role.name)}`);
        } else {
          this.roles.delete(key);
          this.markDeleted(`role:${key}`);
        }
        break;
      }
      case TOPICS.apiKeyState: {
        const apiKey = payload as ApiKeyState | null;
        if (apiKey?.revoked) this.revokedKeys.add(apiKey.key_id);
        else if (apiKey) this.revokedKeys.delete(apiKey.key_id);
        break;
      }
    }
    for (const waiter of this.folded) waiter();
  }

  /**
   * A user, asking its owner once on a miss: a user account created a moment ago (its record is
   * on its way through account's outbox and the compacted state topic) is waited for, at most
   * ACCESS_MISS_WAIT_MS, so a client that creates a user and uses it at once is not refused. A
   * user found without its role waits for the role the same way. A miss that stays one is
   * remembered for ACCESS_MISS_REMEMBER_MS (bounded), so repeated asks for an unknown id answer at once.
   */
  async findUser(tenantId: string, userId: string): Promise<UserState | undefined> {
    const user = await this.find(`user:${userStateKey(tenantId, userId)}`, () => this.user(tenantId, userId));
    if (user) await this.findRole(tenantId, user.role);
    return user;
  }

  /** userByUsername, asking its owner once on a miss (see findUser). */
  async findUserByUsername(tenantId: string, username: string): Promise<UserState | undefined> {
    const user = await this.find(usernameKey(tenantId, username), () => this.userByUsername(tenantId, username));
    if (user) await this.findRole(tenantId, user.role);
    return user;
  }

  /** A role, asking its owner once on a miss (see findUser). */
  findRole(tenantId: string, name: string): Promise<RoleState | undefined> {
    return this.find(`role:${roleStateKey(tenantId, name)}`, () => this.role(tenantId, name));
  }

  private async find<T>(key: string, read: () => T | undefined): Promise<T | undefined> {
    const found = read();
    // Before the cache is ready (or without Kafka) there is no owner's log to follow.
    if (found !== undefined || !this.caughtUp) return found;
    // A deleted user or role has nothing on its way: refused at once (a deleted user's key, say).
    if (this.deleted.has(key) || (this.misses.get(key) ?? 0) > Date.now()) return undefined;
    let wait = this.waits.get(key);
    if (!wait) {
      if (this.waits.size >= MAX_WAITING_MISSES) return undefined;
      wait = this.waitFor(key, read).finally(() => this.waits.delete(key));
      this.waits.set(key, wait);
    }
    await wait;
    const result = read();
    if (result === undefined) this.rememberMiss(key);
    return result;
  }

  /** Resolves once `read` finds its record in a folded update, its deletion is folded, or after ACCESS_MISS_WAIT_MS. */
  private waitFor(key: string, read: () => unknown): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.folded.delete(check);
        resolve();
      };
      const check = () => {
        if (read() !== undefined || this.deleted.has(key)) done();
      };
      const timer = setTimeout(done, ACCESS_MISS_WAIT_MS);
      this.folded.add(check);
    });
  }

  private markDeleted(key: string): void {
    if (this.deleted.size >= MAX_REMEMBERED_DELETIONS) this.deleted.delete(this.deleted.values().next().value!);
    this.deleted.add(key);
  }

  private rememberMiss(key: string): void {
    this.misses.delete(key);
    if (this.misses.size >= MAX_REMEMBERED_MISSES) this.misses.delete(this.misses.keys().next().value!);
    this.misses.set(key, Date.now() + ACCESS_MISS_REMEMBER_MS);
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

  /** Every user, of any tenant, whose username (the e-mail) is this one, compared lowercased: the console's sign-in. */
  usersNamed(username: string): UserState[] {
    const wanted = username.toLowerCase();
    return [...this.users.values()].filter((user) => user.username.toLowerCase() === wanted);
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
