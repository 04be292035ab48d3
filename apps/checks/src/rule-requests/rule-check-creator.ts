import type { EntityManager } from 'typeorm';

/** Who asked for the check, and where it sits in a chain of rule-created checks. */
export interface RuleCheckMeta {
  /**
   * The inbox transaction of the command: create the check (its row and its
   * `checks.check.created` outbox event) with this manager, so the check and the record that the
   * command was handled commit together (a redelivered command creates nothing).
   */
  manager: EntityManager;
  /** The command's event id (stable across redeliveries). */
  commandId: string;
  /** The user who owns the rule, or `rules-engine`: the check's creator. */
  requestedBy: string;
  ruleId: string;
  ruleVersion: number;
  actionId: string;
  /** Store as the check's `requested_by_execution` and send it back in its events. */
  executionId: string;
  /** Store as the check's `rule_depth` and send it back in its events (checks.check.created / finished). */
  depth: number;
  sourceCheckId: string;
}

/** What to create: the fields of POST /v1/checks, already mapped from the event by the rule's action. */
export interface RuleCheckInputs {
  type: string;
  country: string;
  /** Wire-named inputs (national_id, first_name, custom_input, …). */
  inputs: Record<string, string>;
  /** Carried over from the check that fired the rule. */
  user_authorized: true;
}

/**
 * Creates a check for a tenant on behalf of the rules engine (a trusted internal command over
 * Kafka: no API key, no permission check beyond the tenant's own check types), through the same
 * creation rules as POST /v1/checks. Implemented by the checks module.
 *
 * Throw `RuleCheckRejected` for inputs the creation rules refuse (unknown check type, bad input):
 * the command is then acknowledged and logged instead of retried. Any other error is retried,
 * then the command is parked.
 */
export abstract class RuleCheckCreator {
  abstract create(tenantId: string, inputs: RuleCheckInputs, meta: RuleCheckMeta): Promise<{ checkId: string }>;
}

/** The creation rules refuse the requested check; retrying cannot help. */
export class RuleCheckRejected extends Error {}
