import { CHECK_EVENT_TYPES, CheckCreatedPayload, type CheckRecord, TOPICS } from '@kyc/contracts';
import type { OutgoingEvent, TraceCarrier } from '@kyc/platform';

import type { CheckEntity } from './check.entity';

/** Results of the check (scores, statuses, summaries) with the public names. */
export function publicResults(check: Pick<CheckEntity, 'result'>) {
  const r = check.result;
  return {
    ...(r?.homonym_probability !== undefined && r?.homonym_probability !== null
      ? { homonym_probability: r.homonym_probability }
      : {}),
    scores: r?.scores ?? [],
    statuses: r?.statuses ?? [],
    summary: r?.summary ?? { names_found: [] },
    ...(r?.vehicle_summary ? { vehicle_summary: r.vehicle_summary } : {}),
    ...(r?.company_summary ? { company_summary: r.company_summary } : {}),
    ...(r?.wrong_inputs ? { wrong_inputs: r.wrong_inputs } : {}),
  };
}

/** The check as events carry it (what the rules engine evaluates). */
export function checkRecord(check: CheckEntity): CheckRecord {
  return {
    check_id: check.id,
    tenant_id: check.tenantId,
    country: check.country,
    type: check.type,
    status: check.status,
    score: check.score,
    id_score: check.idScore,
    homonym_score: check.homonymScore,
    custom_input: check.customInput,
    inputs: check.inputs,
    creation_date: check.createdAt.toISOString(),
    update_date: check.updatedAt.toISOString(),
    report_id: check.reportId,
    previous_check: check.previousCheck,
    ...publicResults(check),
    homonym_probability: check.result?.homonym_probability ?? null,
    rule_depth: check.ruleDepth ?? 0,
    ...(check.requestedByExecution ? { requested_by_execution: check.requestedByExecution } : {}),
  };
}

/** The `checks.check.created` event of a new check (continuing `trace` when given, see NewCheck). */
export const createdEvent = (check: CheckEntity, trace?: TraceCarrier | null): OutgoingEvent<CheckCreatedPayload> => ({
  topic: TOPICS.checkCreated,
  type: CHECK_EVENT_TYPES.created,
  tenantId: check.tenantId,
  aggregateId: check.id,
  payload: { check: checkRecord(check) },
  traceContext: trace,
});
