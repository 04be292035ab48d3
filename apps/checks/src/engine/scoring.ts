import type {
  CheckSummary,
  CompanySummary,
  DatabaseStatus,
  DatabaseStatusEntry,
  DataSet,
  DatasetScore,
  NameFound,
  NamesMatchingType,
  ScoreDetail,
  ScoreResult,
  Severity,
  VehicleSummary,
} from '@kyc/contracts';

import type { CollectorAnswer, FoundRecord, SearchRoute } from '../collectors/collector';
import { fullName, namesMatch, normalizeName } from '../shared/names';

/** Score of a severity: 1 is low risk, 0 high risk. unknown (no information) does not lower a score. */
export const SEVERITY_SCORES: Record<Severity, number> = {
  unknown: 1,
  none: 1,
  very_low: 0.9,
  low: 0.75,
  medium: 0.5,
  high: 0.25,
  very_high: 0,
};

const SEVERITY_RANK: Record<Severity, number> = {
  unknown: 0,
  none: 1,
  very_low: 2,
  low: 3,
  medium: 4,
  high: 5,
  very_high: 6,
};

export const maxSeverity = (list: Severity[]): Severity =>
  list.reduce<Severity>((a, b) => (SEVERITY_RANK[b] > SEVERITY_RANK[a] ? b : a), 'unknown');

/** Name-only records of these datasets count only when the name matches per the tenant's names_matching_type. */
export const NAME_MATCHED_DATASETS: readonly DataSet[] = [
  'criminal_record',
  'legal_background',
  'international_background',
];

/** Which route result wins when neither route found anything. */
const RESULT_RANK: Record<ScoreResult, number> = {
  found: 6,
  pending: 5,
  delayed: 4,
  not_found: 3,
  error: 2,
  ignored: 1,
};

export const FINAL_DATABASE_STATUSES: readonly DatabaseStatus[] = ['completed', 'error', 'expired', 'skipped'];

/** One database of a check as scoring sees it. */
export interface ScoredDatabase {
  databaseId: string;
  databaseName: string;
  dataSets: readonly DataSet[];
  status: DatabaseStatus;
  searchBy: SearchRoute | null;
  answer: CollectorAnswer | null;
  invalidInputs?: string[] | null;
  message?: string | null;
}

export interface ScoringInput {
  weights: Partial<Record<DataSet, number>>;
  databases: readonly ScoredDatabase[];
  namesMatching: NamesMatchingType;
  /** The person's full name or the company name searched (null when no name was given). */
  searchedName: string | null;
}

export interface ScoringResult {
  score: number;
  id_score: number;
  homonym_score: number;
  homonym_probability: number | null;
  scores: DatasetScore[];
}

const round = (n: number) => Math.round((n + Number.EPSILON) * 10_000) / 10_000;

export const recordName = (r: FoundRecord) => r.found_company_name ?? fullName(r.found_first_name, r.found_last_name);

/** Whether a record counts: by-ID records always; name-only ones of NAME_MATCHED_DATASETS when the name matches. */
export function recordCounts(record: FoundRecord, searchedName: string | null, mode: NamesMatchingType): boolean {
  if (record.found_by === 'id' || !NAME_MATCHED_DATASETS.includes(record.data_set)) return true;
  return !!searchedName && namesMatch(searchedName, recordName(record), mode);
}

/** Result, severity and score of one dataset through one route (by ID or by name). */
export function routeDetail(
  dataSet: DataSet,
  route: SearchRoute,
  input: ScoringInput,
): ScoreDetail & { records: FoundRecord[] } {
  const feeding = input.databases.filter((d) => d.dataSets.includes(dataSet) && d.status !== 'skipped');
  const capable = feeding.filter((d) => d.searchBy === route);
  const records = feeding
    .filter((d) => d.status === 'completed' && d.answer)
    .flatMap((d) => d.answer!.records)
    .filter(
      (r) => r.data_set === dataSet && r.found_by === route && recordCounts(r, input.searchedName, input.namesMatching),
    );
  let result: ScoreResult;
  if (records.length) result = 'found';
  else if (!capable.length) result = 'ignored';
  else if (capable.some((d) => d.status === 'not_started')) result = 'pending';
  else if (capable.some((d) => d.status === 'delayed')) result = 'delayed';
  else if (capable.some((d) => d.status === 'completed')) result = 'not_found';
  else result = 'error';
  const severity: Severity =
    result === 'found' ? maxSeverity(records.map((r) => r.severity)) : result === 'not_found' ? 'none' : 'unknown';
  return { result, severity, score: SEVERITY_SCORES[severity], records };
}

/** Score of one dataset: found by either route is found; its severity the worse, its score the lower. */
export function datasetScore(dataSet: DataSet, input: ScoringInput): DatasetScore {
  const { records: _i, ...byId } = routeDetail(dataSet, 'id', input);
  const { records: _n, ...byName } = routeDetail(dataSet, 'name', input);
  const result = RESULT_RANK[byId.result] >= RESULT_RANK[byName.result] ? byId.result : byName.result;
  return {
    data_set: dataSet,
    result,
    severity: maxSeverity([byId.severity, byName.severity]),
    score: Math.min(byId.score, byName.score),
    by_id: byId,
    by_name: byName,
  };
}

const answered = (d: ScoreDetail) => d.result === 'found' || d.result === 'not_found';

/**
 * Weighted average over the datasets that answered (found / not_found): a dataset still pending,
 * failed or not consulted neither lowers nor raises the score. With only zero weights answered,
 * the plain average. Undefined when nothing answered.
 */
export function weightedAverage(items: { weight: number; detail: ScoreDetail }[]): number | undefined {
  const done = items.filter((i) => answered(i.detail));
  if (!done.length) return undefined;
  const total = done.reduce((s, i) => s + i.weight, 0);
  if (total <= 0) return done.reduce((s, i) => s + i.detail.score, 0) / done.length;
  return done.reduce((s, i) => s + i.weight * i.detail.score, 0) / total;
}

/**
 * The check's scores: `score` (global) over the datasets' scores, `id_score` over results validated
 * with a document, `homonym_score` over name-only results (may include homonyms). All -1 until a
 * database has answered; a score with no answered dataset is 1 (nothing adverse found that way).
 */
export function scoreCheck(input: ScoringInput): ScoringResult {
  const scores = (Object.keys(input.weights) as DataSet[]).map((d) => datasetScore(d, input));
  const anyAnswer = input.databases.some((d) => d.status === 'completed');
  const weighted = (pick: (s: DatasetScore) => ScoreDetail) => {
    if (!anyAnswer) return -1;
    return round(
      weightedAverage(scores.map((s) => ({ weight: input.weights[s.data_set] ?? 0, detail: pick(s) }))) ?? 1,
    );
  };
  return {
    score: weighted((s) => s),
    id_score: weighted((s) => s.by_id),
    homonym_score: weighted((s) => s.by_name),
    homonym_probability: homonymProbability(input),
    scores,
  };
}

/**
 * [Experimental] Share of the people found by name that are not the one identified by document:
 * 0 when every name-only record belongs to the checked person, 1 when none does. null without a
 * name search.
 */
export function homonymProbability(input: ScoringInput): number | null {
  const completed = input.databases.filter((d) => d.status === 'completed' && d.answer);
  if (!completed.some((d) => d.searchBy === 'name')) return null;
  const own = new Set(
    completed.flatMap((d) =>
      d.answer!.records.filter((r) => r.found_by === 'id' && r.subject_ref).map((r) => r.subject_ref!),
    ),
  );
  const named = new Set(
    completed
      .flatMap((d) => d.answer!.records)
      .filter((r) => r.found_by === 'name' && r.subject_ref && recordCounts(r, input.searchedName, input.namesMatching))
      .map((r) => r.subject_ref!),
  );
  if (!named.size) return 0;
  return round([...named].filter((s) => !own.has(s)).length / named.size);
}

/** The statuses list: one entry per database and dataset it feeds (skipped ones name the inputs they lack). */
export function databaseStatuses(databases: readonly ScoredDatabase[]): DatabaseStatusEntry[] {
  return databases.flatMap((d) =>
    d.dataSets.map((dataSet) => ({
      database_id: d.databaseId,
      database_name: d.databaseName,
      data_set: dataSet,
      status: d.status,
      ...(d.invalidInputs?.length ? { invalid_inputs: d.invalidInputs } : {}),
      ...(d.message ? { message: d.message } : {}),
    })),
  );
}

export interface Summaries {
  summary: CheckSummary;
  vehicle_summary?: VehicleSummary;
  company_summary?: CompanySummary;
  wrong_inputs?: { input: string }[];
}

function countNames(names: { first: string; last: string }[]): NameFound[] {
  const counted = new Map<string, NameFound>();
  for (const n of names) {
    if (!n.first && !n.last) continue;
    const key = normalizeName(fullName(n.first, n.last));
    const entry = counted.get(key);
    if (entry) entry.count++;
    else counted.set(key, { first_name: n.first, last_name: n.last, count: 1 });
  }
  return [...counted.values()].sort((a, b) => b.count - a.count);
}

/** Summary (names found, identity status, gender, …), vehicle and company summaries, wrong inputs. */
export function summarize(type: string, input: ScoringInput): Summaries {
  const answers = input.databases.filter((d) => d.status === 'completed' && d.answer).map((d) => d.answer!);
  const counted = answers
    .flatMap((a) => a.records)
    .filter((r) => recordCounts(r, input.searchedName, input.namesMatching));
  const identity =
    answers.map((a) => a.identity).find((i) => i && i.status !== 'not_found') ??
    answers.map((a) => a.identity).find(Boolean);
  const personNames = [
    ...answers.flatMap((a) =>
      a.identity?.first_name || a.identity?.last_name
        ? [{ first: a.identity.first_name ?? '', last: a.identity.last_name ?? '' }]
        : [],
    ),
    ...counted
      .filter((r) => r.found_first_name !== undefined)
      .map((r) => ({ first: r.found_first_name ?? '', last: r.found_last_name ?? '' })),
  ];
  // The published Summary types these dates as RFC 3339 date-times: a bare date is its midnight UTC.
  const rfc3339 = (date: string) => (/^\d{4}-\d{2}-\d{2}$/.test(date) ? `${date}T00:00:00Z` : date);
  const summary: CheckSummary = {
    names_found: countNames(personNames),
    ...(identity ? { identity_status: identity.status } : {}),
    ...(identity?.gender ? { gender: identity.gender } : {}),
    ...(identity?.date_of_birth ? { date_of_birth: rfc3339(identity.date_of_birth) } : {}),
    ...(identity?.death_date ? { death_date: rfc3339(identity.death_date) } : {}),
    ...(identity?.drivers_license ? { drivers_license: identity.drivers_license } : {}),
    ...(identity?.rfc ? { rfc: identity.rfc } : {}),
    ...(identity?.nss ? { nss: identity.nss } : {}),
  };
  const out: Summaries = { summary };
  const vehicle = answers.map((a) => a.vehicle).find(Boolean);
  if (vehicle || type === 'vehicle') {
    const { status, ...facts } = vehicle ?? { status: 'not_found' as const };
    out.vehicle_summary = { vehicle_status: status, ...facts };
  }
  const company = answers.map((a) => a.company).find(Boolean);
  if (company || type === 'company') {
    out.company_summary = {
      company_status: company?.status ?? 'not_found',
      names_found: countNames([
        ...(company?.company_name ? [{ first: company.company_name, last: '' }] : []),
        ...counted.filter((r) => r.found_company_name).map((r) => ({ first: r.found_company_name!, last: '' })),
      ]),
    };
  }
  const wrong = [...new Set(answers.flatMap((a) => a.wrong_inputs ?? []))];
  if (wrong.length) out.wrong_inputs = wrong.map((input) => ({ input }));
  return out;
}
