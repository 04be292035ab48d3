import { Clock, JobQueueService, OutboxService } from '@kyc/platform';
import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';

import { RulesetStrategy } from '../agents/agent.entity';
import { AgentStore } from '../agents/agent.store';
import { AgentSettingsService, Settings } from '../agents/agent-settings.service';
import { QueueDrain } from '../agents/queue-drain';
import { ChatEntity } from '../chats/chat.entity';
import { addActivity } from '../chats/chat-activities';
import { ChatAssignment } from '../chats/chat-assignment';
import { chatEvents } from '../chats/chat-events';
import { ChatErrorCode, ChatException } from '../chats/chats.exception';
import { EngagementConfig } from '../config/engagement.config';

/** At most this many chats are handed out by one drain (the rest wait for the next trigger). */
const DRAIN_BATCH = 500;

/** Drains of a tenant's queue retried when a chat found every free agent held by another assigner. */
export const ASSIGNMENT_RETRY_QUEUE = 'chat-assignment-retry';
/** How long after such a miss the retry runs (the other assigners' transactions are short). */
const RETRY_AFTER_MS = 100;

const ORDER: Record<RulesetStrategy, string> = {
  // The agent that waited longest since its last assignment.
  round_robin: 'last_assigned_at ASC NULLS FIRST, email ASC',
  // The agent with the fewest open chats; ties by who waited longest.
  least_busy: 'active_chats ASC, last_assigned_at ASC NULLS FIRST, email ASC',
};

/**
 * Hands open unassigned chats to online agents with free capacity, by the tenant's ruleset.
 *
 * Concurrency: a chat is taken with `FOR UPDATE SKIP LOCKED` (two assigners never hold the same
 * chat; the owner is set while the lock is held), and an agent with `FOR UPDATE SKIP LOCKED`
 * re-checking its capacity on the locked row (PostgreSQL re-evaluates the condition on the newest
 * version), so no agent goes over capacity. Nothing here waits for a lock another assigner holds:
 * a chat that found every free agent held (not full: held for a moment by other assigners) would
 * stay queued with agents that have room, as nothing else hands it on; it gets a retry of the
 * tenant's drain through the job queue, in its own transaction, a moment later.
 */
@Injectable()
export class AssignmentService implements OnApplicationBootstrap, QueueDrain, ChatAssignment {
  constructor(
    private readonly agentStore: AgentStore,
    private readonly agentSettings: AgentSettingsService,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly outbox: OutboxService,
    private readonly jobs: JobQueueService,
    private readonly config: EngagementConfig,
    private readonly clock: Clock,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.config.ENGAGEMENT_WORKER_ENABLED) return;
    this.jobs.register(
      ASSIGNMENT_RETRY_QUEUE,
      async (job) => {
        if (job.tenantId) await this.drain(job.tenantId);
      },
      { concurrency: 2, lockMs: this.config.ENGAGEMENT_WORKER_LOCK_MS },
    );
  }

  /** Gives a locked, open, unassigned chat to an agent, if one is free. Answers whether it did. */
  async assign(m: EntityManager, chat: ChatEntity, settings?: Settings): Promise<boolean> {
    const s = settings ?? (await this.agentSettings.settings(m, chat.tenantId));
    const free = (lock: string): Promise<{ email: string }[]> =>
      this.agentStore.freeAgent(m, ORDER[s.rulesetStrategy], lock, [
        chat.tenantId,
        s.capacityEnabled,
        s.defaultCapacity,
        chat.queue,
      ]);
    const rows = await free('FOR UPDATE SKIP LOCKED');
    if (rows.length) {
      await this.giveTo(m, chat, rows[0].email, 'ruleset');
      return true;
    }
    // No free agent we could lock: if one has room but is held by another assigner, retry soon.
    if ((await free('')).length) {
      const now = this.clock.now().getTime();
      await this.jobs.enqueue(
        m,
        ASSIGNMENT_RETRY_QUEUE,
        { chat_id: chat.id },
        { tenantId: chat.tenantId, runAt: new Date(now + RETRY_AFTER_MS), dedupeKey: `assign:${chat.id}:${now}` },
      );
    }
    return false;
  }

  /** Sets the owner of a locked chat whose new agent row is locked and counted, with its activity and event. */
  async giveTo(
    m: EntityManager,
    chat: ChatEntity,
    email: string,
    by: 'ruleset' | 'force_dequeue' | 'owner_update',
  ): Promise<void> {
    const now = this.clock.now();
    await this.agentStore.countAssigned<unknown>(m, [chat.tenantId, email, now]);
    const previous = chat.owner;
    chat.owner = email;
    chat.assignedAt = now;
    chat.enqueuedAt = null;
    await m.update(ChatEntity, { id: chat.id }, { owner: email, assignedAt: now, enqueuedAt: null, updatedAt: now });
    await addActivity(
      m,
      chat,
      { actorType: by === 'ruleset' ? 'system' : 'agent', activityType: 'assignment', owner: email },
      now,
    );
    await chatEvents.assigned(this.outbox, m, chat, previous, by);
  }

  /**
   * Gives a locked open chat to `email` if that agent has room, and frees its previous owner (a
   * force-dequeue or an owner update of ChatOwnerService). Lock order: the chat (the caller's), then
   * the agents involved in e-mail order, so two moves between the same agents cannot deadlock; the
   * new owner is counted only if it has room (a conditional UPDATE).
   */
  async handOver(
    m: EntityManager,
    chat: ChatEntity,
    email: string,
    by: 'force_dequeue' | 'owner_update',
  ): Promise<void> {
    if (chat.owner === email) return;
    const involved = [email, chat.owner].filter((e): e is string => !!e).sort();
    const locked: { email: string }[] = await this.agentStore.lockAgents<{ email: string }[]>(m, [
      chat.tenantId,
      involved,
    ]);
    if (!locked.some((a) => a.email === email))
      throw new ChatException(ChatErrorCode.AgentNotFound, `${email} is not an agent of this account`);
    const s = await this.agentSettings.settings(m, chat.tenantId);
    const room: unknown[] = await this.agentStore.hasRoom<unknown[]>(m, [
      chat.tenantId,
      email,
      s.capacityEnabled,
      s.defaultCapacity,
    ]);
    if (!room.length)
      throw new ChatException(ChatErrorCode.AgentAtCapacity, `${email} has no free capacity for another chat`);
    await this.release(m, chat.tenantId, chat.owner);
    await this.giveTo(m, chat, email, by);
  }

  /** Frees the capacity a chat held on its owner (closing or moving it). */
  async release(m: EntityManager, tenantId: string, owner: string | null): Promise<void> {
    if (!owner) return;
    await this.agentStore.release<unknown>(m, [tenantId, owner, this.clock.now()]);
  }

  /**
   * Hands queued chats (oldest first) to free agents until no chat or no agent is left: after an
   * agent came online, a chat closed or capacities changed. One short transaction per chat.
   */
  async drain(tenantId: string): Promise<number> {
    let assigned = 0;
    for (let i = 0; i < DRAIN_BATCH; i++) {
      const done = await this.dataSource.transaction(async (m) => {
        const s = await this.agentSettings.settings(m, tenantId);
        const chat = await m
          .createQueryBuilder(ChatEntity, 'c')
          .where(`c.tenantId = :tenantId AND c.status = 'open' AND c.owner IS NULL`, { tenantId })
          .andWhere(
            `EXISTS (SELECT 1 FROM agents a WHERE a.tenant_id = c.tenant_id AND a.status = 'online'
              AND (NOT :capOn OR a.active_chats < COALESCE(a.capacity, :defCap))
              AND (cardinality(a.groups) = 0 OR c.queue = ANY(a.groups)))`,
            { capOn: s.capacityEnabled, defCap: s.defaultCapacity },
          )
          .orderBy('c.enqueuedAt', 'ASC')
          .limit(1)
          .setLock('pessimistic_write')
          .setOnLocked('skip_locked')
          .getOne();
        return chat ? this.assign(m, chat, s) : false;
      });
      if (!done) break;
      assigned++;
    }
    return assigned;
  }
}
