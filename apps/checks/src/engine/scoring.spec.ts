import type { DataSet, Severity } from '@kyc/contracts';

import type { FoundRecord } from '../collectors/collector';
import {
  datasetScore,
  homonymProbability,
  routeDetail,
  scoreCheck,
  ScoredDatabase,
  ScoringInput,
  SEVERITY_SCORES,
  summarize,
  weightedAverage,
} from './scoring';

const rec = (
  data_set: DataSet,
  found_by: 'id' | 'name',
  severity: Severity,
  extra: Partial<FoundRecord> = {},
): FoundRecord => ({ data_set, found_by, severity, kind: 'x', fields: [], ...extra });

const db = (
  id: string,
  dataSets: DataSet[],
  searchBy: 'id' | 'name',
  records: FoundRecord[] | null,
  status: ScoredDatabase['status'] = 'completed',
): ScoredDatabase => ({
  databaseId: id,
  databaseName: id,
  dataSets,
  status,
  searchBy,
  answer: records ? { kind: 'answer', records } : null,
});

const input = (
  databases: ScoredDatabase[],
  weights: Partial<Record<DataSet, number>>,
  over: Partial<ScoringInput> = {},
): ScoringInput => ({
  weights,
  databases,
  namesMatching: 'soft',
  searchedName: 'Juan Carlos Pérez Gómez',
  ...over,
});

describe('scoring', () => {
  it('maps severities to scores from 1 (none) down to 0 (very_high); unknown does not lower a score', () => {
    expect(SEVERITY_SCORES).toEqual({
      unknown: 1,
      none: 1,
      very_low: 0.9,
      low: 0.75,
      medium: 0.5,
      high: 0.25,
      very_high: 0,
    });
  });

  describe('a dataset through one route', () => {
    it('is found with the worst severity of what was found', () => {
      const d = routeDetail(
        'criminal_record',
        'id',
        input(
          [
            db('a', ['criminal_record'], 'id', [
              rec('criminal_record', 'id', 'low'),
              rec('criminal_record', 'id', 'high'),
            ]),
          ],
          {},
        ),
      );
      expect(d).toMatchObject({ result: 'found', severity: 'high', score: 0.25 });
    });

    it('is not_found (severity none, score 1) when a database answered with nothing', () => {
      expect(routeDetail('criminal_record', 'id', input([db('a', ['criminal_record'], 'id', [])], {}))).toMatchObject({
        result: 'not_found',
        severity: 'none',
        score: 1,
      });
    });

    it('is ignored when no database searched that way, pending / delayed while one is waiting, error when all failed', () => {
      expect(routeDetail('criminal_record', 'name', input([db('a', ['criminal_record'], 'id', [])], {}))).toMatchObject(
        { result: 'ignored', severity: 'unknown', score: 1 },
      );
      expect(
        routeDetail('criminal_record', 'id', input([db('a', ['criminal_record'], 'id', null, 'not_started')], {})),
      ).toMatchObject({ result: 'pending', severity: 'unknown' });
      expect(
        routeDetail('criminal_record', 'id', input([db('a', ['criminal_record'], 'id', null, 'delayed')], {})),
      ).toMatchObject({ result: 'delayed' });
      expect(
        routeDetail(
          'criminal_record',
          'id',
          input(
            [db('a', ['criminal_record'], 'id', null, 'error'), db('b', ['criminal_record'], 'id', null, 'expired')],
            {},
          ),
        ),
      ).toMatchObject({ result: 'error', severity: 'unknown', score: 1 });
      expect(
        routeDetail('criminal_record', 'id', input([db('a', ['criminal_record'], 'id', null, 'skipped')], {})),
      ).toMatchObject({ result: 'ignored' });
    });
  });

  describe('names_matching_type', () => {
    const homonymRecord = rec('criminal_record', 'name', 'very_high', {
      found_first_name: 'PEREZ GOMEZ JUAN CARLOS',
      found_last_name: '',
    });
    const databases = [
      db('court', ['criminal_record', 'alert_in_media'], 'name', [
        homonymRecord,
        rec('alert_in_media', 'name', 'low', { found_first_name: 'Juan', found_last_name: 'Pérez' }),
      ]),
    ];

    it('soft includes criminal, legal and international records found under a similar name (other token order)', () => {
      expect(routeDetail('criminal_record', 'name', input(databases, {}, { namesMatching: 'soft' }))).toMatchObject({
        result: 'found',
        severity: 'very_high',
      });
    });

    it('exact needs the identical normalized name, so the record is left out', () => {
      expect(routeDetail('criminal_record', 'name', input(databases, {}, { namesMatching: 'exact' }))).toMatchObject({
        result: 'not_found',
        severity: 'none',
      });
    });

    it('does not filter other datasets (media) by name', () => {
      expect(routeDetail('alert_in_media', 'name', input(databases, {}, { namesMatching: 'exact' }))).toMatchObject({
        result: 'found',
        severity: 'low',
      });
    });
  });

  it('combines the routes of a dataset: found wins, the worse severity and the lower score', () => {
    const s = datasetScore(
      'criminal_record',
      input(
        [
          db('police', ['criminal_record'], 'id', []),
          db('court', ['criminal_record'], 'name', [
            rec('criminal_record', 'name', 'medium', {
              found_first_name: 'Juan Carlos',
              found_last_name: 'Pérez Gómez',
            }),
          ]),
        ],
        {},
      ),
    );
    expect(s).toMatchObject({
      data_set: 'criminal_record',
      result: 'found',
      severity: 'medium',
      score: 0.5,
      by_id: { result: 'not_found', score: 1 },
      by_name: { result: 'found', score: 0.5 },
    });
    const waiting = datasetScore(
      'criminal_record',
      input(
        [db('police', ['criminal_record'], 'id', []), db('court', ['criminal_record'], 'name', null, 'not_started')],
        {},
      ),
    );
    expect(waiting.result).toBe('pending');
  });

  it('averages with weights over answered datasets only', () => {
    const f = (result: 'found' | 'not_found' | 'error', score: number) => ({
      result,
      score,
      severity: 'none' as const,
    });
    expect(
      weightedAverage([
        { weight: 0.75, detail: f('found', 0) },
        { weight: 0.25, detail: f('not_found', 1) },
      ]),
    ).toBeCloseTo(0.25);
    expect(
      weightedAverage([
        { weight: 0.5, detail: f('found', 0.5) },
        { weight: 0.5, detail: f('error', 1) },
      ]),
    ).toBeCloseTo(0.5);
    expect(
      weightedAverage([
        { weight: 0, detail: f('found', 0.5) },
        { weight: 0, detail: f('found', 1) },
      ]),
    ).toBeCloseTo(0.75);
    expect(weightedAverage([{ weight: 1, detail: f('error', 1) }])).toBeUndefined();
  });

  it('computes the global, ID and name scores as weighted averages of the dataset scores', () => {
    const result = scoreCheck(
      input(
        [
          db('registry', ['personal_identity'], 'id', [rec('personal_identity', 'id', 'none')]),
          db('police', ['criminal_record'], 'id', [rec('criminal_record', 'id', 'high')]),
          db('media', ['alert_in_media'], 'name', [
            rec('alert_in_media', 'name', 'very_high', {
              found_first_name: 'Juan Carlos',
              found_last_name: 'Pérez Gómez',
            }),
          ]),
        ],
        { personal_identity: 0.5, criminal_record: 0.3, alert_in_media: 0.2 },
      ),
    );
    // global: 0.5*1 + 0.3*0.25 + 0.2*0 = 0.575; id: (0.5*1 + 0.3*0.25) / 0.8; name: only media answered by name -> 0.
    expect(result.score).toBe(0.575);
    expect(result.id_score).toBe(0.7188);
    expect(result.homonym_score).toBe(0);
    expect(result.scores.map((s) => s.data_set)).toEqual(['personal_identity', 'criminal_record', 'alert_in_media']);
  });

  it('gives -1 until a database answered, and 1 for a route with nothing to say', () => {
    expect(
      scoreCheck(input([db('police', ['criminal_record'], 'id', null, 'not_started')], { criminal_record: 1 })),
    ).toMatchObject({ score: -1, id_score: -1, homonym_score: -1 });
    expect(scoreCheck(input([db('police', ['criminal_record'], 'id', [])], { criminal_record: 1 }))).toMatchObject({
      score: 1,
      id_score: 1,
      homonym_score: 1,
    });
  });

  it('skips datasets without a weight (custom types) and counts weight-0 datasets as information only', () => {
    const dbs = [
      db('police', ['criminal_record'], 'id', [rec('criminal_record', 'id', 'very_high')]),
      db('simit', ['traffic_fines'], 'id', []),
    ];
    expect(scoreCheck(input(dbs, { traffic_fines: 1 })).score).toBe(1);
    expect(scoreCheck(input(dbs, { traffic_fines: 1 })).scores.map((s) => s.data_set)).toEqual(['traffic_fines']);
    expect(scoreCheck(input(dbs, { traffic_fines: 1, criminal_record: 0 })).score).toBe(1);
    expect(scoreCheck(input(dbs, { traffic_fines: 0.5, criminal_record: 0.5 })).score).toBe(0.5);
  });

  it('estimates the homonym probability from who the name-only records belong to', () => {
    const identity = rec('personal_identity', 'id', 'none', { subject_ref: 'me' });
    const own = rec('alert_in_media', 'name', 'low', {
      subject_ref: 'me',
      found_first_name: 'Juan Carlos',
      found_last_name: 'Pérez Gómez',
    });
    const other = rec('alert_in_media', 'name', 'low', {
      subject_ref: 'other',
      found_first_name: 'Juan Carlos',
      found_last_name: 'Pérez Gómez',
    });
    const registry = db('registry', ['personal_identity'], 'id', [identity]);
    expect(homonymProbability(input([registry, db('media', ['alert_in_media'], 'name', [own])], {}))).toBe(0);
    expect(homonymProbability(input([registry, db('media', ['alert_in_media'], 'name', [own, other])], {}))).toBe(0.5);
    expect(homonymProbability(input([registry, db('media', ['alert_in_media'], 'name', [other])], {}))).toBe(1);
    expect(homonymProbability(input([registry], {}))).toBeNull();
  });

  it('summarizes names found, identity, vehicle and company facts and wrong inputs', () => {
    const out = summarize(
      'person',
      input(
        [
          {
            ...db('registry', ['personal_identity'], 'id', [rec('personal_identity', 'id', 'none')]),
            answer: {
              kind: 'answer',
              records: [],
              identity: {
                status: 'dead',
                first_name: 'Pedro',
                last_name: 'Martínez',
                gender: 'male',
                death_date: '2021-11-10',
              },
              wrong_inputs: ['document_expedition_date'],
            },
          },
          db('media', ['alert_in_media'], 'name', [
            rec('alert_in_media', 'name', 'low', { found_first_name: 'PEDRO', found_last_name: 'MARTINEZ' }),
          ]),
        ],
        {},
      ),
    );
    expect(out.summary).toEqual({
      names_found: [{ first_name: 'Pedro', last_name: 'Martínez', count: 2 }],
      identity_status: 'dead',
      gender: 'male',
      death_date: '2021-11-10T00:00:00Z',
    });
    expect(out.wrong_inputs).toEqual([{ input: 'document_expedition_date' }]);
    expect(out.vehicle_summary).toBeUndefined();
    expect(summarize('vehicle', input([], {})).vehicle_summary).toEqual({ vehicle_status: 'not_found' });
    expect(summarize('company', input([], {})).company_summary).toEqual({
      company_status: 'not_found',
      names_found: [],
    });
  });
});
