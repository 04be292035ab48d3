import { compile } from '@kyc/json-logic';
import { DEFAULT_MAX_COST } from '@kyc/json-logic';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

import { DEFAULT_MAX_ATTEMPTS } from '../actions/action-config';
import { LoadedRule } from './rule-matcher';
import { RuleSetStore } from './rule-set.store';

interface TenantRules {
  state: number;
  byEventType: Map<string, LoadedRule[]>;
}

/**
 * Iteration steps one condition may take on one event (JSON-Logic `compile` maxSteps): the same
 * figure as the write-time cost budget (DEFAULT_MAX_COST), so a rule accepted with lists from the
 * data longer than assumed stops here, failing its executions with the reason recorded, instead
 * of holding the consumer (and its heartbeat) for as long as the data makes it run.
 */
export const RULE_EVALUATION_MAX_STEPS = DEFAULT_MAX_COST;

/** Tenants whose compiled rules stay in memory (least recently used ones are dropped first). */
export const RULE_CACHE_TENANTS = 1_000;

/**
 * The compiled rules of each tenant, per event type. Conditions are compiled once when a
 * tenant's rules are loaded; every evaluation first reads the tenant's rules-state counter (one
 * indexed row), bumped in the transaction of any rule or action change, and reloads when it
 * moved. So a change made through any replica takes effect on every replica's next event.
 */
@Injectable()
export class RuleCacheService {
  private readonly tenants = new Map<string, TenantRules>();

  constructor(private readonly store: RuleSetStore) {}

  async rulesFor(manager: EntityManager, tenantId: string, eventType: string): Promise<LoadedRule[]> {
    // The counter is read before the rules: a change committing in between only causes one more reload.
    const state = await this.store.state(manager, tenantId);
    let entry = this.tenants.get(tenantId);
    if (!entry || entry.state !== state) entry = { state, byEventType: await this.load(manager, tenantId) };
    this.tenants.delete(tenantId);
    this.tenants.set(tenantId, entry);
    if (this.tenants.size > RULE_CACHE_TENANTS) this.tenants.delete(this.tenants.keys().next().value as string);
    return entry.byEventType.get(eventType) ?? [];
  }

  /** Rules with at least one enabled action (the others have nothing to run), in creation order. */
  private async load(manager: EntityManager, tenantId: string): Promise<Map<string, LoadedRule[]>> {
    const rows = await this.store.enabledRules(manager, tenantId);
    const rules = new Map<string, LoadedRule>();
    for (const row of rows) {
      let rule = rules.get(row.rule_id);
      if (!rule) {
        rule = {
          id: row.rule_id,
          version: row.version,
          eventType: row.event_type,
          condition: compile(row.condition, { maxSteps: RULE_EVALUATION_MAX_STEPS }),
          actions: [],
        };
        rules.set(row.rule_id, rule);
      }
      rule.actions.push({
        id: row.action_id,
        type: row.action_type,
        maxAttempts: row.action_type === 'create_check' ? 10 : Number(row.max_attempts ?? DEFAULT_MAX_ATTEMPTS),
      });
    }
    const byEventType = new Map<string, LoadedRule[]>();
    for (const rule of rules.values())
      byEventType.set(rule.eventType, [...(byEventType.get(rule.eventType) ?? []), rule]);
    return byEventType;
  }

  /** Drops every cached tenant (tests). */
  clear(): void {
    this.tenants.clear();
  }
}
