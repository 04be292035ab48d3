import { CompiledRule, truthy } from '@kyc/json-logic';

import type { ActionType } from '../actions/action-config';

/** An enabled action of a loaded rule. */
export interface LoadedAction {
  id: string;
  type: ActionType;
  maxAttempts: number;
}

/** A rule as the engine evaluates it: the condition compiled once, with its enabled actions. */
export interface LoadedRule {
  id: string;
  version: number;
  eventType: string;
  condition: CompiledRule;
  actions: LoadedAction[];
}

export interface MatchOutcome {
  matched: LoadedRule[];
  /** Rules whose condition threw on this event (e.g. a `*` with no arguments reached at run time). */
  failed: { rule: LoadedRule; error: string }[];
}

/** Evaluates every rule's compiled condition against the event's variables (JSON-Logic truthiness). */
export function matchRules(rules: readonly LoadedRule[], variables: Readonly<Record<string, unknown>>): MatchOutcome {
  const matched: LoadedRule[] = [];
  const failed: MatchOutcome['failed'] = [];
  for (const rule of rules) {
    try {
      if (truthy(rule.condition(variables))) matched.push(rule);
    } catch (err) {
      failed.push({ rule, error: String((err as Error)?.message ?? err) });
    }
  }
  return { matched, failed };
}
