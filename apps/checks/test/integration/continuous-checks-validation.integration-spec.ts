import { db } from '@kyc/testing';

import { a, b, count, finishedCheck, useContinuousChecks } from './continuous-checks-fixture';

describe('continuous checks (ManualClock scheduler)', () => {
  useContinuousChecks();

  describe('validation: every bad field named, nothing stored', () => {
    let checkId: string;
    beforeAll(async () => {
      checkId = await finishedCheck(a.api);
    });

    it.each([
      ['check_id missing', { frequency: 'daily', end_date: '2031-12-31' }, 'check_id'],
      ['frequency missing', { end_date: '2031-12-31' }, 'frequency'],
      ['frequency hourly', { frequency: 'hourly', end_date: '2031-12-31' }, 'frequency'],
      ['frequency 0d', { frequency: '0d', end_date: '2031-12-31' }, 'frequency'],
      ['frequency 3x', { frequency: '3x', end_date: '2031-12-31' }, 'frequency'],
      ['end_date missing', { frequency: 'daily' }, 'end_date'],
      ['end_date not YYYY-MM-DD', { frequency: 'daily', end_date: '31/12/2031' }, 'end_date'],
      ['end_date not a calendar date', { frequency: 'daily', end_date: '2031-02-30' }, 'end_date'],
      ['end_date today with daily (no run fits)', { frequency: 'daily', end_date: '2031-03-10' }, 'end_date'],
      ['end_date before the first weekly run', { frequency: 'weekly', end_date: '2031-03-16' }, 'end_date'],
      ['end_date before the first 2m run', { frequency: '2m', end_date: '2031-05-09' }, 'end_date'],
      ['end_date in the past', { frequency: 'daily', end_date: '2030-01-01' }, 'end_date'],
      ['status unknown', { frequency: 'daily', end_date: '2031-12-31', status: 'paused' }, 'status'],
      [
        'api_key_version not 0 or 1',
        { frequency: 'daily', end_date: '2031-12-31', api_key_version: '2' },
        'api_key_version',
      ],
      [
        'api_key_version 0 with a version-1 key',
        { frequency: 'daily', end_date: '2031-12-31', api_key_version: '0' },
        'api_key_version',
      ],
    ])('POST with %s -> 400 naming the field', async (_, body, field) => {
      const res = await a.api.post('/v1/continuous-checks', {
        check_id: field === 'check_id' ? undefined : checkId,
        ...body,
      });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({
        code: 400,
        error_code: 'validation_failed',
        fields: expect.arrayContaining([expect.objectContaining({ field, message: expect.any(String) })]),
      });
      expect(await count(a.t.tenantId)).toBe(0);
    });

    it('lists every bad field at once', async () => {
      const res = await a.api.post('/v1/continuous-checks', { frequency: 'often', end_date: 'soon', status: 'x' });
      expect(res.status).toBe(400);
      expect(res.body.fields.map((f: any) => f.field).sort()).toEqual(['check_id', 'end_date', 'frequency', 'status']);
      expect(await count(a.t.tenantId)).toBe(0);
    });

    it('accepts the first end_date that allows one run (the day of the first run)', async () => {
      const weekly = await a.api.post('/v1/continuous-checks', {
        check_id: checkId,
        frequency: 'weekly',
        end_date: '2031-03-17',
        status: 'disabled',
      });
      expect(weekly.status).toBe(201);
      await db().query(`DELETE FROM checks.continuous_checks WHERE id = $1`, [weekly.body.continuous_check_id]);
    });

    it("answers 404 naming check_id for an unknown check or another tenant's check", async () => {
      const otherCheck = await finishedCheck(b.api);
      for (const id of ['CHKdoesnotexist', otherCheck]) {
        const res = await a.api.post('/v1/continuous-checks', {
          check_id: id,
          frequency: 'daily',
          end_date: '2031-12-31',
        });
        expect(res.status).toBe(404);
        expect(res.body).toMatchObject({
          code: 404,
          error_code: 'check_not_found',
          fields: [expect.objectContaining({ field: 'check_id' })],
        });
      }
      expect(await count(a.t.tenantId)).toBe(0);
    });

    it('PUT refuses a missing or bad status or frequency, or another api_key_version, and changes nothing', async () => {
      const created = await a.api.post('/v1/continuous-checks', {
        check_id: checkId,
        frequency: 'daily',
        end_date: '2031-12-31',
      });
      expect(created.status).toBe(201);
      const id = created.body.continuous_check_id;
      const cases: [Record<string, string>, string][] = [
        [{ frequency: 'daily' }, 'status'],
        [{ frequency: 'daily', status: 'paused' }, 'status'],
        [{ status: 'disabled' }, 'frequency'],
        [{ status: 'disabled', frequency: 'fortnightly' }, 'frequency'],
        [{ status: 'disabled', frequency: 'daily', api_key_version: '0' }, 'api_key_version'],
        [{ status: 'disabled', frequency: 'daily', api_key_version: 'one' }, 'api_key_version'],
      ];
      for (const [body, field] of cases) {
        const res = await a.api.put(`/v1/continuous-checks/${id}`, body);
        expect([res.status, res.body.fields?.map((f: any) => f.field)]).toEqual([400, [field]]);
      }
      // in JSON, api_key_version is the number 0 or 1: text (a form's), a list or a boolean is refused
      for (const version of ['1', ['1'], [1], true]) {
        const res = await a.api.request<any>(
          'PUT',
          `/v1/continuous-checks/${id}`,
          { status: 'disabled', frequency: 'daily', api_key_version: version },
          { 'content-type': 'application/json' },
        );
        expect([res.status, res.body.fields?.map((f: any) => f.field)]).toEqual([400, ['api_key_version']]);
      }
      const after = await a.api.get(`/v1/continuous-checks/${id}`);
      expect(after.body).toMatchObject({
        status: 'enabled',
        frequency: 'daily',
        api_key_version: 1,
        update_date: created.body.update_date,
      });
      await db().query(`DELETE FROM checks.continuous_checks WHERE id = $1`, [id]);
      await db().query(
        `DELETE FROM checks.jobs WHERE queue = 'checks.continuous.run' AND payload->>'continuous_check_id' = $1`,
        [id],
      );
    });
  });
});
