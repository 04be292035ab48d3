import { Caller, ManualClock, OutboxService } from '@kyc/platform';

import { ChecksConfig } from '../config/checks.config';
import { CheckEntity } from './check.entity';
import { ChecksService } from './checks.service';

const caller = (permissions: string[], keyVersion: 0 | 1 = 1) =>
  new Caller('t1', 'u1', 'a@b.c', 'k1', 'backend', keyVersion, 'role', new Set(permissions), []);
const body = (over: Record<string, unknown> = {}) => ({
  country: 'CO',
  type: 'person',
  user_authorized: 'true',
  national_id: '1000000001',
  force_creation: 'true',
  ...over,
});

/** A ChecksService over a fake transaction manager that answers createMany's statements. */
function service(
  db: {
    customTypes?: { country: string; type: string; weights: unknown }[];
    recent?: { id: string; input_hash: string }[];
    existing?: Partial<CheckEntity>[];
  } = {},
) {
  const query = jest.fn(async (sql: string, _values: unknown[]) => {
    if (sql.includes('FROM custom_types')) return db.customTypes ?? [];
    if (sql.includes('DISTINCT ON (input_hash)')) return db.recent ?? [];
    return [];
  });
  const manager = { query, findBy: jest.fn(async () => db.existing ?? []) };
  const repo = { create: (v: Partial<CheckEntity>) => v as CheckEntity };
  const config = Object.assign(new ChecksConfig(), { CHECKS_DEDUP_WINDOW_SECONDS: 600 });
  const svc = new ChecksService(
    repo as any,
    {} as any,
    new OutboxService(),
    config,
    new ManualClock('2030-01-01T00:00:00Z'),
    {} as any,
    {} as any,
  );
  const inserts = () => query.mock.calls.filter(([sql]) => sql.includes('INSERT INTO checks'));
  /** The checks and events the insert statement stored. */
  const stored = () => {
    const [[sql, values]] = inserts();
    expect(sql).toMatch(/INSERT INTO outbox[\s\S]*INSERT INTO jobs/);
    return {
      checks: JSON.parse(values[1] as string) as Record<string, unknown>[],
      events: (values[9] as string[]).map((e) => JSON.parse(e)),
    };
  };
  return { svc, manager: manager as any, query, inserts, stored };
}

describe('ChecksService.createMany', () => {
  it('applies the rules of create() to each body, returning refusals in place and storing the others in one statement', async () => {
    const { svc, manager, stored } = service();
    const results = await svc.createMany(
      caller(['checks.country_co']),
      [
        body(),
        body({ national_id: undefined }), // nothing to search with
        body({ country: 'BR', national_id: '12345678909' }), // no BR permission
        body({ national_id: '1000000002', user_authorized: 'false' }),
        body({ national_id: '1000000003', date_of_birth: '2999-01-01' }),
        body({ national_id: '1000000004' }),
      ],
      manager,
    );
    expect(results.map((r) => (r.error ? r.error.status : 'created'))).toEqual([
      'created',
      400,
      403,
      400,
      400,
      'created',
    ]);
    expect(results[1].error).toMatchObject({
      errorCode: 'validation_failed',
      fields: [{ field: 'national_id', message: expect.any(String) }],
    });
    expect(results[3].error).toMatchObject({ errorCode: 'user_not_authorized' });
    expect(results[4].error).toMatchObject({ fields: [expect.objectContaining({ field: 'date_of_birth' })] });
    const { checks, events } = stored();
    expect(checks.map((c) => (c.inputs as Record<string, string>).national_id)).toEqual(['1000000001', '1000000004']);
    expect(checks.map((c) => c.id)).toEqual([results[0].check!.id, results[5].check!.id]);
    expect(events.map((e) => [e.type, e.payload.check.check_id, e.payload.check.status])).toEqual([
      ['checks.check.created', results[0].check!.id, 'not_started'],
      ['checks.check.created', results[5].check!.id, 'not_started'],
    ]);
    expect(results[0]).toMatchObject({
      created: true,
      check: { tenantId: 't1', createdBy: 'u1', status: 'not_started', score: -1 },
    });
  });

  it("refuses a type that is neither built in nor a custom type of the country, and copies a custom type's weights", async () => {
    const { svc, manager, stored } = service({
      customTypes: [{ country: 'CO', type: 'fines', weights: { traffic_fines: 1 } }],
    });
    const results = await svc.createMany(
      caller(['checks.country_all']),
      [body({ type: 'spaceship' }), body({ type: 'fines' }), body()],
      manager,
    );
    expect(results[0].error).toMatchObject({
      status: 400,
      errorCode: 'unknown_check_type',
      fields: [{ field: 'type', message: expect.any(String) }],
    });
    expect(stored().checks.map((c) => [c.type, c.weights])).toEqual([
      ['fines', { traffic_fines: 1 }],
      ['person', null],
    ]);
  });

  it('de-duplicates like create(): without force_creation a recent check with the same inputs, or an earlier body of the call, is returned', async () => {
    const existing = { id: 'CHKold', tenantId: 't1', status: 'completed' } as Partial<CheckEntity>;
    const probe = service();
    await probe.svc.createMany(caller(['checks.country_all']), [body({ national_id: '7' })], probe.manager);
    const hashOf7 = probe.stored().checks[0].input_hash as string;

    const { svc, manager, stored } = service({ recent: [{ id: 'CHKold', input_hash: hashOf7 }], existing: [existing] });
    const results = await svc.createMany(
      caller(['checks.country_all']),
      [
        body({ national_id: '7', force_creation: undefined }),
        body({ national_id: '8', force_creation: undefined }),
        body({ national_id: '8', force_creation: undefined }),
        body({ national_id: '8' }),
      ],
      manager,
    );
    expect(results[0]).toEqual({ check: existing, created: false });
    expect(results[1].created).toBe(true);
    expect(results[2]).toEqual({ check: results[1].check, created: false });
    expect(results[3].created).toBe(true);
    expect(results[3].check!.id).not.toBe(results[1].check!.id);
    expect(stored().checks).toHaveLength(2);
  });

  it('stores nothing when every body is refused', async () => {
    const { svc, manager, inserts } = service();
    const results = await svc.createMany(caller(['checks.country_all']), [body({ user_authorized: 'false' })], manager);
    expect(results[0].error).toMatchObject({ errorCode: 'user_not_authorized' });
    expect(inserts()).toHaveLength(0);
  });
});
