import { ManualClock } from '@kyc/platform';
import {
  ApiClient,
  closeDb,
  createTenant,
  db,
  RunningService,
  startInProcess,
  startService,
  TestTenant,
} from '@kyc/testing';

import { checksService } from '../../src/app.module';
import { upload, xlsx } from './batch-helpers';

/** A ManualClock that keeps following real time, moved ahead by advance() (link expiry without sleeping). */
export class ShiftedClock extends ManualClock {
  private offset = 0;
  now(): Date {
    return new Date(Date.now() + this.offset);
  }
  advance(ms: number): Date {
    this.offset += ms;
    return this.now();
  }
}

export const MAPPING = {
  'columns_mapping.user_authorized': 0,
  'columns_mapping.national_id': 1,
  'columns_mapping.first_name': 2,
  'columns_mapping.last_name': 3,
};
export const base = { country: 'CO', service: 'checks', type: 'person' };
export let account: RunningService;

export let checks: RunningService;

export let tenantA: TestTenant;

export let tenantB: TestTenant;

export let api: ApiClient;

export let apiB: ApiClient;

export const clock = new ShiftedClock();

let nationalId = 3_000_000;

/** A national id not used before in this run. */
export const nextNationalId = () => String(nationalId++);

export const person = (name = 'Ana') => ['true', nextNationalId(), name, 'Perez'];

export const count = async (sql: string, params: unknown[]) => (await db().query(sql, params)).rows[0].n as number;

export const batchCount = (tenant: TestTenant) =>
  count(`SELECT count(*)::int AS n FROM checks.batches WHERE tenant_id = $1`, [tenant.tenantId]);

export const newBatch = async (body: Record<string, string | number> = { ...base, ...MAPPING }) => {
  const res = await api.post('/v1/batches', body);
  expect(res.status).toBe(201);
  return res.body as { batch: { batch_id: string }; columns: (string | null)[]; file_upload_link: string };
};

export const uploadedBatch = async (rows: (string | number | null)[][]) => {
  const created = await newBatch();
  const res = await upload(created.file_upload_link, await xlsx(rows));
  expect(res.status).toBe(200);
  return created.batch.batch_id;
};

/** Registers the suite's setup and teardown (the bindings above are set in beforeAll). */
export function useBatchesApi(): void {
  beforeAll(async () => {
    [account, checks] = await Promise.all([
      startService('account', { KAFKA_CONSUMER_GROUP: 'account-batches-spec' }),
      startInProcess(
        'checks',
        checksService,
        { CHECKS_SANDBOX_LATENCY_SCALE: '0', JOBS_POLL_MS: '100', CHECKS_BATCH_ROWS_PER_JOB: '50' },
        { clock },
      ),
    ]);
    [tenantA, tenantB] = await Promise.all([
      createTenant(account.url, [checks.url]),
      createTenant(account.url, [checks.url]),
    ]);
    api = new ApiClient(checks.url, tenantA.apiKey);
    apiB = new ApiClient(checks.url, tenantB.apiKey);
  });

  afterAll(async () => {
    await Promise.all([checks?.close(), account?.close()]);
    // The engine jobs of this suite's checks must not hold up the next suites' workers.
    await db().query(`DELETE FROM checks.jobs WHERE tenant_id = ANY($1)`, [
      [tenantA?.tenantId, tenantB?.tenantId].filter(Boolean),
    ]);
    await closeDb();
  });
}
