import { randomUUID } from 'node:crypto';

import {
  ApiClient,
  closeDb,
  createTenant,
  db,
  eventually,
  freePort,
  ServiceProcess,
  SmtpSink,
  startProcess,
  startSmtpSink,
  TestTenant,
} from '@kyc/testing';

import { Receiver, ruleWithActions, signatureMatches, startReceiver } from './support/rules-helpers';

/**
 * End to end across OS processes and real Kafka: a check created through the checks API finishes
 * in the checks service, `checks.check.finished` reaches the account service, and the tenant's
 * rules run their actions: an http_request to a local receiver (signed, templated) and an e-mail
 * to an SMTP sink, exactly once, also when account was down while the check finished. Rules
 * match on country and type (stable whatever the check engine scores).
 */
describe('rules engine end to end: checks process -> Kafka -> account process -> receiver', () => {
  const group = `account-rules-e2e-${randomUUID().slice(0, 8)}`;
  let checks: ServiceProcess;
  let account: ServiceProcess;
  let accountPort: number;
  let receiver: Receiver;
  let smtp: SmtpSink;
  let tenant: TestTenant;
  let rulesApi: ApiClient;
  let checksApi: ApiClient;
  let ruleId: string;
  const tag = randomUUID().slice(0, 8);
  const opsAddress = `ops-${tag}@acme.test`;

  const startAccount = () =>
    startProcess('account', accountPort, { KAFKA_CONSUMER_GROUP: group, ACCOUNT_SMTP_URL: smtp.url });
  const createCheck = async () => {
    const res = await checksApi.post('/v1/checks', {
      country: 'CO',
      type: 'person',
      user_authorized: 'true',
      first_name: 'Ana',
      national_id: `${Date.now()}${Math.floor(Math.random() * 1000)}`,
    });
    expect(res.status).toBe(201);
    return res.body.check.check_id as string;
  };
  const deliveries = (checkId: string) => receiver.to(`/e2e-${tag}/${checkId}`);
  const published = async (checkId: string) =>
    (
      await db().query(
        `SELECT count(*)::int AS n FROM checks.outbox WHERE message_key = $1 AND type = 'checks.check.finished' AND published_at IS NOT NULL`,
        [checkId],
      )
    ).rows[0].n as number;

  beforeAll(async () => {
    [receiver, smtp] = await Promise.all([startReceiver(), startSmtpSink()]);
    accountPort = await freePort();
    [checks, account] = await Promise.all([startProcess('checks', await freePort()), startAccount()]);
    tenant = await createTenant(account.url, [checks.url]);
    rulesApi = new ApiClient(account.url, tenant.apiKey);
    checksApi = new ApiClient(checks.url, tenant.apiKey);
    const CO_PERSON = { and: [{ '==': [{ var: 'country' }, 'CO'] }, { '==': [{ var: 'type' }, 'person'] }] };
    ({ ruleId } = await ruleWithActions(rulesApi, CO_PERSON, [
      {
        type: 'http_request',
        config: {
          url: `${receiver.url}/e2e-${tag}/{{.check_id}}`,
          body: '{"check_id": {{.check_id | json}}, "country": {{.country | json}}, "status": {{.status | json}}, "by": {{.env.SENDER | json}}}',
        },
        envs: [{ name: 'SENDER', value: 'kyc-e2e' }],
      },
      {
        type: 'email',
        config: {
          to: [opsAddress],
          subject: 'Check {{.check_id}} finished ({{.country}}, {{.type}})',
          body: 'Status: {{.status}}',
        },
      },
    ]));
    await ruleWithActions(rulesApi, { '==': [{ var: 'country' }, 'MX'] }, [
      { type: 'http_request', config: { url: `${receiver.url}/e2e-mx-${tag}` } },
    ]);
    await ruleWithActions(rulesApi, CO_PERSON, [
      { type: 'http_request', status: 'disabled', config: { url: `${receiver.url}/e2e-disabled-${tag}` } },
    ]);
  });

  afterAll(async () => {
    await Promise.all([checks?.kill(), account?.kill()]);
    await Promise.all([receiver?.close(), smtp?.close()]);
    await closeDb();
  });

  it('runs the matching rule exactly once: a signed request reaches the receiver and the e-mail reaches the SMTP sink', async () => {
    const checkId = await createCheck();
    const [req] = await eventually(
      () => {
        const got = deliveries(checkId);
        expect(got).toHaveLength(1);
        return got;
      },
      { timeoutMs: 60_000, intervalMs: 200 },
    );
    expect(JSON.parse(req.body)).toMatchObject({ check_id: checkId, country: 'CO', by: 'kyc-e2e' });
    const secret = (await rulesApi.get('/v1/bre/signing-secret')).body.signing_secret.secret;
    expect(signatureMatches(req.headers['x-signature'] as string, req.body, secret)).toBe(true);
    const mail = await smtp.waitFor((m) => m.subject.includes(checkId), 30_000);
    expect(mail.recipients).toEqual([opsAddress]);
    expect(mail.subject).toBe(`Check ${checkId} finished (CO, person)`);

    await new Promise((r) => setTimeout(r, 1_500));
    expect(deliveries(checkId)).toHaveLength(1);
    expect(smtp.messages.filter((m) => m.subject.includes(checkId))).toHaveLength(1);
    expect(receiver.to(`/e2e-mx-${tag}`)).toEqual([]);
    expect(receiver.to(`/e2e-disabled-${tag}`)).toEqual([]);
    const executions = (await rulesApi.get(`/v1/bre/executions?check_id=${checkId}`)).body.executions;
    expect(executions.map((e: any) => [e.rule_id, e.action_type, e.outcome]).sort()).toEqual([
      [ruleId, 'email', 'succeeded'],
      [ruleId, 'http_request', 'succeeded'],
    ]);
  });

  it('runs the action exactly once after account comes back, when it was down while the check finished', async () => {
    await account.kill('SIGTERM');
    const checkId = await createCheck();
    await eventually(async () => expect(await published(checkId)).toBe(1), { timeoutMs: 60_000, intervalMs: 200 });
    await new Promise((r) => setTimeout(r, 500));
    expect(deliveries(checkId)).toEqual([]);
    account = await startAccount();
    await eventually(() => expect(deliveries(checkId)).toHaveLength(1), { timeoutMs: 60_000, intervalMs: 200 });
    await smtp.waitFor((m) => m.subject.includes(checkId), 30_000);
    await new Promise((r) => setTimeout(r, 2_000));
    expect(deliveries(checkId)).toHaveLength(1);
    expect(smtp.messages.filter((m) => m.subject.includes(checkId))).toHaveLength(1);
  });

  it('does not lose or repeat actions when account is killed hard (SIGKILL) while checks finish', async () => {
    await account.kill('SIGKILL');
    const ids = [await createCheck(), await createCheck(), await createCheck()];
    await eventually(async () => expect(await Promise.all(ids.map(published))).toEqual([1, 1, 1]), {
      timeoutMs: 60_000,
      intervalMs: 200,
    });
    account = await startAccount();
    await eventually(() => expect(ids.map((id) => deliveries(id).length)).toEqual([1, 1, 1]), {
      timeoutMs: 60_000,
      intervalMs: 200,
    });
    await new Promise((r) => setTimeout(r, 1_500));
    expect(ids.map((id) => deliveries(id).length)).toEqual([1, 1, 1]);
  });
});
