import { ApiClient, ContractRecorder } from '@kyc/testing';

import { contract } from '../contract/contract';
import { useChecksResources } from './check-resources.setup';

/**
 * Drives every route of Truora's published checks OpenAPI (test/contract/truora-checks-openapi.json)
 * against the service, on each documented status it can produce, and validates every answer
 * against the documented schema (the other checks suites are validated too, by the contract setup
 * of the integration config). Routes the document describes but the service does not serve are
 * listed: when the service starts answering one, this suite fails until it is driven here.
 */
describe('published checks OpenAPI contract', () => {
  const r = useChecksResources();
  let recorder: ContractRecorder;
  /** `METHOD template` of documented operations the service answers with "no such route". */
  const unserved = new Set<string>();

  beforeAll(() => {
    recorder = new ContractRecorder(contract, (baseUrl) => baseUrl === r.checks.url).start((o) => ApiClient.observe(o));
  });

  const expectValid = () => expect(recorder.report.violations).toEqual([]);

  it('checks: create (201, 400), list, read (200, 404), details, health, PDF', async () => {
    const body = { country: 'CO', type: 'person', user_authorized: 'true', force_creation: 'true' };
    const created = await r.api.post('/v1/checks', { ...body, national_id: '1000000002' });
    expect(created.status).toBe(201);
    expect((await r.api.post('/v1/checks', { type: 'person' })).status).toBe(400);
    const finished = await r.runCheck(r.api, { country: 'CO', type: 'person', national_id: '1000000006' });
    const skipped = await r.runCheck(r.api, { country: 'CO', type: 'vehicle', license_plate: 'ABC123' });
    for (const id of [created.body.check.check_id as string, finished.check_id, skipped.check_id]) {
      expect((await r.api.get(`/v1/checks/${id}`)).status).toBe(200);
      expect((await r.api.get(`/v1/checks/${id}/details`)).status).toBe(200);
    }
    expect((await r.api.get('/v1/checks/CHK00000000000000000000000000000000')).status).toBe(404);
    expect((await r.api.get('/v1/checks')).status).toBe(200);
    const now = Math.floor(r.clock.now().getTime() / 1000);
    const health = `/v1/checks/health?country=CO&unixTimestampSeconds=${now}&unixtimezoneOffsetSeconds=0`;
    expect((await r.api.get(health)).status).toBe(200);
    // Generation is asynchronous: 202 (a declared deviation from the published 200), then the file.
    expect((await r.api.post(`/v1/checks/${finished.check_id}/pdf`)).status).toBe(202);
    await r.jobs.drain();
    expect((await r.api.get(`/v1/checks/${finished.check_id}/pdf`)).status).toBe(200);
    expectValid();
  });

  it('custom types: create (201, 400), list, update, delete', async () => {
    const type = { country: 'CO', type: 'contract-type' };
    expect((await r.api.post('/v1/config', { ...type, dataset_personal_identity: '1' })).status).toBe(201);
    expect((await r.api.post('/v1/config', { country: 'CO' })).status).toBe(400);
    expect((await r.api.get('/v1/config')).status).toBe(200);
    expect((await r.api.put('/v1/config', { ...type, dataset_criminal_record: '1' })).status).toBe(200);
    expect((await r.api.delete('/v1/config?country=CO&type=contract-type')).status).toBe(200);
    expectValid();
  });

  it('continuous checks: create (201, 400), list, read, update, history', async () => {
    const check = await r.runCheck(r.api, { country: 'CO', type: 'person', national_id: '1000000001' });
    const created = await r.api.post('/v1/continuous-checks', {
      check_id: check.check_id,
      frequency: 'monthly',
      end_date: '2031-12-31',
    });
    expect(created.status).toBe(201);
    expect((await r.api.post('/v1/continuous-checks', { frequency: 'often' })).status).toBe(400);
    const id = created.body.continuous_check_id as string;
    expect((await r.api.get('/v1/continuous-checks')).status).toBe(200);
    expect((await r.api.get(`/v1/continuous-checks/${id}`)).status).toBe(200);
    expect((await r.api.put(`/v1/continuous-checks/${id}`, { frequency: 'weekly', status: 'disabled' })).status).toBe(
      200,
    );
    expect((await r.api.get(`/v1/continuous-checks/${id}/history`)).status).toBe(200);
    expectValid();
  });

  it('every documented route is driven or listed as not served, and each served success status was validated', async () => {
    // Any documented operation not driven above is probed: a service that starts answering it fails this test.
    for (const op of contract.documented) {
      const path = op.template.replace(/\{[^}]+\}/g, 'X00000000000000000000000000000000');
      const res = await r.api.request(op.method, path, op.method === 'GET' || op.method === 'DELETE' ? undefined : {});
      const message = (res.body as { message?: unknown } | undefined)?.message;
      if (res.status === 404 && typeof message === 'string' && /^Cannot [A-Z]+ /.test(message)) {
        unserved.add(`${op.method} ${op.template}`);
      }
    }
    expect([...unserved].sort()).toEqual([
      'DELETE /v1/hooks/{hook_id}',
      'GET /v1/hooks',
      'GET /v1/reports',
      'GET /v1/reports/{report_id}',
      'POST /v1/behavior',
      'POST /v1/hooks',
      'POST /v1/reports',
      'POST /v1/reports/{report_id}/upload',
      'PUT /v1/hooks/{hook_id}',
    ]);
    const served = contract.documented.filter((op) => !unserved.has(`${op.method} ${op.template}`));
    const answeredOtherwise = new Set(['POST /v1/checks/{check_id}/pdf 200']); // 202: see docs/services/checks.md
    const missing = served.flatMap((op) =>
      op.statuses
        .filter((s) => s.startsWith('2') && !recorder.report.covered.has(`${op.method} ${op.template} ${s}`))
        .filter((s) => !answeredOtherwise.has(`${op.method} ${op.template} ${s}`))
        .map((s) => `${op.method} ${op.template} ${s}`),
    );
    expect(missing).toEqual([]);
    expectValid();
  });
});
