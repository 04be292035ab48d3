import { Caller, ManualClock, OutboxService } from '@kyc/platform';
import { DataSource, EntityManager, Repository } from 'typeorm';

import { CollectorRegistry } from '../collectors/collector.registry';
import { ChecksConfig } from '../config/checks.config';
import { CheckEntity } from '../engine/check.entity';
import { CheckStore } from '../engine/check.store';
import { CheckDatabaseEntity } from '../engine/check-database.entity';
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

interface StoredItem {
  id: string;
  type: string;
  country: string;
  input_hash: string;
  force: boolean;
  built_in: boolean;
  inputs: Record<string, string>;
}
interface StoredEvent {
  message_key: string;
  type: string;
  envelope: { payload: { check: { check_id: string; status: string } } };
}

/** A ChecksService over a fake transaction manager that answers the store statement as PostgreSQL would. */
function service(
  db: {
    customTypes?: { country: string; type: string; weights: unknown }[];
    recent?: { id: string; input_hash: string }[];
    existing?: Partial<CheckEntity>[];
  } = {},
) {
  const query = jest.fn((_sql: string, values: unknown[]) => {
    const items = JSON.parse(values[0] as string) as (StoredItem & { i: number })[];
    return Promise.resolve(
      items.map((item) => {
        const custom = db.customTypes?.find((c) => c.country === item.country && c.type === item.type);
        if (!item.built_in && !custom) return { i: item.i, outcome: 'unknown_type', id: item.id };
        const recent = item.force ? undefined : db.recent?.find((r) => r.input_hash === item.input_hash);
        return recent
          ? { i: item.i, outcome: 'existing', id: recent.id }
          : { i: item.i, outcome: 'created', id: item.id };
      }),
    );
  });
  const manager = { query, findBy: jest.fn(() => Promise.resolve(db.existing ?? [])) };
  const config = Object.assign(new ChecksConfig(), { CHECKS_DEDUP_WINDOW_SECONDS: 600 });
  const clock = new ManualClock('2030-01-01T00:00:00Z');
  const store = new CheckStore({} as DataSource, new OutboxService(clock), config);
  const svc = new ChecksService(
    {} as Repository<CheckEntity>,
    {} as Repository<CheckDatabaseEntity>,
    store,
    clock,
    {} as CollectorRegistry,
  );
  const inserts = () => query.mock.calls;
  /** The checks the store statement created, with their weights (custom types), and their events. */
  const stored = () => {
    const [[, values]] = inserts();
    const items = JSON.parse(values[0] as string) as StoredItem[];
    const created = items.filter(
      (item) =>
        (item.built_in || db.customTypes?.some((c) => c.country === item.country && c.type === item.type)) &&
        (item.force || !db.recent?.some((r) => r.input_hash === item.input_hash)),
    );
    const ids = new Set(created.map((c) => c.id));
    const weights = (c: StoredItem) =>
      c.built_in ? null : db.customTypes!.find((t) => t.country === c.country && t.type === c.type)!.weights;
    return {
      checks: created.map((c) => ({ ...c, weights: weights(c) })),
      events: (JSON.parse(values[2] as string) as StoredEvent[])
        .filter((e) => ids.has(e.message_key))
        .map((e) => ({ type: e.type, payload: e.envelope.payload })),
    };
  };
  return { svc, manager: manager as unknown as EntityManager, query, inserts, stored };
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
    expect(checks.map((c) => c.inputs.national_id)).toEqual(['1000000001', '1000000004']);
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
    const hashOf7 = probe.stored().checks[0].input_hash;

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
