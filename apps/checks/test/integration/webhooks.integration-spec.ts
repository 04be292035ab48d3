import { createHmac, hkdfSync, randomBytes } from 'node:crypto';

import { canonicalJson } from '@kyc/platform';
import { ApiClient, db, serviceEnv } from '@kyc/testing';

import { ChecksResources, useChecksResources } from './check-resources.setup';

/** Answers of webhook databases (POST /v1/webhooks/{webhook_type}). */
describe('checks: webhooks', () => {
  const ctx = useChecksResources();
  const { clock, runCheck } = ctx;
  let checks: ChecksResources['checks'];
  let api: ChecksResources['api'];
  beforeAll(() => {
    ({ checks, api } = ctx);
  });

  describe('POST /v1/webhooks/{webhook_type}', () => {
    const key = Buffer.from(serviceEnv('checks').CHECKS_CREDENTIALS_KEY, 'base64');
    const secret = (type: string) => Buffer.from(hkdfSync('sha256', key, 'checks-webhooks', type, 32));
    const sign = (type: string, body: unknown, at = clock.now(), withSecret = secret(type)) => {
      const t = Math.floor(at.getTime() / 1000);
      return `t=${t},v1=${createHmac('sha256', withSecret)
        .update(`${t}.${canonicalJson(body)}`)
        .digest('hex')}`;
    };
    const hook = (type: string, body: unknown, signature?: string) =>
      new ApiClient(checks.url).postJson(
        `/v1/webhooks/${type}`,
        body,
        signature ? { 'X-Webhook-Signature': signature } : {},
      );
    let reference: string;
    let checkId: string;

    beforeAll(async () => {
      // The nation-wide search of Brazil answers asynchronously (held back two days here).
      const check = await runCheck(api, {
        country: 'BR',
        type: 'person',
        national_id: '00011122286',
        date_of_birth: '1984-04-04',
        region: 'ALL',
      });
      checkId = check.check_id;
      expect(check.status).toBe('in_progress');
      reference = (
        await db().query(
          `SELECT reference FROM checks.check_databases WHERE check_id = $1 AND database_id = 'sandbox-br-tj-national'`,
          [checkId],
        )
      ).rows[0].reference;
    });

    const answer = () => ({
      reference,
      status: 'completed',
      answer: {
        kind: 'answer',
        records: [
          {
            data_set: 'criminal_record',
            found_by: 'id',
            severity: 'medium',
            kind: 'criminal_record_entry',
            fields: [{ key: 'court', value: 'TJMG Sandbox' }],
          },
        ],
      },
    });

    it('answers 404 for a webhook type no collector declared, signed or not', async () => {
      expect((await hook('nobody', answer())).status).toBe(404);
      const res = await hook('nobody', answer(), sign('nobody', answer()));
      expect(res.body).toMatchObject({ code: 404, error_code: 'unknown_webhook_type' });
    });

    it('refuses unsigned, forged, stale and tampered calls with 401, and changes nothing', async () => {
      expect((await hook('sandbox', answer())).body).toMatchObject({
        code: 401,
        error_code: 'missing_webhook_signature',
      });
      expect(
        (await hook('sandbox', answer(), sign('sandbox', answer(), clock.now(), randomBytes(32)))).body,
      ).toMatchObject({ code: 401, error_code: 'invalid_webhook_signature' });
      expect(
        (await hook('sandbox', answer(), sign('sandbox', answer(), new Date(clock.now().getTime() - 10 * 60_000))))
          .status,
      ).toBe(401);
      expect((await hook('sandbox', answer(), sign('sandbox', { ...answer(), status: 'failed' }))).status).toBe(401);
      expect((await hook('sandbox', answer(), 'v1=abc')).status).toBe(401);
      expect((await api.get(`/v1/checks/${checkId}`)).body.check.status).toBe('in_progress');
    });

    it('refuses a signed call with an unknown reference (404) or a malformed body (400 naming the field)', async () => {
      const unknown = { ...answer(), reference: 'REFnope' };
      expect((await hook('sandbox', unknown, sign('sandbox', unknown))).body).toMatchObject({
        code: 404,
        error_code: 'unknown_webhook_reference',
      });
      const malformed = { status: 'completed' };
      expect((await hook('sandbox', malformed, sign('sandbox', malformed))).body).toMatchObject({
        code: 400,
        fields: [{ field: 'reference', message: expect.any(String) }],
      });
    });

    it('records a signed answer once: the database completes and the check finishes', async () => {
      const res = await hook('sandbox', answer(), sign('sandbox', answer()));
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ received: true, outcome: 'recorded' });
      const check = (await api.get(`/v1/checks/${checkId}`)).body.check;
      expect(check.status).toBe('completed');
      expect(check.scores.find((s: any) => s.data_set === 'criminal_record')).toMatchObject({
        result: 'found',
        severity: 'medium',
      });
      const replay = await hook('sandbox', answer(), sign('sandbox', answer()));
      expect(replay.body).toEqual({ received: true, outcome: 'ignored' });
      expect(
        (
          await db().query(
            `SELECT count(*)::int AS n FROM checks.outbox WHERE message_key = $1 AND type = 'checks.check.finished'`,
            [checkId],
          )
        ).rows[0].n,
      ).toBe(1);
    });
  });
});
