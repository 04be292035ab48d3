import { randomUUID } from 'node:crypto';

import type { CheckRecord } from '@kyc/contracts';
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
  tenant,
  useRulesEngine,
} from './rules-engine-fixture';
import { checkRecord, finishedEvent, publish, ruleWithActions } from './support/rules-helpers';

/** Publishes a check's checks.check.finished and waits until account has recorded it. */
async function finished(check: CheckRecord): Promise<string> {
  const event = finishedEvent(check);
  await publish(producer, event);
  await eventually(
    async () => {
      const { rows } = await db().query(`SELECT 1 FROM account.finished_checks WHERE event_id = $1`, [event.id]);
      expect(rows).toHaveLength(1);
    },
    { timeoutMs: 20_000, intervalMs: 100 },
  );
  return event.id;
}

describe('rules dry run: POST /v1/bre/rules/{rule_id}/dry-run (account)', () => {
  useRulesEngine();

  it("refuses to evaluate a rule against another tenant's check (404, nothing of it answered)", async () => {
    const theirs = checkRecord(other.tenantId, { inputs: { national_id: '555000111', first_name: 'Secreta' } });
    await finished(theirs);
    const { ruleId } = await ruleWithActions(api, { '!!': [{ var: 'check_id' }] }, [
      { type: 'http_request', config: { url: `${receiver.url}/never` } },
    ]);

    const res = await api.postJson(`/v1/bre/rules/${ruleId}/dry-run`, { check_id: theirs.check_id });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: 404, error_code: 'finished_check_not_found' });
    expect(JSON.stringify(res.body)).not.toContain('555000111');
    expect(JSON.stringify(res.body)).not.toContain('Secreta');
    // The other tenant cannot try this tenant's rule either, even on its own check.
    const back = await otherApi.postJson(`/v1/bre/rules/${ruleId}/dry-run`, { check_id: theirs.check_id });
    expect(back.status).toBe(404);
    expect(back.body.error_code).toBe('rule_not_found');
  });

  it('says which actions would run for a finished check, and runs, records and sends nothing', async () => {
    const path = `/dry/${randomUUID()}`;
    const { ruleId, actionIds } = await ruleWithActions(api, { '!!': [{ var: 'never_set' }] }, [
      { name: 'Notify', type: 'http_request', config: { url: `${receiver.url}${path}` } },
      {
        name: 'Mail',
        type: 'email',
        status: 'disabled',
        config: { to: ['ops@example.test'], subject: 's', body: 'b' },
      },
      {
        name: 'Vehicle',
        type: 'create_check',
        config: { type: 'vehicle', country: 'CO', inputs: { license_plate: 'ABC123' } },
      },
    ]);
    const check = checkRecord(tenant.tenantId, { score: 0.3, inputs: { national_id: '7001', first_name: 'Ana' } });
    const eventId = await finished(check); // the saved condition does not match: no execution
    await api.request(
      'PUT',
      `/v1/bre/rules/${ruleId}`,
      { condition: CO_PERSON },
      { 'content-type': 'application/json' },
    );

    const res = await api.postJson(`/v1/bre/rules/${ruleId}/dry-run`, { check_id: check.check_id });
    expect(res.status).toBe(200);
    expect(res.body.dry_run).toMatchObject({
      rule_id: ruleId,
      rule_version: 2,
      draft: false,
      condition: CO_PERSON,
      check_id: check.check_id,
      event_id: eventId,
      matched: true,
      result: true,
      error: null,
      variables: { check_id: check.check_id, country: 'CO', score: 0.3, national_id: '7001', rule_depth: 0 },
      actions: [
        { action_id: actionIds[0], name: 'Notify', type: 'http_request', would_run: true, reason: null },
        { action_id: actionIds[1], type: 'email', status: 'disabled', would_run: false, reason: 'disabled' },
        { action_id: actionIds[2], type: 'create_check', would_run: true, reason: null },
      ],
    });

    // A draft condition, validated as on save, tried without saving it.
    const draft = await api.postJson(`/v1/bre/rules/${ruleId}/dry-run`, {
      check_id: check.check_id,
      condition: { '>': [{ var: 'score' }, 0.5] },
    });
    expect(draft.status).toBe(200);
    expect(draft.body.dry_run).toMatchObject({ draft: true, matched: false, result: false });
    expect(draft.body.dry_run.actions.map((a: any) => a.reason)).toEqual([
      'condition_false',
      'condition_false',
      'condition_false',
    ]);
    expect((await api.get(`/v1/bre/rules/${ruleId}`)).body.rule).toMatchObject({ version: 2, condition: CO_PERSON });

    // Form bodies too (the condition as JSON text).
    const form = await api.post(`/v1/bre/rules/${ruleId}/dry-run`, {
      check_id: check.check_id,
      condition: '{"in":[{"var":"first_name"},["Ana","Eva"]]}',
    });
    expect(form.status).toBe(200);
    expect(form.body.dry_run.matched).toBe(true);

    // Nothing ran: no execution for the rule, no request to the receiver, no job.
    await quiet(1_000);
    expect(await executionsOf(api, `rule_id=${ruleId}`)).toEqual([]);
    expect(receiver.to(path)).toHaveLength(0);
    const { rows: jobs } = await db().query(`SELECT count(*)::int AS n FROM account.jobs WHERE dedupe_key = ANY($1)`, [
      actionIds.map((id) => `bre:${eventId}:${id}`),
    ]);
    expect(jobs[0].n).toBe(0);
  });

  it('shows the depth limit and a condition that fails on the data, as the engine would record them', async () => {
    const { ruleId } = await ruleWithActions(api, { '==': [{ var: 'country' }, 'CO'] }, [
      {
        type: 'create_check',
        config: { type: 'person', country: 'CO', inputs: { national_id: '{{.national_id}}' } },
      },
    ]);
    const deep = checkRecord(tenant.tenantId, { rule_depth: 3 });
    await finished(deep);
    const res = await api.postJson(`/v1/bre/rules/${ruleId}/dry-run`, { check_id: deep.check_id });
    expect(res.body.dry_run).toMatchObject({ matched: true, actions: [{ would_run: false, reason: 'depth_limit' }] });

    const failing = await api.postJson(`/v1/bre/rules/${ruleId}/dry-run`, {
      check_id: deep.check_id,
      condition: { missing_some: [1, { var: 'not_a_list' }] }, // valid, but needs a list at run time
    });
    expect(failing.status).toBe(200);
    expect(failing.body.dry_run).toMatchObject({
      matched: false,
      error: expect.any(String),
      actions: [{ would_run: false, reason: 'condition_failed' }],
    });
  });

  it('refuses bad input with 400 naming the field, and unknown rules and checks with 404', async () => {
    const { ruleId } = await ruleWithActions(api, CO_PERSON, []);
    const missing = await api.postJson(`/v1/bre/rules/${ruleId}/dry-run`, {});
    expect(missing.status).toBe(400);
    expect(missing.body.fields.map((f: any) => f.field)).toContain('check_id');
    const bad = await api.postJson(`/v1/bre/rules/${ruleId}/dry-run`, {
      check_id: 'CHKx',
      condition: { regex: [{ var: 'country' }, 'C.*'] },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.fields).toEqual([expect.objectContaining({ field: 'condition' })]);
    expect((await api.postJson(`/v1/bre/rules/${ruleId}/dry-run`, { check_id: 'CHKnope' })).body).toMatchObject({
      code: 404,
      error_code: 'finished_check_not_found',
    });
    expect((await api.postJson('/v1/bre/rules/RULnope/dry-run', { check_id: 'CHKnope' })).status).toBe(404);
  });
});
