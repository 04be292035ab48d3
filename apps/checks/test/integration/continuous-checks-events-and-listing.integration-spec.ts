import { AppException, Caller } from '@kyc/platform';
import { DataSource } from 'typeorm';

import { ChecksService } from '../../src/checks/checks.service';
import { ContinuousChecksService } from '../../src/continuous-checks/continuous-checks.service';
import {
  a,
  advance,
  b,
  checks,
  clock,
  count,
  dateIn,
  DAY,
  finishedCheck,
  finishedEvents,
  history,
  pendingJobs,
  SECOND,
  tenant,
  useContinuousChecks,
} from './continuous-checks-fixture';

describe('continuous checks (ManualClock scheduler)', () => {
  useContinuousChecks();

  it('shapes the finished event by hook API key version 0', async () => {
    const api0 = a.api.withKey(a.t.apiKeyV0);
    const original = await finishedCheck(a.api);
    const created = await api0.post('/v1/continuous-checks', {
      check_id: original,
      frequency: 'daily',
      end_date: dateIn(1),
      api_key_version: '0',
    });
    expect(created.status).toBe(201);
    expect(created.body.api_key_version).toBe(0);
    const id = created.body.continuous_check_id;
    // The version-1 key cannot switch the hook to its version through a version-0 key's request.
    expect(
      (await api0.put(`/v1/continuous-checks/${id}`, { status: 'enabled', frequency: 'daily', api_key_version: '1' }))
        .status,
    ).toBe(400);
    await advance(DAY);
    await advance(2 * SECOND);
    const [run] = await history(a.api, id);
    const [event] = await finishedEvents(run.check_id);
    expect(event.payload).toMatchObject({ continuous_check_id: id, score_change: 'same', hook_api_key_version: 0 });
    expect(event.payload.continuous_check).toBeUndefined();
  });

  it("creates from code in the caller's transaction (batches): committed with it, or not at all, same rules", async () => {
    const service = checks.app.get(ContinuousChecksService);
    const checksSvc = checks.app.get(ChecksService);
    const dataSource = checks.app.get(DataSource);
    const caller = new Caller(
      a.t.tenantId,
      a.t.adminUserId,
      undefined,
      'batch:test',
      'backend',
      1,
      undefined,
      new Set(['checks.country_all']),
      [],
    );
    const inputs = {
      country: 'CO',
      type: 'person',
      user_authorized: 'true',
      force_creation: 'true',
      national_id: '1000000001',
    };
    const before = await count(a.t.tenantId);

    const bad = await dataSource
      .transaction(async (m) => {
        const { check } = await checksSvc.create(caller, inputs, { manager: m });
        return service.createInTransaction(m, caller, check, { frequency: 'hourly', end_date: 'tomorrow' });
      })
      .catch((e) => e);
    expect(bad).toBeInstanceOf(AppException);
    expect(bad.fields.map((f: any) => f.field).sort()).toEqual(['end_date', 'frequency']);

    await expect(
      dataSource.transaction(async (m) => {
        const { check } = await checksSvc.create(caller, inputs, { manager: m });
        await service.createInTransaction(m, caller, check, { frequency: 'weekly', end_date: dateIn(30) });
        throw new Error('the batch row failed');
      }),
    ).rejects.toThrow('the batch row failed');
    expect(await count(a.t.tenantId)).toBe(before);

    const cc = await dataSource.transaction(async (m) => {
      const { check } = await checksSvc.create(caller, inputs, { manager: m });
      return service.createInTransaction(m, caller, check, { frequency: 'weekly', end_date: dateIn(30) });
    });
    const res = await a.api.get(`/v1/continuous-checks/${cc.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      frequency: 'weekly',
      status: 'enabled',
      api_key_version: 1,
      next_run_date: new Date(clock.now().getTime() + 7 * DAY).toISOString(),
    });
    expect(await pendingJobs(cc.id)).toHaveLength(1);
    await a.api.put(`/v1/continuous-checks/${cc.id}`, { status: 'disabled', frequency: 'weekly' });
  });

  it('lists with start_key pagination and keeps tenants apart (404 for another tenant on every endpoint)', async () => {
    const t = await tenant();
    const original = await finishedCheck(t.api);
    const ids: string[] = [];
    for (let i = 0; i < 21; i++) {
      const res = await t.api.post('/v1/continuous-checks', {
        check_id: original,
        frequency: 'monthly',
        end_date: dateIn(400),
        status: 'disabled',
      });
      expect(res.status).toBe(201);
      ids.push(res.body.continuous_check_id);
    }
    const first = await t.api.get('/v1/continuous-checks');
    expect(first.status).toBe(200);
    expect(first.body.continuous_checks).toHaveLength(20);
    expect(first.body.continuous_checks[0]).toMatchObject({
      check: { check_id: original },
      frequency: 'monthly',
      status: 'disabled',
    });
    expect(first.body.next).toContain('start_key=');
    const second = await t.api.get(first.body.next.replace(checks.url, '').replace(/^https?:\/\/[^/]+/, ''));
    expect(second.body.continuous_checks).toHaveLength(1);
    expect(second.body.next).toBeUndefined();
    expect(
      new Set(
        [...first.body.continuous_checks, ...second.body.continuous_checks].map((c: any) => c.continuous_check_id),
      ),
    ).toEqual(new Set(ids));

    const id = ids[0];
    expect((await b.api.get(`/v1/continuous-checks/${id}`)).status).toBe(404);
    expect((await b.api.get(`/v1/continuous-checks/${id}/history`)).status).toBe(404);
    const put = await b.api.put(`/v1/continuous-checks/${id}`, { status: 'enabled', frequency: 'daily' });
    expect(put.status).toBe(404);
    expect(put.body).toMatchObject({ code: 404, error_code: 'continuous_check_not_found' });
    expect((await t.api.get(`/v1/continuous-checks/${id}`)).body).toMatchObject({
      status: 'disabled',
      frequency: 'monthly',
    });
    const listB = await b.api.get('/v1/continuous-checks');
    expect(listB.body.continuous_checks.map((c: any) => c.continuous_check_id)).not.toContain(id);
    expect((await t.api.get('/v1/continuous-checks/CCKnope')).status).toBe(404);
  });
});
