import type {
  BuiltInCheckType,
  CheckCountry,
  CheckSummary,
  DataSet,
  DetailLanguage,
  Severity,
  VehicleSummary,
} from '@kyc/contracts';

/** How a result was validated: against an identity document / plate / tax ID, or by name only (may include homonyms). */
export type SearchRoute = 'id' | 'name';

/** Where a database's details are grouped (public CheckDetails `group`). */
export type DetailGroup = 'profile' | 'legal' | 'affiliations' | 'vehicle' | 'global' | 'media' | 'unknown';

/** One cell of a detail table: `key` is a label key translated by lang (see i18n/labels.ts); `valueKey` marks translatable values. */
export interface RecordField {
  key: string;
  value: string;
  valueKey?: boolean;
}

/** One thing a database found about the subject (a sentence, a fine, a sanction list entry, the identity itself). */
export interface FoundRecord {
  data_set: DataSet;
  found_by: SearchRoute;
  severity: Severity;
  /** Label key of the record kind, e.g. `criminal_sentence`. */
  kind: string;
  fields: RecordField[];
  found_first_name?: string;
  found_last_name?: string;
  found_company_name?: string;
  /** Opaque id of the subject the record belongs to (tells homonyms apart); never shown. */
  subject_ref?: string;
  issued_at?: string;
}

/** What an identity registry returns: the public Summary's identity fields, with its own status. */
export type IdentityFacts = Pick<
  CheckSummary,
  'gender' | 'date_of_birth' | 'death_date' | 'drivers_license' | 'rfc' | 'nss'
> & {
  status: 'found' | 'not_found' | 'dead';
  first_name?: string;
  last_name?: string;
};

/** What a vehicle registry returns: the public VehicleSummary fields, with its own status. */
export type VehicleFacts = Omit<VehicleSummary, 'vehicle_status'> & { status: 'found' | 'not_found' };

export interface CompanyFacts {
  status: 'found' | 'not_found' | 'active' | 'inactive';
  company_name?: string;
}

export interface Attachment {
  file_name: string;
  content_type: string;
  /** Base64. */
  content: string;
}

/** What a database answered. */
export interface CollectorAnswer {
  kind: 'answer';
  records: FoundRecord[];
  identity?: IdentityFacts;
  vehicle?: VehicleFacts;
  company?: CompanyFacts;
  attachments?: Attachment[];
  /** Inputs that contradict what the database holds (public `wrong_inputs`), e.g. document_expedition_date. */
  wrong_inputs?: string[];
}

/**
 * The database has not answered yet: ask again at `pollAt`, or (no pollAt) wait for its webhook
 * (`POST /v1/webhooks/{webhookType}`).
 */
export interface CollectorPending {
  kind: 'pending';
  pollAt?: Date;
}

export type CollectorOutcome = CollectorAnswer | CollectorPending;

/**
 * A failed query. `permanent` failures (bad credentials, inputs the database refuses) are never
 * retried; others are retried until max_duration when the tenant's settings have `retries`.
 */
export class CollectorError extends Error {
  constructor(
    message: string,
    readonly permanent = false,
  ) {
    super(message);
    this.name = 'CollectorError';
  }
}

export interface CollectorCredentials {
  username: string;
  password: string;
  complements?: unknown;
}

/** What a collector gets for one query. Inputs are the check's wire-named inputs (plus the effective `region` in BR). */
export interface CollectorContext {
  checkId: string;
  tenantId: string;
  country: CheckCountry;
  type: string;
  inputs: Readonly<Record<string, string>>;
  search: SearchRoute;
  /** Correlates an asynchronous answer (webhook) with this query. */
  reference: string;
  /** When this database was first asked for this check. */
  requestedAt: Date;
  /** Now, by the engine's clock (never read the wall clock in a collector). */
  now: Date;
  attempt: number;
  credentials?: CollectorCredentials;
  signal: AbortSignal;
}

/** Which inputs a database needs, by alternative: the first satisfied search runs. */
export interface SearchSpec {
  by: SearchRoute;
  inputs: string[];
  /** Only for these built-in types (any type when absent). Custom types may use every search. */
  types?: BuiltInCheckType[];
}

/**
 * One database of one country: the unit the engine runs as a durable job per check.
 * To add a real one, implement this interface (see docs/services/checks.md, "Adding a real collector") and list it
 * in the COLLECTORS provider of collectors.module.ts.
 */
export interface Collector {
  readonly databaseId: string;
  readonly databaseName: string;
  /** Country of the database; ALL for international databases (they also serve person and company checks of every country). */
  readonly country: CheckCountry;
  readonly dataSets: readonly DataSet[];
  /** Built-in check types it serves. */
  readonly checkTypes: readonly BuiltInCheckType[];
  readonly searches: readonly SearchSpec[];
  readonly needsCredentials: boolean;
  /** Normal upper bound of its answer time; a database still unanswered after it is `delayed`. */
  readonly expectedLatencyMs: number;
  /** Language its details are written in (the default of GET /details). */
  readonly language: DetailLanguage;
  readonly group: DetailGroup;
  /** Set when the database answers asynchronously through POST /v1/webhooks/{webhookType}. */
  readonly webhookType?: string;
  /** Databases that only apply to some checks (e.g. a region of Brazil); others are not listed at all. */
  appliesTo?(check: { country: CheckCountry; type: string; region: string | null }): boolean;
  /**
   * When a polled source usually has the answer ready after being asked (ms): the engine asks the
   * first time then instead of at once. Absent or 0: ask at once.
   */
  firstAskDelayMs?(check: { country: CheckCountry; type: string; region: string | null }): number;
  /**
   * How long one `collect` call usually takes to come back with the answer (ms), for this check.
   * A synchronous database (no webhookType, no credentials, no first-ask delay) whose answer time
   * is at most CHECKS_INLINE_COLLECT_MAX_MS is asked the first time inline by the check's start
   * job instead of in a job of its own. Absent: always asked in its own job.
   */
  answerLatencyMs?(check: { country: CheckCountry; type: string; region: string | null }): number;
  collect(ctx: CollectorContext): Promise<CollectorOutcome>;
}

/** A parsed webhook call: which query it answers and how. */
export interface WebhookAnswer {
  reference: string;
  outcome: CollectorAnswer | { kind: 'failure'; message: string };
}

/** Parses the body of POST /v1/webhooks/{type} for a webhook type (signature already verified). */
export interface WebhookParser {
  readonly webhookType: string;
  parse(body: unknown): WebhookAnswer;
}

export const COLLECTORS = Symbol('collectors');
export const WEBHOOK_PARSERS = Symbol('webhook-parsers');

/** Picks the search a database can run with these inputs, or lists the inputs it misses. */
export function chooseSearch(
  collector: Collector,
  type: string,
  inputs: Readonly<Record<string, string | undefined>>,
): { search: SearchSpec } | { invalidInputs: string[] } {
  const builtIn = (['person', 'vehicle', 'company'] as string[]).includes(type);
  const candidates = collector.searches.filter(
    (s) => !builtIn || !s.types || s.types.includes(type as BuiltInCheckType),
  );
  for (const s of candidates)
    if (s.inputs.every((i) => inputs[i] !== undefined && inputs[i] !== '')) return { search: s };
  const first = candidates[0] ?? collector.searches[0];
  return { invalidInputs: first ? first.inputs.filter((i) => !inputs[i]) : [] };
}
