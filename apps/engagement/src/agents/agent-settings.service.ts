import { Clock } from '@kyc/platform';
import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';

import { EngagementConfig } from '../config/engagement.config';
import { AgentSettingsEntity } from './agent.entity';
import { AgentStore } from './agent.store';

/** The tenant's settings as assignment reads them (defaults until the tenant changes any). */
export type Settings = Pick<AgentSettingsEntity, 'defaultCapacity' | 'capacityEnabled' | 'rulesetStrategy'>;

/** The tenant's agent settings: default capacity, capacity limits on or off, and the assignment ruleset's strategy. */
@Injectable()
export class AgentSettingsService {
  constructor(
    private readonly agentStore: AgentStore,
    private readonly config: EngagementConfig,
    private readonly clock: Clock,
  ) {}

  async settings(m: EntityManager, tenantId: string): Promise<Settings> {
    return (
      (await m.findOneBy(AgentSettingsEntity, { tenantId })) ?? {
        defaultCapacity: this.config.ENGAGEMENT_AGENT_DEFAULT_CAPACITY,
        capacityEnabled: true,
        rulesetStrategy: 'round_robin',
      }
    );
  }

  /** Settings locked for a change (created with the defaults on first use). */
  async lockedSettings(m: EntityManager, tenantId: string): Promise<AgentSettingsEntity> {
    const d = await this.settings(m, tenantId);
    await this.agentStore.insertSettingsIfAbsent<unknown>(m, [
      tenantId,
      d.defaultCapacity,
      d.capacityEnabled,
      d.rulesetStrategy,
      this.clock.now(),
    ]);
    return m
      .createQueryBuilder(AgentSettingsEntity, 's')
      .where('s.tenantId = :tenantId', { tenantId })
      .setLock('pessimistic_write')
      .getOneOrFail();
  }
}
