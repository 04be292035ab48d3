import { SEVERITIES } from '@kyc/contracts';

import { defaultWeights } from '../../engine/datasets';
import { COLLECTORS } from '../collector';
import { CollectorRegistry } from '../collector.registry';
import { hashUnit, unknownSubjectSeverity } from './sandbox-chance';
import { SandboxCollector, sandboxCollectors, SandboxWebhookParser } from './sandbox-collector';
import { SANDBOX_DATABASES } from './sandbox-databases';
import { SANDBOX_COMPANIES, SANDBOX_LISTED_NAMES, SANDBOX_PEOPLE, SANDBOX_VEHICLES } from './sandbox-identities';
import { sandboxAnswer } from './sandbox-search';

const tuning = { latencyScale: 1, failureRate: 0, overrides: {} };
const collectors = sandboxCollectors(tuning);
const registry = new CollectorRegistry(collectors, [new SandboxWebhookParser()]);
const byId = (id: string) => collectors.find((c) => c.databaseId === id)!;
const NOW = new Date('2030-01-01T00:00:00Z');

const ctx = (inputs: Record<string, string>, over: Record<string, unknown> = {}) => ({
  checkId: 'CHK1',
  tenantId: 't',
  country: 'CO' as const,
  type: 'person',
  inputs,
  search: 'id' as const,
  reference: 'REF1',
  requestedAt: NOW,
  now: NOW,
  attempt: 1,
  signal: new AbortController().signal,
  ...over,
});

describe('sandbox registry', () => {
  it('names every database sandbox-*, once', () => {
    expect(new Set(SANDBOX_DATABASES.map((d) => d.id)).size).toBe(SANDBOX_DATABASES.length);
    for (const d of SANDBOX_DATABASES) expect(d.id).toMatch(/^sandbox-[a-z]+-[a-z-]+$/);
    expect(COLLECTORS).toBeDefined();
  });

  it('has each record of the data set reachable through a database of its country (or an international one)', () => {
    const subjects = [...SANDBOX_PEOPLE, ...SANDBOX_VEHICLES, ...SANDBOX_COMPANIES, ...SANDBOX_LISTED_NAMES];
    for (const s of subjects) {
      for (const r of s.records) {
        const feeds = SANDBOX_DATABASES.filter(
          (d) =>
            d.dataSets.includes(r.data_set) &&
            d.searches.some((q) => q.by === r.by) &&
            (d.country === s.country || d.country === 'ALL'),
        );
        expect([s.ref, r.data_set, r.by, feeds.length > 0]).toEqual([s.ref, r.data_set, r.by, true]);
      }
    }
  });

  it('covers every severity and the 13 weighted datasets', () => {
    const severities = new Set(
      [...SANDBOX_PEOPLE, ...SANDBOX_VEHICLES, ...SANDBOX_COMPANIES, ...SANDBOX_LISTED_NAMES].flatMap((s) =>
        s.records.map((r) => r.severity),
      ),
    );
    for (const s of SEVERITIES.filter((x) => x !== 'unknown')) expect([s, severities.has(s)]).toEqual([s, true]);
    const fed = new Set(SANDBOX_DATABASES.flatMap((d) => d.dataSets));
    expect(fed.size).toBe(13);
  });

  it('gives default weights per type and country that sum to 1', () => {
    for (const country of ['CO', 'MX', 'PE', 'BR', 'CL', 'CR'] as const) {
      for (const type of ['person', 'vehicle', 'company'] as const) {
        const w = defaultWeights(type, registry.candidates(country, type));
        const sum = Object.values(w).reduce((a, b) => a + (b ?? 0), 0);
        if (Object.keys(w).length) expect([country, type, Math.abs(sum - 1) < 0.001]).toEqual([country, type, true]);
      }
    }
    expect(Object.keys(defaultWeights('person', registry.candidates('ALL', 'person'))).sort()).toEqual([
      'alert_in_media',
      'international_background',
    ]);
  });
});

describe('planning a check', () => {
  const weights = (type: 'person' | 'vehicle' | 'company', country: 'CO' | 'BR') =>
    defaultWeights(type, registry.candidates(country, type));

  it('runs the databases the inputs allow and lists the others as skipped with the inputs they lack', () => {
    const plan = registry.plan({
      country: 'CO',
      type: 'person',
      region: null,
      inputs: { national_id: '1000000001' },
      weights: weights('person', 'CO'),
    });
    const ran = plan.filter((p) => p.search).map((p) => p.collector.databaseId);
    expect(ran).toEqual(expect.arrayContaining(['sandbox-co-registry', 'sandbox-co-police', 'sandbox-co-simit']));
    expect(ran).not.toContain('sandbox-co-rues');
    expect(plan.find((p) => p.collector.databaseId === 'sandbox-int-sanctions')).toMatchObject({
      invalidInputs: ['first_name', 'last_name'],
    });
  });

  it('searches a Brazilian state court or the nation-wide one, by region', () => {
    const ids = (region: string) =>
      registry
        .plan({
          country: 'BR',
          type: 'person',
          region,
          inputs: { national_id: '12345678909', region },
          weights: weights('person', 'BR'),
        })
        .map((p) => p.collector.databaseId);
    expect(ids('SP')).toContain('sandbox-br-tj-state');
    expect(ids('SP')).not.toContain('sandbox-br-tj-national');
    expect(ids('ALL')).toContain('sandbox-br-tj-national');
    expect(ids('ALL')).not.toContain('sandbox-br-tj-state');
  });

  it('skips databases feeding no weighted dataset (custom types)', () => {
    const plan = registry.plan({
      country: 'CO',
      type: 'fines-only',
      region: null,
      inputs: { national_id: '1000000002', license_plate: 'XYZ987' },
      weights: { traffic_fines: 1 },
    });
    expect(plan.map((p) => p.collector.databaseId)).toEqual(['sandbox-co-simit']);
  });
});

describe('sandbox answers', () => {
  it('takes its latency on the given clock, scaled, and answers when due', async () => {
    const police = byId('sandbox-co-police');
    expect(await police.collect(ctx({ national_id: '1000000002' }))).toEqual({
      kind: 'pending',
      pollAt: new Date(NOW.getTime() + 700),
    });
    const answer = await police.collect(ctx({ national_id: '1000000002' }, { now: new Date(NOW.getTime() + 700) }));
    expect(answer).toMatchObject({
      kind: 'answer',
      records: [expect.objectContaining({ data_set: 'criminal_record', severity: 'high', found_by: 'id' })],
      attachments: [expect.objectContaining({ content_type: 'text/plain' })],
    });
    const fast = new SandboxCollector(police.spec, { ...tuning, latencyScale: 0 });
    expect((await fast.collect(ctx({ national_id: '1000000001' }))).kind).toBe('answer');
  });

  it('declares its answer time (scaled, overrides first) for the engine to ask quick ones inline', () => {
    const police = byId('sandbox-co-police');
    expect(police.answerLatencyMs({ region: null })).toBe(700);
    expect(police.firstAskDelayMs({ region: null })).toBe(700);
    const fast = new SandboxCollector(police.spec, { ...tuning, latencyScale: 0 });
    expect([fast.answerLatencyMs({ region: null }), fast.firstAskDelayMs({ region: null })]).toEqual([0, 0]);
    const slow = new SandboxCollector(police.spec, {
      ...tuning,
      latencyScale: 0,
      overrides: { 'sandbox-co-police': { latency_ms: 5_000 } },
    });
    expect(slow.answerLatencyMs({ region: null })).toBe(5_000);
    // A webhook database is asked at once but answers much later.
    const national = byId('sandbox-br-tj-national');
    expect([
      national.firstAskDelayMs({ region: 'ALL' }),
      national.answerLatencyMs({ region: 'ALL' }) > 24 * 3_600_000,
    ]).toEqual([0, true]);
  });

  it('gives Brazil state courts 2 to 20 minutes, fixed per region', () => {
    const state = byId('sandbox-br-tj-state');
    const latencies = ['DF', 'SP', 'RJ', 'AC', 'TO'].map((r) => state.latencyMs(r));
    for (const l of latencies) {
      expect(l).toBeGreaterThanOrEqual(2 * 60_000);
      expect(l).toBeLessThanOrEqual(20 * 60_000);
    }
    expect(byId('sandbox-br-tj-national').latencyMs('ALL')).toBeGreaterThan(24 * 3_600_000);
  });

  it('fails at the configured rate, per database override first', async () => {
    const failing = new SandboxCollector(byId('sandbox-co-registry').spec, {
      latencyScale: 0,
      failureRate: 0,
      overrides: { 'sandbox-co-registry': { failure_rate: 1 } },
    });
    await expect(failing.collect(ctx({ national_id: '1000000001' }))).rejects.toMatchObject({
      name: 'CollectorError',
      permanent: false,
    });
    const fine = new SandboxCollector(byId('sandbox-co-registry').spec, {
      latencyScale: 0,
      failureRate: 1,
      overrides: { 'sandbox-co-registry': { failure_rate: 0 } },
    });
    await expect(fine.collect(ctx({ national_id: '1000000001' }))).resolves.toMatchObject({ kind: 'answer' });
  });

  it('fails for the documented failing identity, and refuses invalid credentials for good', async () => {
    const police = new SandboxCollector(byId('sandbox-co-police').spec, { ...tuning, latencyScale: 0 });
    await expect(police.collect(ctx({ national_id: '1000000099' }))).rejects.toMatchObject({ permanent: false });
    const bureau = new SandboxCollector(byId('sandbox-co-bureau').spec, { ...tuning, latencyScale: 0 });
    await expect(
      bureau.collect(ctx({ national_id: '1000000007' }, { credentials: { username: 'u', password: 'invalid' } })),
    ).rejects.toMatchObject({ permanent: true });
    await expect(
      bureau.collect(ctx({ national_id: '1000000007' }, { credentials: { username: 'u', password: 'ok' } })),
    ).resolves.toMatchObject({ records: [expect.objectContaining({ severity: 'high' })] });
  });

  it('finds people by name with homonyms, filed under other token orders too', () => {
    const judicial = byId('sandbox-co-judicial').spec;
    const answer = sandboxAnswer({
      spec: judicial,
      search: 'name',
      searchInputs: ['first_name', 'last_name'],
      inputs: { first_name: 'Juan Carlos', last_name: 'Pérez Gómez' },
      region: null,
      now: NOW,
    });
    expect(answer.records).toEqual([
      expect.objectContaining({
        data_set: 'criminal_record',
        severity: 'very_high',
        found_first_name: 'PEREZ GOMEZ JUAN CARLOS',
        subject_ref: 'co-homonym-b',
      }),
    ]);
  });

  it('answers the identity, dead people and document mismatches', () => {
    const registrySpec = byId('sandbox-co-registry').spec;
    const ask = (inputs: Record<string, string>) =>
      sandboxAnswer({
        spec: registrySpec,
        search: 'id',
        searchInputs: ['national_id'],
        inputs,
        region: null,
        now: NOW,
      });
    expect(ask({ national_id: '1000000001' })).toMatchObject({
      identity: { status: 'found', gender: 'female' },
      records: [expect.objectContaining({ severity: 'none', kind: 'identity_record' })],
    });
    expect(ask({ national_id: '1000000006' })).toMatchObject({
      identity: { status: 'dead', death_date: '2021-11-10' },
      records: [expect.objectContaining({ severity: 'very_high' })],
    });
    expect(ask({ national_id: '1000000001', issue_date: '2009-01-01' })).toMatchObject({
      wrong_inputs: ['document_expedition_date'],
    });
  });

  it('derives unknown IDs from a hash: stable, mostly clean', () => {
    const police = byId('sandbox-co-police').spec;
    const ask = (id: string) =>
      sandboxAnswer({
        spec: police,
        search: 'id',
        searchInputs: ['national_id'],
        inputs: { national_id: id },
        region: null,
        now: NOW,
      });
    expect(ask('555000111')).toEqual(ask('555000111'));
    const clean = Array.from({ length: 200 }, (_, i) => ask(String(7_000_000 + i))).filter(
      (a) => a.records.length === 0,
    ).length;
    expect(clean).toBeGreaterThan(150);
    expect(unknownSubjectSeverity(0.5)).toBe('none');
    expect(unknownSubjectSeverity(0.995)).toBe('very_high');
    expect(hashUnit('a', 1)).toBe(hashUnit('a', 1));
  });

  it('finds vehicles and companies with their facts', () => {
    const runt = byId('sandbox-co-runt').spec;
    expect(
      sandboxAnswer({
        spec: runt,
        search: 'id',
        searchInputs: ['license_plate'],
        inputs: { license_plate: 'xyz-987' },
        region: null,
        now: NOW,
      }),
    ).toMatchObject({
      vehicle: { status: 'found', manufacturer: 'Renault' },
      records: expect.arrayContaining([
        expect.objectContaining({ data_set: 'vehicle_information', severity: 'very_high' }),
      ]),
    });
    const rues = byId('sandbox-co-rues').spec;
    expect(
      sandboxAnswer({
        spec: rues,
        search: 'id',
        searchInputs: ['tax_id'],
        inputs: { tax_id: '900300400-5' },
        region: null,
        now: NOW,
      }),
    ).toMatchObject({
      company: { status: 'inactive', company_name: 'Inversiones El Dorado Ltda.' },
      records: [expect.objectContaining({ data_set: 'business_background', severity: 'medium' })],
    });
  });
});
