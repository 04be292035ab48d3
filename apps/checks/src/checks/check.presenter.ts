import type { CheckRecord } from '@kyc/contracts';
import { CheckEntity } from './check.entity';

/** The check as the API returns it (shape of the public Check schema). */
export function presentCheck(check: CheckEntity) {
  return {
    check_id: check.id,
    country: check.country,
    type: check.type,
    status: check.status,
    creation_date: check.createdAt.toISOString(),
    update_date: check.updatedAt.toISOString(),
    score: check.score,
    id_score: check.idScore,
    homonym_score: check.homonymScore,
    ...(check.customInput ? { custom_input: check.customInput } : {}),
    ...(check.reportId ? { report_id: check.reportId } : {}),
    user_authorized: check.userAuthorized,
    ...check.inputs,
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
  };
}
