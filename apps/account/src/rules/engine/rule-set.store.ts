import { rawQuery } from '@kyc/platform';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

import type { ActionType } from '../actions/action-config';
import * as SQL from './rule-set.sql';

/** A rule with one of its enabled actions (ENABLED_RULES' row). */
export interface EnabledRuleRow {
  rule_id: string;
  version: number;
  event_type: string;
  condition: unknown;
  action_id: string;
  action_type: ActionType;
  max_attempts: string | null;
}

/**
 * A tenant's rule set as the engine reads it, and its rules-state counter: bumped in the transaction of
 * any rule or action change; every replica compares it with the one its compiled rules were loaded at.
 */
@Injectable()
export class RuleSetStore {
  /** Marks a tenant's rules as changed, in the transaction of the change. */
  async bump(manager: EntityManager, tenantId: string): Promise<void> {
    await rawQuery(manager.connection, SQL.BUMP_STATE, [tenantId], manager);
  }

  async state(manager: EntityManager, tenantId: string): Promise<number> {
    const rows = await rawQuery<{ rules_version: string | number }>(manager.connection, SQL.STATE, [tenantId], manager);
    return rows.length ? Number(rows[0].rules_version) : 0;
  }

  /** The tenant's rules with their enabled actions, one row per action, in creation order. */
  enabledRules(manager: EntityManager, tenantId: string): Promise<EnabledRuleRow[]> {
    return rawQuery<EnabledRuleRow>(manager.connection, SQL.ENABLED_RULES, [tenantId], manager);
  }
}
