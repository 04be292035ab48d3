import type { CheckCountry, CheckStatus, DatabaseStatus, DataSet, ScoreResult, Severity } from './check.enums';

export const CHECK_EVENT_TYPES = {
  created: 'checks.check.created',
  finished: 'checks.check.finished',
  ruleCheckCreated: 'checks.rule-check.created',
} as const;

export interface ScoreDetail {
  result: ScoreResult;
  score: number;
  severity: Severity;
}

/** Score of one dataset (public `Score` schema). */
export interface DatasetScore extends ScoreDetail {
  data_set: DataSet;
  by_id: ScoreDetail;
  by_name: ScoreDetail;
}

/** Status of one database of a check (public `Status` schema; `message` explains an error). */
export interface DatabaseStatusEntry {
  database_id: string;
  database_name: string;
  data_set?: DataSet;
  invalid_inputs?: string[];
  status: DatabaseStatus;
  message?: string;
}

export interface NameFound {
  first_name: string;
  last_name: string;
  count: number;
}

/** Public `Summary` schema. */
export interface CheckSummary {
  names_found: NameFound[];
  identity_status?: 'found' | 'not_found' | 'dead';
  gender?: 'male' | 'female';
  date_of_birth?: string;
  death_date?: string;
  drivers_license?: string;
  rfc?: string;
  nss?: string;
}

export interface VehicleSummary {
  vehicle_status?: 'found' | 'not_found';
  license_plate?: string;
  vehicle_id?: string;
  manufacturer?: string;
  model?: string;
  year?: number;
  color?: string;
  vehicle_type?: string;
  service_type?: string;
  vehicle_category?: string;
  number_of_doors?: number;
  capacity?: number;
  obligatory_insurance_status?: string;
  obligatory_insurance_expiration_date?: string;
}

export interface CompanySummary {
  company_status?: 'found' | 'not_found' | 'active' | 'inactive';
  names_found?: NameFound[];
}

/** The check record as the rules engine and other consumers see it. */
export interface CheckRecord {
  check_id: string;
  tenant_id: string;
  country: CheckCountry;
  type: string;
  status: CheckStatus;
  /** Global score 0..1 (0 high risk, 1 low risk); -1 while there is no result. */
  score: number;
  id_score: number;
  homonym_score: number;
  custom_input?: string | null;
  inputs: Record<string, string>;
  creation_date: string;
  update_date: string;
  /** Added by the check engine (optional so older producers still type-check). */
  report_id?: string | null;
  previous_check?: string | null;
  homonym_probability?: number | null;
  scores?: DatasetScore[];
  statuses?: DatabaseStatusEntry[];
  summary?: CheckSummary;
  vehicle_summary?: VehicleSummary;
  company_summary?: CompanySummary;
  wrong_inputs?: { input: string }[];
  /**
   * Rules engine: how many rule-created checks precede this one in its chain. 0 (or absent) for
   * a check a client created; n+1 for a check a create_check action created from a check of depth
   * n (the `depth` of account.check.requested). The rules engine stops a chain at its depth limit.
   */
  rule_depth?: number;
  /** Rules engine: the execution whose create_check action created this check (absent otherwise). */
  requested_by_execution?: string | null;
}

export interface CheckCreatedPayload {
  check: CheckRecord;
}

/**
 * `checks.rule-check.created`: the reply to a create_check command (account.check.requested), in
 * the transaction that created the check. The rules engine links the check to its execution from
 * it, without reading every `checks.check.created`.
 */
export interface RuleCheckCreatedPayload {
  /** The execution of the create_check action that asked for the check. */
  execution_id: string;
  check_id: string;
  /** The command's event id. */
  command_id: string;
}

export interface CheckFinishedPayload {
  check: CheckRecord;
  /** Present when the run belongs to a continuous check. */
  continuous_check_id?: string;
  score_change?: 'up' | 'down' | 'same';
  hook_api_key_version?: 0 | 1;
  /** Hook version 1 only: the run of the continuous check (see ContinuousCheckFinishedV1). */
  continuous_check?: ContinuousCheckRunInfo;
}

/** One score that moved between two runs of a continuous check (global, id, name or a dataset's). */
export interface ContinuousScoreChange {
  /** `score`, `id_score`, `homonym_score`, or a dataset name (criminal_record, ...). */
  name: string;
  old_score: number;
  new_score: number;
}

/** The run of a continuous check, as the version-1 hook payload carries it. */
export interface ContinuousCheckRunInfo {
  continuous_check_id: string;
  run_id: string;
  /** 1 for the first scheduled run after the original check, 2 for the next, ... */
  counter: number;
  frequency: string;
  check_id: string;
  previous_check_id: string;
  previous_score: number;
  score: number;
  score_change: 'up' | 'down' | 'same';
  /** Every score (global, id, name, per dataset) that differs from the previous run. */
  changes: ContinuousScoreChange[];
}

/**
 * `checks.check.finished` of a continuous-check run whose hook API key version is 0 (the default):
 * the check plus three flat fields. Consumers written for one-off checks keep working.
 */
export interface ContinuousCheckFinishedV0 extends CheckFinishedPayload {
  continuous_check_id: string;
  score_change: 'up' | 'down' | 'same';
  hook_api_key_version: 0;
  continuous_check?: never;
}

/**
 * `checks.check.finished` of a continuous-check run whose hook API key version is 1: the version-0
 * fields plus `continuous_check`, the run with the previous score and every score that changed.
 */
export interface ContinuousCheckFinishedV1 extends CheckFinishedPayload {
  continuous_check_id: string;
  score_change: 'up' | 'down' | 'same';
  hook_api_key_version: 1;
  continuous_check: ContinuousCheckRunInfo;
}
