export const PROCESS_STATUSES = ['pending', 'success', 'failure'] as const;
export type ProcessStatus = (typeof PROCESS_STATUSES)[number];

export const IDENTITY_EVENT_TYPES = {
  processCreated: 'identity.process.created',
  processFinished: 'identity.process.finished',
} as const;

/** An identity-verification process as other services (customers, pass) see it. */
export interface ProcessRecord {
  process_id: string;
  tenant_id: string;
  flow_id: string;
  account_id: string;
  /** The user whose key started the process. */
  user_id: string;
  status: ProcessStatus;
  failure_status?: string;
  declined_reason?: string;
  expired_reason?: string;
  creation_date: string;
  update_date: string;
  finished_date?: string;
}

export interface ProcessCreatedPayload {
  process: ProcessRecord;
}

export interface ProcessFinishedPayload {
  process: ProcessRecord;
  /** Variables collected by the process's form steps. */
  variables: Record<string, string>;
}
