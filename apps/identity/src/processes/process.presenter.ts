import { ProcessEntity } from './process.entity';
import { awaitsCode } from './step-inputs';

const optional = <T>(key: string, value: T | null | undefined) =>
  value === null || value === undefined ? {} : { [key]: value };

/** The process with the progress of each step. */
export const presentProcess = (p: ProcessEntity) => ({
  process_id: p.id,
  flow_id: p.flowId,
  account_id: p.accountId,
  status: p.overrideStatus ?? p.status,
  ...optional('override_status', p.overrideStatus),
  ...(p.overrideStatusHistory.length ? { override_status_history: p.overrideStatusHistory } : {}),
  ...optional('failure_status', p.failureStatus),
  ...optional('declined_reason', p.declinedReason),
  ...optional('expired_reason', p.expiredReason),
  current_step: p.currentStep,
  steps: p.steps.map((s) => ({
    step_id: s.step_id,
    type: s.type,
    verification_id: s.verification_id,
    status: s.status,
    expected_inputs: awaitsCode(s) ? ['code'] : s.expected_inputs,
    ...optional('validation_id', s.validation_id),
    ...optional('instructions', s.instructions),
    ...optional('uploaded', s.uploaded),
    ...optional('code_status', s.code_status),
    ...optional('attempts_left', s.attempts_left),
    ...optional('declined_reason', s.declined_reason),
    ...optional('expired_reason', s.expired_reason),
    ...optional('retry_of_id', s.retry_of_id),
    ...optional('retry_reason', s.retry_reason),
    ...optional('retries_left', s.retries_left),
    ...(s.dynamic ? { dynamic: true } : {}),
    ...optional('completed_date', s.completed_date),
  })),
  ...optional('phone_number', p.phoneNumber),
  ...optional('device_info', p.deviceInfo),
  timeout_attempts: p.timeoutAttempts,
  expiration_date: p.deadline.toISOString(),
  creation_date: p.createdAt.toISOString(),
  update_date: p.updatedAt.toISOString(),
  ...optional('finished_date', p.finishedAt?.toISOString()),
});

/** GET /result: status and details (the process result of the public API). */
export const presentResult = (p: ProcessEntity) => ({
  process_id: p.id,
  account_id: p.accountId,
  flow_id: p.flowId,
  status: p.overrideStatus ?? p.status,
  ...optional('override_status', p.overrideStatus),
  ...optional('failure_status', p.failureStatus),
  ...optional('declined_reason', p.declinedReason),
  ...optional('expired_reason', p.expiredReason),
  creation_date: p.createdAt.toISOString(),
  details: {
    validations: p.steps
      .filter((s) => s.type !== 'form')
      .map((s) => ({
        step_id: s.step_id,
        type: s.type,
        validation_status: s.status,
        ...optional('validation_id', s.validation_id),
      })),
    variables: p.variables,
  },
});
