import { AgentCapacityChangedEvent, AgentStatusChangedEvent, TOPICS } from '@kyc/contracts';
import { AccessCacheService, Caller, Clock, decodeStartKey, encodeStartKey, OutboxService, Page } from '@kyc/platform';
import { Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { DataSource, EntityManager, Repository } from 'typeorm';

import { agentEmail, isManager } from '../chats/chat-access';
import { AgentEntity, AgentSettingsEntity } from './agent.entity';
import { AgentStore } from './agent.store';
import { AgentSettingsService, Settings } from './agent-settings.service';
import { AgentErrorCode, AgentException } from './agents.exception';
import { ListAgentsQuery } from './dto/list-agents.query';
import { SetAgentStatusDto } from './dto/set-agent-status.dto';
import { UpdateCapacitiesDto } from './dto/update-capacities.dto';
import { QueueDrain } from './queue-drain';

const PAGE = 20;

/** An agent with the settings its effective capacity comes from. */
export interface AgentView {
  agent: AgentEntity;
  settings: Settings;
  role?: string;
  /** The permissions of its role, from the access cache. */
  permissions?: string[];
}

/**
 * Agents: users of the account service (known from the access cache by their e-mail) who go
 * online and offline, with capacities and the queues (groups) they serve.
 */
@Injectable()
export class AgentsService {
  constructor(
    private readonly agentStore: AgentStore,
    @InjectRepository(AgentEntity) private readonly agents: Repository<AgentEntity>,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly access: AccessCacheService,
    private readonly agentSettings: AgentSettingsService,
    private readonly queue: QueueDrain,
    private readonly clock: Clock,
    private readonly outbox: OutboxService,
  ) {}

  async setStatus(caller: Caller, dto: SetAgentStatusDto): Promise<AgentView> {
    const email = dto.username.toLowerCase();
    if (!isManager(caller) && agentEmail(caller) !== email)
      throw new AgentException(
        AgentErrorCode.NotOwnAgent,
        "an agent sets only its own status: another agent's needs engagement.agents.manage",
      );
    const user = await this.userOf(caller.tenantId, email);
    const view = await this.dataSource.transaction(async (m) => {
      const agent = await this.upsert(m, caller.tenantId, email, user.user_id);
      const before = { status: agent.status, groups: agent.groups };
      const now = this.clock.now();
      agent.status = dto.status;
      if (dto.groups) agent.groups = [...new Set(dto.groups)];
      agent.updatedAt = now;
      await m.update(
        AgentEntity,
        { tenantId: agent.tenantId, email },
        { status: agent.status, groups: agent.groups, updatedAt: now },
      );
      const settings = await this.agentSettings.settings(m, caller.tenantId);
      const changed = before.status !== agent.status || before.groups.join('\n') !== agent.groups.join('\n');
      if (changed) await this.statusChanged(m, caller, agent, before, settings);
      return { agent, settings, ...this.roleOf(caller.tenantId, user.role) };
    });
    if (dto.status === 'online') await this.queue.drain(caller.tenantId);
    return { ...view, agent: await this.agents.findOneByOrFail({ tenantId: caller.tenantId, email }) };
  }

  async list(caller: Caller, q: ListAgentsQuery): Promise<Page<AgentView>> {
    const qb = this.agents.createQueryBuilder('a').where('a.tenantId = :tenantId', { tenantId: caller.tenantId });
    if (q.status) qb.andWhere('a.status = :status', { status: q.status });
    if (q.username)
      qb.andWhere(`a.email ILIKE :u ESCAPE '\\'`, { u: `%${q.username.replace(/[\\%_]/g, (c) => `\\${c}`)}%` });
    if (q.groups?.length) qb.andWhere('a.groups && :groups', { groups: q.groups });
    const start = decodeStartKey(q.start_key);
    if (start) qb.andWhere('a.email > :after', { after: String(start[1]) });
    const limit = q.limit ?? PAGE;
    const rows = await qb
      .orderBy('a.email', 'ASC')
      .take(limit + 1)
      .getMany();
    const items = rows.slice(0, limit);
    const settings = await this.agentSettings.settings(this.dataSource.manager, caller.tenantId);
    return {
      items: items.map((agent) => ({
        agent,
        settings,
        ...this.roleOf(caller.tenantId, this.access.user(caller.tenantId, agent.userId)?.role),
      })),
      nextKey: rows.length > limit ? encodeStartKey(['email', items[items.length - 1].email]) : undefined,
    };
  }

  /** Capacities: per agent (`user`), the tenant default (`default`), or capacity limits on/off (`toggle_capacity`). */
  async updateCapacities(caller: Caller, dto: UpdateCapacitiesDto) {
    const tenantId = caller.tenantId;
    const users = await Promise.all(
      (dto.update_type === 'user' ? dto.targets! : []).map(async (e) => ({
        email: e.toLowerCase(),
        userId: (await this.userOf(tenantId, e.toLowerCase())).user_id,
      })),
    );
    const result = await this.dataSource.transaction(async (m) => {
      const s = await this.agentSettings.lockedSettings(m, tenantId);
      const previousDefault = s.defaultCapacity;
      const now = this.clock.now();
      if (dto.update_type === 'default') s.defaultCapacity = dto.capacity!;
      if (dto.update_type === 'toggle_capacity') s.capacityEnabled = !s.capacityEnabled;
      s.updatedAt = now;
      await m.save(AgentSettingsEntity, s);
      const events: AgentCapacityChangedEvent[] = [];
      const tenantWide = { default_capacity: s.defaultCapacity, capacity_enabled: s.capacityEnabled };
      if (dto.update_type === 'toggle_capacity' || s.defaultCapacity !== previousDefault)
        events.push({ update_type: dto.update_type, ...tenantWide, changed_at: now.toISOString() });
      const agents: AgentEntity[] = [];
      for (const u of users.sort((a, b) => a.email.localeCompare(b.email))) {
        const agent = await this.upsert(m, tenantId, u.email, u.userId);
        const previous = agent.capacity;
        agent.capacity = dto.capacity!;
        agent.updatedAt = now;
        await m.update(AgentEntity, { tenantId, email: u.email }, { capacity: dto.capacity!, updatedAt: now });
        agents.push(agent);
        if (previous !== agent.capacity)
          events.push({
            update_type: 'user',
            username: agent.email,
            user_id: agent.userId,
            own_capacity: agent.capacity,
            previous_own_capacity: previous,
            capacity: agent.capacity,
            active_chats: agent.activeChats,
            status: agent.status,
            ...tenantWide,
            changed_at: now.toISOString(),
          });
      }
      await this.capacityChanged(m, tenantId, events);
      return { settings: s, agents };
    });
    await this.queue.drain(tenantId);
    return result;
  }

  /** Per queue or group: agents online and offline, chats waiting and being worked. */
  async groupCounters(caller: Caller) {
    const rows: {
      group: string;
      agents_online: number;
      agents_offline: number;
      chats_enqueued: number;
      chats_assigned: number;
    }[] = await this.agentStore.groupCounters<
      { group: string; agents_online: number; agents_offline: number; chats_enqueued: number; chats_assigned: number }[]
    >(this.dataSource.manager, [caller.tenantId]);
    const totals: { online: number; offline: number; enqueued: number; assigned: number }[] =
      await this.agentStore.totals<{ online: number; offline: number; enqueued: number; assigned: number }[]>(
        this.dataSource.manager,
        [caller.tenantId],
      );
    const t = totals[0];
    return {
      groups: rows,
      total: {
        agents_online: t.online,
        agents_offline: t.offline,
        chats_enqueued: t.enqueued,
        chats_assigned: t.assigned,
      },
    };
  }

  /**
   * `engagement.agent.status-changed`, in the change's transaction: the inbox feed pushes it to the
   * tenant's managers and to the agent herself (`agent.status` on the push channel).
   */
  private statusChanged(
    m: EntityManager,
    caller: Caller,
    agent: AgentEntity,
    before: Pick<AgentEntity, 'status' | 'groups'>,
    settings: Settings,
  ) {
    return this.outbox.add(m, {
      topic: TOPICS.engagementAgentStatusChanged,
      type: TOPICS.engagementAgentStatusChanged,
      tenantId: agent.tenantId,
      aggregateId: agent.userId,
      payload: {
        username: agent.email,
        user_id: agent.userId,
        status: agent.status,
        previous_status: before.status,
        groups: agent.groups,
        previous_groups: before.groups,
        capacity: agent.capacity ?? settings.defaultCapacity,
        active_chats: agent.activeChats,
        changed_by: agentEmail(caller) === agent.email ? 'self' : 'manager',
        changed_at: agent.updatedAt.toISOString(),
      } satisfies AgentStatusChangedEvent,
    });
  }

  /**
   * `engagement.agent.capacity-changed`, in the change's transaction: one per agent whose own
   * capacity changed (pushed as `agent.capacity` to managers and to her), one for a change of the
   * tenant's default or limits (to managers).
   */
  private capacityChanged(m: EntityManager, tenantId: string, events: AgentCapacityChangedEvent[]) {
    return this.outbox.add(
      m,
      ...events.map((payload) => ({
        topic: TOPICS.engagementAgentCapacityChanged,
        type: TOPICS.engagementAgentCapacityChanged,
        tenantId,
        aggregateId: payload.user_id ?? tenantId,
        payload,
      })),
    );
  }

  /** The agent's role and its permissions, as the access cache knows them. */
  private roleOf(tenantId: string, role: string | undefined): Pick<AgentView, 'role' | 'permissions'> {
    if (!role) return {};
    return { role, permissions: [...(this.access.role(tenantId, role)?.permissions ?? [])].sort() };
  }

  /** The user of an e-mail; one created a moment ago in account is waited for (AccessCacheService.findUserByUsername). */
  private async userOf(tenantId: string, email: string) {
    const user = await this.access.findUserByUsername(tenantId, email);
    if (!user) throw new AgentException(AgentErrorCode.UnknownUser, `${email} is not a user of this account`);
    if (user.status !== 'enabled') throw new AgentException(AgentErrorCode.UserDisabled, `${email} is disabled`);
    return user;
  }

  private async upsert(m: EntityManager, tenantId: string, email: string, userId: string): Promise<AgentEntity> {
    const now = this.clock.now();
    await this.agentStore.insertIfAbsent<unknown>(m, [tenantId, email, userId, now]);
    return m
      .createQueryBuilder(AgentEntity, 'a')
      .where('a.tenantId = :tenantId AND a.email = :email', { tenantId, email })
      .setLock('pessimistic_write')
      .getOneOrFail();
  }
}
