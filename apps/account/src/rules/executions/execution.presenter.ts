import { ExecutionEntity } from './execution.entity';

export function presentExecution(e: ExecutionEntity) {
  return {
    execution_id: e.id,
    rule_id: e.ruleId,
    rule_version: e.ruleVersion,
    action_id: e.actionId,
    action_type: e.actionType,
    event_id: e.eventId,
    check_id: e.checkId,
    depth: e.depth,
    outcome: e.outcome,
    attempts: e.attempts,
    response_status: e.responseStatus,
    error: e.error,
    ...(e.actionType === 'create_check' ? { created_check_id: e.createdCheckId } : {}),
    creation_date: e.createdAt.toISOString(),
    started_at: e.startedAt?.toISOString() ?? null,
    finished_at: e.finishedAt?.toISOString() ?? null,
    update_date: e.updatedAt.toISOString(),
  };
}
