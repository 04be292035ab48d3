import type { CheckCountry, CheckStatus } from './check.enums';

export const CHECK_EVENT_TYPES = {
  created: 'checks.check.created',
  finished: 'checks.check.finished',
} as const;

/** The check record as the rules engine and other consumers see it. */
export interface CheckRecord {
  check_id: string;
  tenant_id: string;
  country: CheckCountry;
  type: string;
  status: CheckStatus;
  score: number;
  id_score: number;
  homonym_score: number;
  custom_input?: string | null;
  inputs: Record<string, string>;
  creation_date: string;
  update_date: string;
}

export interface CheckCreatedPayload {
  check: CheckRecord;
}

export interface CheckFinishedPayload {
  check: CheckRecord;
  /** Present when the run belongs to a continuous check. */
  continuous_check_id?: string;
  score_change?: 'up' | 'down' | 'same';
  hook_api_key_version?: 0 | 1;
}
