import type { CheckSummary, CompanySummary, DatabaseStatusEntry, DatasetScore, VehicleSummary } from '@kyc/contracts';

/** What the engine computed for a check so far (stored on the check row as `result`). */
export interface CheckResult {
  scores: DatasetScore[];
  statuses: DatabaseStatusEntry[];
  summary: CheckSummary;
  vehicle_summary?: VehicleSummary;
  company_summary?: CompanySummary;
  homonym_probability?: number | null;
  wrong_inputs?: { input: string }[];
}
