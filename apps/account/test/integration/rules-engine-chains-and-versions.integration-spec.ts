import { randomUUID } from 'node:crypto';

import { CheckRequestedPayload, TOPICS } from '@kyc/contracts';
import { db, eventually } from '@kyc/testing';

import {
  api,
  CO_PERSON,
  executionsOf,
  producer,
  receiver,
  settled,
  tenant,
  useRulesEngine,
} from './rules-engine-fixture';
import { checkRecord, finishedEvent, publish, ruleWithActions, signatureMatches } from './support/rules-helpers';

describe('rules engine on checks.check.finished (account)', () => {
  useRulesEngine();

  it('create_check: writes account.check.requested through the outbox with the mapped inputs, depth + 1, and links the created check', async () => {
    const { ruleId, actionIds } = await ruleWithActions(api, CO_PERSON, [
      {
        type: 'create_check',
        config: {
          type: 'vehicle',
          country: 'CO',
          inputs: {
            national_id: '{{.national_id}}',
            first_name: '{{.first_name}}',
            custom_input: 'from-{{.check_id}}',
            license_plate: '{{.license_plate}}',
          },
        },
      },
    ]);
    const check = checkRecord(tenant.tenantId, { rule_depth: 1 });
    await publish(producer, finishedEvent(check));
    const [execution] = await settled(api, `rule_id=${ruleId}`);
    expect(execution).toMatchObject({
      action_type: 'create_check',
      outcome: 'succeeded',
      depth: 1,
      created_check_id: null,
    });
    const { rows } = await db().query(
      `SELECT envelope, published_at FROM account.outbox WHERE type = 'account.check.requested' AND message_key = $1`,
      [execution.execution_id],
    );
    expect(rows).toHaveLength(1);
    const payload = rows[0].envelope.payload as CheckRequestedPayload;
    expect(payload).toEqual({
      tenant_id: tenant.tenantId,
      requested_by: tenant.adminUserId,
      rule_id: ruleId,
      rule_version: 1,
      action_id: actionIds[0],
      execution_id: execution.execution_id,
      source_event_id: execution.event_id,
      source_check_id: check.check_id,
      depth: 2,
      type: 'vehicle',
      country: 'CO',
      inputs: { national_id: '1020304050', first_name: 'Ana', custom_input: `from-${check.check_id}` },
      user_authorized: true,
    });
    await eventually(async () =>
      expect(
        (await db().query(`SELECT published_at FROM account.outbox WHERE message_key = $1`, [execution.execution_id]))
          .rows[0].published_at,
      ).not.toBeNull(),
    );

    // The checks service creates the check and replies with checks.rule-check.created.
    const createdCheckId = checkRecord(tenant.tenantId).check_id;
    await publish(producer, {
      id: randomUUID(),
      type: TOPICS.ruleCheckCreated,
      version: 1,
      tenant_id: tenant.tenantId,
      occurred_at: new Date().toISOString(),
      aggregate_id: execution.execution_id,
      payload: { execution_id: execution.execution_id, check_id: createdCheckId, command_id: randomUUID() },
    });
    await eventually(
      async () =>
        expect((await api.get(`/v1/bre/executions/${execution.execution_id}`)).body.execution.created_check_id).toBe(
          createdCheckId,
        ),
      { timeoutMs: 20_000 },
    );
  });

  it('stops a chain of create_check at the depth limit (skipped), while other actions still run', async () => {
    const tag = randomUUID();
    const { ruleId, actionIds } = await ruleWithActions(api, CO_PERSON, [
      { type: 'create_check', config: { type: 'person', country: 'CO', inputs: { national_id: '{{.national_id}}' } } },
      { type: 'http_request', config: { url: `${receiver.url}/deep/${tag}` } },
    ]);
    const check = checkRecord(tenant.tenantId, { rule_depth: 3 });
    await publish(producer, finishedEvent(check));
    const list = await settled(api, `rule_id=${ruleId}`, 2);
    const byAction = Object.fromEntries(list.map((e) => [e.action_id, e]));
    expect(byAction[actionIds[0]]).toMatchObject({
      outcome: 'skipped',
      attempts: 0,
      depth: 3,
      error: expect.stringContaining('depth limit'),
    });
    expect(byAction[actionIds[1]]).toMatchObject({ outcome: 'succeeded' });
    expect(
      (await db().query(`SELECT 1 FROM account.outbox WHERE message_key = $1`, [byAction[actionIds[0]].execution_id]))
        .rowCount,
    ).toBe(0);
    expect(receiver.to(`/deep/${tag}`)).toHaveLength(1);
    expect((await executionsOf(api, `outcome=skipped&action_id=${actionIds[0]}`)).length).toBe(1);
  });

  it('signs with both secrets during a rotation grace period', async () => {
    const before = (await api.get('/v1/bre/signing-secret')).body.signing_secret.secret;
    const after = (await api.post('/v1/bre/signing-secret/rotate', {})).body.signing_secret.secret;
    const tag = randomUUID();
    await ruleWithActions(api, CO_PERSON, [
      { type: 'http_request', config: { url: `${receiver.url}/rotated/${tag}` } },
    ]);
    await publish(producer, finishedEvent(checkRecord(tenant.tenantId)));
    const [req] = await eventually(
      () => {
        const got = receiver.to(`/rotated/${tag}`);
        expect(got).toHaveLength(1);
        return got;
      },
      { timeoutMs: 20_000 },
    );
    const header = req.headers['x-signature'] as string;
    expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64},v1=[0-9a-f]{64}$/);
    expect(signatureMatches(header, req.body, after)).toBe(true);
    expect(signatureMatches(header, req.body, before)).toBe(true);
    expect(header.split(',')[1]).not.toBe(header.split(',')[2]);
  });

  it('records the rule version that ran, and picks up changes made by another replica (reload on a state change)', async () => {
    const tag = randomUUID();
    const { ruleId } = await ruleWithActions(api, CO_PERSON, [
      { type: 'http_request', config: { url: `${receiver.url}/versions/${tag}` } },
    ]);
    await publish(producer, finishedEvent(checkRecord(tenant.tenantId)));
    await settled(api, `rule_id=${ruleId}`, 1);
    expect((await api.put(`/v1/bre/rules/${ruleId}`, { name: 'second version' })).body.rule.version).toBe(2);
    await publish(producer, finishedEvent(checkRecord(tenant.tenantId)));
    const list = await settled(api, `rule_id=${ruleId}`, 2);
    expect(list.map((e) => e.rule_version)).toEqual([2, 1]);

    // Another replica changes the condition (same SQL a replica's change commits) while this one has the rule cached.
    await db().query(`UPDATE account.bre_rules SET condition = $2::jsonb, version = 3 WHERE id = $1`, [
      ruleId,
      JSON.stringify({ '==': [{ var: 'country' }, 'PE'] }),
    ]);
    await db().query(`UPDATE account.bre_tenant_state SET rules_version = rules_version + 1 WHERE tenant_id = $1`, [
      tenant.tenantId,
    ]);
    await publish(producer, finishedEvent(checkRecord(tenant.tenantId)));
    await publish(producer, finishedEvent(checkRecord(tenant.tenantId, { country: 'PE' })));
    const after = await settled(api, `rule_id=${ruleId}`, 3);
    expect(after[0]).toMatchObject({ rule_version: 3 });
    expect(receiver.to(`/versions/${tag}`)).toHaveLength(3);
  });

  it('records a condition that fails on an event as a failed execution, without running the action', async () => {
    const tag = randomUUID();
    // Valid JSON-Logic, but missing_some needs a list at run time: here it gets null.
    const { ruleId } = await ruleWithActions(api, { missing_some: [1, { var: 'not_a_list' }] }, [
      { type: 'http_request', config: { url: `${receiver.url}/broken/${tag}` } },
    ]);
    await publish(producer, finishedEvent(checkRecord(tenant.tenantId)));
    const [execution] = await settled(api, `rule_id=${ruleId}`);
    expect(execution).toMatchObject({
      outcome: 'failed',
      attempts: 0,
      error: expect.stringContaining('the condition could not be evaluated'),
    });
    expect(receiver.to(`/broken/${tag}`)).toEqual([]);
  });

  it('skips an action disabled after the event was queued', async () => {
    const tag = randomUUID();
    receiver.script(`/late-disable/${tag}`, [503]);
    const { ruleId, actionIds } = await ruleWithActions(api, CO_PERSON, [
      { type: 'http_request', config: { url: `${receiver.url}/late-disable/${tag}` } },
    ]);
    await publish(producer, finishedEvent(checkRecord(tenant.tenantId)));
    await eventually(() => expect(receiver.to(`/late-disable/${tag}`)).toHaveLength(1), { timeoutMs: 20_000 });
    await api.put(`/v1/bre/rules/${ruleId}/actions/${actionIds[0]}`, { status: 'disabled' });
    const [execution] = await settled(api, `rule_id=${ruleId}`);
    expect(execution).toMatchObject({ outcome: 'skipped', error: 'the action was disabled before it ran' });
    expect(receiver.to(`/late-disable/${tag}`)).toHaveLength(1);
  });
});
