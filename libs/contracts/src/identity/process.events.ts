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

/** The validator step types whose success a process reports as a proof. */
export const PROOF_STEP_TYPES = ['email', 'phone', 'document', 'face'] as const;
export type ProofStepType = (typeof PROOF_STEP_TYPES)[number];

/** A validator step of the process that succeeded: what the person proved in this process. */
export interface ProcessProof {
  step_type: ProofStepType;
  /** The step's validation in the validations service (it passed). */
  validation_id: string;
  /**
   * E-mail and phone steps: the address or number the one-time code was sent to, as the validations service
   * reported it (its enrollment), and that the person answered. Absent when the validations service did not
   * report it: then the step proves no identifier.
   */
  value?: string;
  proven_date: string;
}

export interface ProcessFinishedPayload {
  process: ProcessRecord;
  /** Variables collected by the process's steps (typed in: they prove nothing by themselves). */
  variables: Record<string, string>;
  /**
   * The validator steps that succeeded, in step order (e-mail and phone one-time codes, document, face).
   * Added in identity after version 1 was published: absent in older events, whose process proves nothing.
   */
  proofs?: ProcessProof[];
}
