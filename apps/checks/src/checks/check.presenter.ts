import type { DetailLanguage, NamesMatchingType, Severity } from '@kyc/contracts';

import type { Collector, FoundRecord } from '../collectors/collector';
import { CheckEntity } from '../engine/check.entity';
import type { CheckDatabaseEntity } from '../engine/check-database.entity';
import { publicResults } from '../engine/check-record';
import { maxSeverity, recordCounts, SEVERITY_SCORES } from '../engine/scoring';
import { label, valueLabel } from './detail-labels';

/**
 * The check columns the public Check fields come from, besides the result: GET /v1/checks/{id}
 * reads only these (presentCheckJson), so checkHead and checkTail take nothing else.
 */
export const PRESENTED_PROPERTIES = [
  'id',
  'country',
  'type',
  'status',
  'createdAt',
  'updatedAt',
  'score',
  'idScore',
  'homonymScore',
  'customInput',
  'reportId',
  'previousCheck',
  'userAuthorized',
  'inputs',
  'region',
] as const satisfies readonly (keyof CheckEntity)[];
export type PresentedCheck = Pick<CheckEntity, (typeof PRESENTED_PROPERTIES)[number]>;

/**
 * A score as the published Check schema allows it (a number from 0 to 1): the engine's -1 of a
 * check without a score yet (not finished, or failed) is presented as 0; `status` tells which.
 */
const publicScore = (score: number) => (score < 0 ? 0 : score);

/** The public Check fields before the results (see presentCheck). */
const checkHead = (check: PresentedCheck) => ({
  check_id: check.id,
  country: check.country,
  type: check.type,
  status: check.status,
  creation_date: check.createdAt.toISOString(),
  update_date: check.updatedAt.toISOString(),
  score: publicScore(check.score),
  id_score: publicScore(check.idScore),
  homonym_score: publicScore(check.homonymScore),
});

/** Date inputs echoed as the published Check types them: RFC 3339 date-times (a bare date is its midnight UTC). */
const DATE_INPUTS = ['date_of_birth', 'issue_date'] as const;
const echoedInputs = (inputs: PresentedCheck['inputs']) => {
  const out: Record<string, unknown> = { ...inputs };
  for (const key of DATE_INPUTS) {
    const value = out[key];
    if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value)) out[key] = `${value}T00:00:00Z`;
  }
  return out;
};

/** The public Check fields after the results (see presentCheck). */
const checkTail = (check: PresentedCheck) => ({
  ...(check.customInput ? { custom_input: check.customInput } : {}),
  ...(check.reportId ? { report_id: check.reportId } : {}),
  ...(check.previousCheck ? { previous_check: check.previousCheck } : {}),
  user_authorized: check.userAuthorized,
  ...echoedInputs(check.inputs),
  ...(check.region ? { region: check.region } : {}),
});

/** The check as the API returns it (public Check schema; the inputs under their wire names). */
export function presentCheck(check: PresentedCheck & Pick<CheckEntity, 'result'>) {
  return { ...checkHead(check), ...publicResults(check), ...checkTail(check) };
}

/**
 * presentCheck as JSON text, for a check read without its result column and given its result's
 * public fields as JSON text straight from the database (RESULT_JSON_SQL, CheckStore.presented): the largest part of a
 * check is then neither parsed nor serialized again by the service (GET /v1/checks/{id}).
 */
export function presentCheckJson(check: PresentedCheck, resultJson: string | null): string {
  if (resultJson === null) return JSON.stringify(presentCheck({ ...check, result: null }));
  return `${JSON.stringify(checkHead(check)).slice(0, -1)},${resultJson.slice(1, -1)},${JSON.stringify(checkTail(check)).slice(1)}`;
}

/** GET /v1/checks/{id}/summarize: the summaries of a check. */
export function presentSummary(check: CheckEntity) {
  const { summary, vehicle_summary, company_summary, homonym_probability } = publicResults(check) as ReturnType<
    typeof publicResults
  > &
    Record<string, unknown>;
  return {
    check_id: check.id,
    status: check.status,
    summary,
    vehicle_summary,
    company_summary,
    homonym_probability,
    self: `/v1/checks/${check.id}/summarize`,
  };
}

export interface DetailContext {
  lang?: DetailLanguage;
  namesMatching: NamesMatchingType;
  searchedName: string | null;
  collector?: Collector;
  type: string;
}

const detailResult = (row: CheckDatabaseEntity, records: FoundRecord[]) => {
  switch (row.status) {
    case 'completed':
      return records.length ? 'found' : 'not_found';
    case 'not_started':
    case 'delayed':
      return 'pending';
    case 'skipped': // the published CheckDetails result has no `ignored`: `status` says skipped
      return 'error';
    default:
      return 'error';
  }
};

/**
 * One detail of a check (public CheckDetails): what one database answered, as tables whose titles
 * and labels are in `lang` (default: the database's own language).
 */
export function presentDetail(row: CheckDatabaseEntity, ctx: DetailContext) {
  const lang = ctx.lang ?? ctx.collector?.language ?? 'es';
  const records = (row.answer?.records ?? []).filter((r) => recordCounts(r, ctx.searchedName, ctx.namesMatching));
  const severity: Severity =
    row.status === 'completed' ? (records.length ? maxSeverity(records.map((r) => r.severity)) : 'none') : 'unknown';
  const first = records[0];
  const base = (['person', 'vehicle', 'company'] as string[]).includes(ctx.type) ? ctx.type : 'person';
  return {
    id: row.id,
    check_id: row.checkId,
    database_id: row.databaseId,
    database_name: row.databaseName,
    data_set: row.dataSets[0],
    data_sets: row.dataSets,
    group: ctx.collector?.group ?? 'unknown',
    route: row.searchBy === 'name' ? `${base}-name` : base,
    status: row.status,
    result: detailResult(row, records),
    severity,
    score: SEVERITY_SCORES[severity],
    ...(row.invalidInputs?.length ? { invalid_inputs: row.invalidInputs } : {}),
    ...(row.message ? { message: row.message } : {}),
    found_first_name: first?.found_first_name ?? '',
    found_last_name: first?.found_last_name ?? '',
    found_company_name: first?.found_company_name ?? '',
    tables: records.map((r) => ({
      title: `${label(r.kind, lang)}`,
      data_set: r.data_set,
      found_by: r.found_by,
      severity: r.severity,
      rows: [
        {
          cells: r.fields.map((f) => ({
            label: label(f.key, lang),
            value: f.valueKey ? valueLabel(f.value, lang) : f.value,
          })),
        },
      ],
    })),
    attachments: (row.answer?.attachments ?? []).length,
    update_date: row.updatedAt.toISOString(),
  };
}

/** Attachments the databases of a check issued (certificates), content in base64. */
export function presentAttachments(rows: CheckDatabaseEntity[]) {
  return rows.flatMap((row) =>
    (row.answer?.attachments ?? []).map((a, i) => ({
      attachment_id: `${row.id}-${i + 1}`,
      database_id: row.databaseId,
      database_name: row.databaseName,
      file_name: a.file_name,
      content_type: a.content_type,
      size: Buffer.from(a.content, 'base64').length,
      content: a.content,
      creation_date: (row.answeredAt ?? row.updatedAt).toISOString(),
    })),
  );
}
