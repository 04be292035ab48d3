import { Caller, Clock } from '@kyc/platform';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

import { AgentSettingsService, Settings } from '../agents/agent-settings.service';
import { AgentErrorCode, AgentException } from '../agents/agents.exception';
import { RulesetResponse } from './dto/ruleset.response';
import { UpdateRulesetDto } from './dto/update-ruleset.dto';

/** Each tenant has one ruleset, `default`. */
export const DEFAULT_RULESET = 'default';

export const presentRuleset = (s: Settings): RulesetResponse => ({
  ruleset_id: DEFAULT_RULESET,
  strategy: s.rulesetStrategy,
  queue_by: 'line',
  online_only: true,
  capacity_enabled: s.capacityEnabled,
  default_capacity: s.defaultCapacity,
});

/** The tenant's assignment ruleset: how open unassigned chats are handed to agents. */
@Injectable()
export class RulesetsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly agentSettings: AgentSettingsService,
    private readonly clock: Clock,
  ) {}

  async get(caller: Caller, id: string): Promise<Settings> {
    this.assertKnown(id);
    return this.agentSettings.settings(this.dataSource.manager, caller.tenantId);
  }

  async update(caller: Caller, id: string, dto: UpdateRulesetDto): Promise<Settings> {
    this.assertKnown(id);
    return this.dataSource.transaction(async (m) => {
      const s = await this.agentSettings.lockedSettings(m, caller.tenantId);
      s.rulesetStrategy = dto.strategy;
      s.updatedAt = this.clock.now();
      await m.save(s);
      return s;
    });
  }

  private assertKnown(id: string) {
    if (id !== DEFAULT_RULESET)
      throw new AgentException(
        AgentErrorCode.RulesetNotFound,
        `assignment ruleset ${id} not found (the account's is default)`,
      );
  }
}
