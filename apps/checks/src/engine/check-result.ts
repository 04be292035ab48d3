import type { CheckSummary, CompanySummary, DatabaseStatusEntry, DatasetScore, VehicleSummary } from '@kyc/contracts';

/**
 * What the engine computed for a check so far (stored on the check row as `result`): exactly the
 * public result fields of a check, no value null (an unknown homonym_probability is left out), so
 * GET /v1/checks/{id} serves it as stored (check.sql.ts, RESULT_JSON_SQL).
 */
export interface CheckResult {
  scores: DatasetScore[];
  statuses: DatabaseStatusEntry[];
  summary: CheckSummary;
  vehicle_summary?: VehicleSummary;
  company_summary?: CompanySummary;
  homonym_probability?: number;
  wrong_inputs?: { input: string }[];
}
