import { randomUUID } from 'node:crypto';

import { db, eventually } from '@kyc/testing';

import {
  api,
  CO_PERSON,
  executionsOf,
  other,
  otherApi,
  producer,
  quiet,
  receiver,
  settled,
  smtp,
  tenant,
  useRulesEngine,
} from './rules-engine-fixture';
import { checkRecord, finishedEvent, publish, ruleWithActions, signatureMatches } from './support/rules-helpers';

describe('rules engine on checks.check.finished (account)', () => {
  useRulesEngine();

  it("runs a matching rule's http_request: templated URL, headers and body, env vars (secret too), signed", async () => {
    const path = `/hooks/${randomUUID()}`;
    const secret = `tok_${randomUUID()}`;
    const { ruleId, actionIds } = await ruleWithActions(api, CO_PERSON, [
      {
        type: 'http_request',
        config: {
          url: `${receiver.url}${path}/{{.check_id}}?q={{.first_name | urlquery}}`,
          headers: { Authorization: 'Bearer {{.API_TOKEN}}', 'X-Region': '{{.env.REGION}}' },
          body: '{"check": {{.check_id | json}}, "national_id": {{.national_id | json}}, "score": {{.score}}, "country": "{{.country}}"}',
        },
        envs: [
          { name: 'API_TOKEN', value: secret, is_secret: true },
          { name: 'REGION', value: 'co-1' },
        ],
      },
    ]);
    const check = checkRecord(tenant.tenantId, { inputs: { national_id: '900123', first_name: 'Ana María' } });
    const event = finishedEvent(check);
    await publish(producer, event);

    const [req] = await eventually(
      () => {
        const got = receiver.to(path);
        expect(got).toHaveLength(1);
        return got;
      },
      { timeoutMs: 20_000 },
    );
    expect(req.method).toBe('POST');
    expect(req.path).toBe(`${path}/${check.check_id}?q=Ana%20Mar%C3%ADa`);
    expect(JSON.parse(req.body)).toEqual({ check: check.check_id, national_id: '900123', score: 0.4, country: 'CO' });
    expect(req.headers).toMatchObject({
      authorization: `Bearer ${secret}`,
      'x-region': 'co-1',
      'content-type': 'application/json',
      'idempotency-key': `${event.id}:${actionIds[0]}`,
      'x-kyc-event-id': event.id,
    });
    const signingSecret = (await api.get('/v1/bre/signing-secret')).body.signing_secret.secret;
    expect(req.headers['x-signature']).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(signatureMatches(req.headers['x-signature'] as string, req.body, signingSecret)).toBe(true);
    expect(signatureMatches(req.headers['x-signature'] as string, `${req.body} `, signingSecret)).toBe(false);
    expect(
      signatureMatches(
        req.headers['x-signature'] as string,
        req.body,
        (await otherApi.get('/v1/bre/signing-secret')).body.signing_secret.secret,
      ),
    ).toBe(false);

    const [execution] = await settled(api, `rule_id=${ruleId}`);
    expect(execution).toMatchObject({
      rule_id: ruleId,
      rule_version: 1,
      action_id: actionIds[0],
      action_type: 'http_request',
      event_id: event.id,
      check_id: check.check_id,
      outcome: 'succeeded',
      attempts: 1,
      response_status: 200,
      error: null,
      depth: 0,
    });
    expect(execution.finished_at).toEqual(expect.any(String));
    expect(
      (await api.get(`/v1/bre/rules/${ruleId}/executions`)).body.executions.map((e: any) => e.execution_id),
    ).toEqual([execution.execution_id]);
    expect((await api.get(`/v1/bre/executions/${execution.execution_id}`)).body.execution.outcome).toBe('succeeded');
    expect((await otherApi.get(`/v1/bre/executions/${execution.execution_id}`)).status).toBe(404);
    const stored = JSON.stringify(
      (await db().query(`SELECT * FROM account.bre_executions WHERE id = $1`, [execution.execution_id])).rows,
    );
    expect(stored).not.toContain(secret);
  });

  it('does nothing for a rule that does not match, or for a disabled action', async () => {
    const tag = randomUUID();
    const matching = await ruleWithActions(api, CO_PERSON, [
      { type: 'http_request', config: { url: `${receiver.url}/match/${tag}` } },
    ]);
    const mx = await ruleWithActions(api, { '==': [{ var: 'country' }, 'MX'] }, [
      { type: 'http_request', config: { url: `${receiver.url}/mx/${tag}` } },
    ]);
    const disabled = await ruleWithActions(api, CO_PERSON, [
      { type: 'http_request', status: 'disabled', config: { url: `${receiver.url}/disabled/${tag}` } },
    ]);
    await publish(producer, finishedEvent(checkRecord(tenant.tenantId)));
    await settled(api, `rule_id=${matching.ruleId}`);
    await quiet(1_000);
    expect(receiver.to(`/mx/${tag}`)).toEqual([]);
    expect(receiver.to(`/disabled/${tag}`)).toEqual([]);
    expect(await executionsOf(api, `rule_id=${mx.ruleId}`)).toEqual([]);
    expect(await executionsOf(api, `rule_id=${disabled.ruleId}`)).toEqual([]);
    // No default: a plain action sends the event and its check as JSON.
    const [req] = receiver.to(`/match/${tag}`);
    expect(JSON.parse(req.body)).toMatchObject({
      event_type: 'checks.check.finished',
      rule_id: matching.ruleId,
      rule_version: 1,
      check: { country: 'CO', type: 'person', national_id: '1020304050' },
    });
  });

  it('never runs an action twice when the event is redelivered', async () => {
    const tag = randomUUID();
    const { ruleId } = await ruleWithActions(api, CO_PERSON, [
      { type: 'http_request', config: { url: `${receiver.url}/redelivered/${tag}` } },
    ]);
    const event = finishedEvent(checkRecord(tenant.tenantId));
    await publish(producer, event);
    await settled(api, `rule_id=${ruleId}`);
    await publish(producer, event, event);
    await quiet(1_500);
    expect(receiver.to(`/redelivered/${tag}`)).toHaveLength(1);
    expect(await executionsOf(api, `event_id=${event.id}&rule_id=${ruleId}`)).toHaveLength(1);
    // Earlier rules of this tenant match too: still one execution per action.
    const all = await executionsOf(api, `event_id=${event.id}`);
    expect(new Set(all.map((e) => e.action_id)).size).toBe(all.length);
  });

  it("never fires one tenant's rules on another tenant's checks", async () => {
    const tag = randomUUID();
    const { ruleId } = await ruleWithActions(api, true, [
      { type: 'http_request', config: { url: `${receiver.url}/isolation/${tag}` } },
    ]);
    const foreign = finishedEvent(checkRecord(other.tenantId));
    await publish(producer, foreign);
    // The other tenant's event is consumed (recorded) without touching this tenant's rules.
    await eventually(
      async () =>
        expect(
          (await db().query(`SELECT 1 FROM account.finished_checks WHERE event_id = $1`, [foreign.id])).rowCount,
        ).toBe(1),
      { timeoutMs: 20_000 },
    );
    await quiet(1_000);
    expect(receiver.to(`/isolation/${tag}`)).toEqual([]);
    expect(await executionsOf(api, `rule_id=${ruleId}`)).toEqual([]);
    expect(await executionsOf(otherApi, `event_id=${foreign.id}`)).toEqual([]);
  });

  it('retries 5xx answers with the same Idempotency-Key, and fails at once on a 4xx or after the last timeout', async () => {
    const tag = randomUUID();
    receiver.script(`/flaky/${tag}`, [503, 502]);
    receiver.script(`/reject/${tag}`, [422]);
    receiver.script(`/slow/${tag}`, ['slow', 'slow']);
    const flaky = await ruleWithActions(api, CO_PERSON, [
      { type: 'http_request', config: { url: `${receiver.url}/flaky/${tag}` } },
    ]);
    const reject = await ruleWithActions(api, CO_PERSON, [
      { type: 'http_request', config: { url: `${receiver.url}/reject/${tag}` } },
    ]);
    const slow = await ruleWithActions(api, CO_PERSON, [
      { type: 'http_request', config: { url: `${receiver.url}/slow/${tag}`, timeout_ms: 300, max_attempts: 2 } },
    ]);
    await publish(producer, finishedEvent(checkRecord(tenant.tenantId)));

    const [ok] = await settled(api, `rule_id=${flaky.ruleId}`);
    expect(ok).toMatchObject({ outcome: 'succeeded', attempts: 3, response_status: 200 });
    const attempts = receiver.to(`/flaky/${tag}`);
    expect(attempts).toHaveLength(3);
    expect(new Set(attempts.map((r) => r.headers['idempotency-key'])).size).toBe(1);
    expect(attempts[1].at - attempts[0].at).toBeGreaterThanOrEqual(700); // backoff: ~1 s, then ~2 s

    const [rejected] = await settled(api, `rule_id=${reject.ruleId}`);
    expect(rejected).toMatchObject({
      outcome: 'failed',
      attempts: 1,
      response_status: 422,
      error: expect.stringContaining('422'),
    });
    const [timedOut] = await settled(api, `rule_id=${slow.ruleId}`);
    expect(timedOut).toMatchObject({ outcome: 'failed', attempts: 2, error: 'no answer within 300 ms' });
    await quiet(1_500);
    expect(receiver.to(`/reject/${tag}`)).toHaveLength(1);
    expect((await executionsOf(api, `outcome=failed&rule_id=${reject.ruleId}`)).length).toBe(1);
    expect(await executionsOf(api, `outcome=succeeded&rule_id=${reject.ruleId}`)).toEqual([]);
  });

  it('sends an email action through SMTP with rendered recipients, subject and body', async () => {
    const to = `ops-${randomUUID().slice(0, 8)}@acme.test`;
    const { ruleId } = await ruleWithActions(api, CO_PERSON, [
      {
        type: 'email',
        config: {
          to: ['{{.OPS_EMAIL}}'],
          cc: ['audit@acme.test'],
          subject: 'Check {{.check_id}} finished: {{.status}}',
          body: 'Score {{.score}} for {{.first_name}} ({{.national_id}}).\nñandú ✓',
        },
        envs: [{ name: 'OPS_EMAIL', value: to }],
      },
    ]);
    const check = checkRecord(tenant.tenantId);
    await publish(producer, finishedEvent(check));
    const mail = await smtp.waitFor((m) => m.recipients.includes(to), 20_000);
    expect(mail.recipients.sort()).toEqual(['audit@acme.test', to].sort());
    expect(mail.subject).toBe(`Check ${check.check_id} finished: completed`);
    expect(mail.text).toBe('Score 0.4 for Ana (1020304050).\nñandú ✓');
    const [execution] = await settled(api, `rule_id=${ruleId}`);
    expect(execution).toMatchObject({ action_type: 'email', outcome: 'succeeded', response_status: 250 });
    expect(mail.headers['message-id']).toBe(`<${execution.execution_id}@rules.kyc.local>`);
  });
});
