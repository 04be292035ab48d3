import { CHECK_ACCESS_RULE_FIELDS } from '@kyc/contracts';
import { Caller, ManualClock } from '@kyc/platform';
import { Repository } from 'typeorm';

import { CollectorRegistry } from '../collectors/collector.registry';
import { CheckEntity } from '../engine/check.entity';
import { CheckStore, NewCheck } from '../engine/check.store';
import { CheckDatabaseEntity } from '../engine/check-database.entity';
import { CHECK_ACCESS_RULE_SQL, ChecksService } from './checks.service';

const caller = (permissions: string[], keyVersion: 0 | 1 = 1) =>
  new Caller('t1', 'u1', 'a@b.c', 'k1', 'backend', keyVersion, 'role', new Set(permissions), []);

function service(outcome: 'created' | 'unknown_type' = 'created') {
  // The check's store, faked: what it is given to store, and the outcome it answers (its SQL is
  // tested against PostgreSQL by the integration suites).
  const createOne = jest.fn((item: NewCheck) => Promise.resolve({ outcome, id: item.check.id }));
  const repo = {
    create: (v: Partial<CheckEntity>) => v as CheckEntity,
    findOneBy: jest.fn(),
  };
  const clock = new ManualClock('2030-01-01T00:00:00Z');
  return {
    svc: new ChecksService(
      repo as unknown as Repository<CheckEntity>,
      {} as Repository<CheckDatabaseEntity>,
      { createOne } as unknown as CheckStore,
      clock,
      {} as CollectorRegistry,
    ),
    query: createOne,
  };
}

const body = (over: Record<string, unknown> = {}) => ({
  country: 'CO',
  type: 'person',
  user_authorized: 'true',
  national_id: '1000000001',
  ...over,
});

describe('ChecksService.create', () => {
  it('needs the country permission or checks.country_all', async () => {
    const { svc, query } = service();
    await expect(
      svc.create(caller(['checks.country_co']), body({ country: 'BR', national_id: '12345678909' })),
    ).rejects.toMatchObject({ status: 403, errorCode: 'forbidden' });
    expect(query).not.toHaveBeenCalled();
    await expect(
      svc.create(caller(['checks.country_br']), body({ country: 'BR', national_id: '12345678909' })),
    ).resolves.toMatchObject({ created: true });
    await expect(
      svc.create(caller(['checks.country_all']), body({ country: 'BR', national_id: '12345678909' })),
    ).resolves.toMatchObject({ created: true });
  });

  it('refuses user_authorized=false for any key version, and a missing one from version 1', async () => {
    const { svc, query } = service();
    await expect(
      svc.create(caller(['checks.country_all'], 0), body({ user_authorized: 'false' })),
    ).rejects.toMatchObject({ status: 400, errorCode: 'user_not_authorized' });
    await expect(
      svc.create(caller(['checks.country_all'], 1), body({ user_authorized: undefined })),
    ).rejects.toMatchObject({ fields: [{ field: 'user_authorized', message: expect.any(String) }] });
    expect(query).not.toHaveBeenCalled();
    await expect(
      svc.create(caller(['checks.country_all'], 0), body({ user_authorized: undefined })),
    ).resolves.toBeDefined();
  });

  it('lists user_authorized with the other offending fields when there are several', async () => {
    const { svc } = service();
    await expect(
      svc.create(caller(['checks.country_all']), body({ user_authorized: 'false', date_of_birth: '1990-02-30' })),
    ).rejects.toMatchObject({
      errorCode: 'validation_failed',
      fields: expect.arrayContaining([
        expect.objectContaining({ field: 'user_authorized' }),
        expect.objectContaining({ field: 'date_of_birth' }),
      ]),
    });
  });

  it('refuses a type that is neither built in nor a custom type of the country, naming the field', async () => {
    const { svc } = service('unknown_type');
    await expect(svc.create(caller(['checks.country_all']), body({ type: 'spaceship' }))).rejects.toMatchObject({
      status: 400,
      errorCode: 'unknown_check_type',
      fields: [{ field: 'type', message: expect.any(String) }],
    });
  });

  it('gives identical inputs the same hash (so they de-duplicate) and different inputs another', async () => {
    const { svc, query } = service();
    await svc.create(caller(['checks.country_all']), body());
    await svc.create(caller(['checks.country_all']), body({ country: 'co' }));
    await svc.create(caller(['checks.country_all']), body({ national_id: '2' }));
    await svc.create(caller(['checks.country_all']), body({ report_id: 'R1' }));
    const hashes = query.mock.calls.map(([item]) => item.check.inputHash);
    expect(hashes[0]).toBe(hashes[1]);
    expect(hashes[2]).not.toBe(hashes[0]);
    expect(hashes[3]).not.toBe(hashes[0]);
  });

  it('stores the effective Brazilian region and the creation time from the clock', async () => {
    const { svc, query } = service();
    const { check } = await svc.create(
      caller(['checks.country_all']),
      body({ country: 'BR', national_id: '123.456.789-09' }),
    );
    expect(check.region).toBe('PR');
    expect(check.createdAt.toISOString()).toBe('2030-01-01T00:00:00.000Z');
    expect(query.mock.calls[0][0].check).toMatchObject({
      region: 'PR',
      createdAt: new Date('2030-01-01T00:00:00.000Z'),
    });
  });
});

describe('role access rules on check reads', () => {
  it('map every check field a rule may read to SQL, with its type', () => {
    expect(Object.keys(CHECK_ACCESS_RULE_SQL).sort()).toEqual(Object.keys(CHECK_ACCESS_RULE_FIELDS).sort());
    for (const [field, type] of Object.entries(CHECK_ACCESS_RULE_FIELDS)) {
      const sql = CHECK_ACCESS_RULE_SQL[field];
      expect([field, typeof sql === 'string' ? 'string' : sql.type]).toEqual([field, type]);
    }
  });
});
