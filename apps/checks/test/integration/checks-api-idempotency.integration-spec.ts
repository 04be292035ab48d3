import { db } from '@kyc/testing';

import { api, nextPerson, tenantA, tenantB, useChecksApi } from './checks-api-fixture';

describe('checks API through the platform (auth, envelope, tenancy, idempotency)', () => {
  useChecksApi();

  describe('Idempotency-Key', () => {
    it('replays the stored response for the same key and body without creating another check', async () => {
      const body = nextPerson();
      const first = await api.post('/v1/checks', { ...body, force_creation: 'true' }, { 'Idempotency-Key': 'idem-1' });
      const replay = await api.post('/v1/checks', { ...body, force_creation: 'true' }, { 'Idempotency-Key': 'idem-1' });
      expect(first.status).toBe(201);
      expect(replay.status).toBe(201);
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      expect(replay.body).toEqual(first.body);
      const rows = await db().query(
        `SELECT count(*)::int AS n FROM checks.checks WHERE tenant_id = $1 AND inputs->>'national_id' = $2`,
        [tenantA.tenantId, body.national_id],
      );
      expect(rows.rows[0].n).toBe(1);
    });

    it('checks the inputs before claiming a key: an invalid check never writes its key', async () => {
      // With the key table locked against writes a claim would wait (and the test time out).
      const holder = await db().connect();
      try {
        await holder.query('BEGIN');
        await holder.query('LOCK TABLE checks.idempotency_keys IN EXCLUSIVE MODE');
        const res = await api.post('/v1/checks', { country: 'CO', type: 'person' }, { 'Idempotency-Key': 'idem-4' });
        expect(res.status).toBe(400);
        expect(res.body).toMatchObject({ code: 400, error_code: 'validation_failed' });
      } finally {
        await holder.query('ROLLBACK');
        holder.release();
      }
    });

    it('answers 422 when the same key comes with a different body', async () => {
      await api.post('/v1/checks', nextPerson(), { 'Idempotency-Key': 'idem-2' });
      const res = await api.post('/v1/checks', nextPerson(), { 'Idempotency-Key': 'idem-2' });
      expect(res.status).toBe(422);
      expect(res.body).toMatchObject({ code: 422, error_code: 'idempotency_key_reused' });
    });

    it('keeps no claim for a request refused by validation (the corrected request goes through), and keys are per tenant', async () => {
      const bad = { country: 'XX', type: 'person' };
      const first = await api.post('/v1/checks', bad, { 'Idempotency-Key': 'idem-3' });
      expect(first.status).toBe(400);
      const corrected = await api.post('/v1/checks', nextPerson(), { 'Idempotency-Key': 'idem-3' });
      expect(corrected.status).toBe(201);
      expect(corrected.headers.get('idempotent-replayed')).toBeNull();
      const again = await api.post('/v1/checks', bad, { 'Idempotency-Key': 'idem-3' });
      expect(again.status).toBe(422);
      const otherTenant = await api
        .withKey(tenantB.apiKey)
        .post('/v1/checks', nextPerson(), { 'Idempotency-Key': 'idem-3' });
      expect(otherTenant.status).toBe(201);
    });
  });
});
