import { ApiClient, closeDb, db, eventually } from '@kyc/testing';

import { PassFixture, registerApplication, seedUser, startPass, TestApplication } from './support/pass-fixture';

/** POST /v1/oauth2/validations: restricted scope, allow-listed client, 1..100 items, idempotent by process_id. */
describe('pass: writing external validations', () => {
  let f: PassFixture;
  let allowed: TestApplication;
  let user: { email: string; phone: string };
  let client: ApiClient;
  let token: string;

  const approvedToken = async (a: TestApplication, scope: string) => {
    const started = await client.post('/v1/oauth2/bc-authorize', {
      client_id: a.client_id,
      client_secret: a.client_secret,
      login_hint: user.email,
      scope,
      binding_message: 'Write validations',
    });
    expect(started.status).toBe(200);
    const link = await eventually(async () => {
      const res = await f.operator.get(`/v1/admin/sandbox/messages?phone_number=${encodeURIComponent(user.phone)}`);
      const m = res.body.messages.find((x: { text: string }) =>
        x.text.includes(encodeURIComponent(started.body.auth_req_id)),
      );
      if (!m) throw new Error('no message yet');
      return /(https?:\/\/\S+)/.exec(m.text as string)![1];
    });
    await fetch(link.split('?')[0], {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ sig: new URL(link).searchParams.get('sig')!, decision: 'approve' }),
    });
    const tokens = await client.post('/v1/oauth2/token', {
      grant_type: 'urn:openid:params:grant-type:ciba',
      auth_req_id: started.body.auth_req_id,
      client_id: a.client_id,
      client_secret: a.client_secret,
    });
    expect(tokens.status).toBe(200);
    return tokens.body.access_token as string;
  };
  const write = (body: unknown, bearer = token) =>
    client.postJson('/v1/oauth2/validations', body, { authorization: `Bearer ${bearer}` });
  const doc = (over: Record<string, unknown> = {}) => ({
    type: 'document',
    resource_id: 'res-1',
    verified: true,
    document: { document_number: '123', document_type: 'passport', country: 'CO' },
    ...over,
  });
  const stored = async () =>
    (await db().query(`SELECT count(*)::int AS n FROM pass.external_validations`)).rows[0].n as number;

  beforeAll(async () => {
    f = await startPass();
    allowed = await registerApplication(f, { restricted_scopes: ['validations:write'] });
    user = await seedUser(f.operator);
    client = new ApiClient(f.pass.url);
    token = await approvedToken(allowed, 'openid validations:write');
  });

  afterAll(async () => {
    await f?.close();
    await closeDb();
  });

  it('writes document and face validations for the user behind the token', async () => {
    const res = await write({
      validations: [
        doc(),
        { type: 'face', resource_id: 'face-1', verified: false, face: { face_photo: 'https://x.example/f.jpg' } },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body.validations).toHaveLength(2);
    expect(res.body.validations[0]).toMatchObject({ type: 'document', resource_id: 'res-1', verified: true });
  });

  it('is idempotent with process_id: a replay of recorded ones answers 200 with an empty list', async () => {
    const body = { validations: [doc({ process_id: 'p-1' }), doc({ process_id: 'p-2' })] };
    expect((await write(body)).body.validations).toHaveLength(2);
    const before = await stored();
    const replay = await write(body);
    expect(replay.status).toBe(200);
    expect(replay.body.validations).toEqual([]);
    expect(await stored()).toBe(before);
  });

  it('refuses a client that is not allow-listed for validations:write, and a token without the scope', async () => {
    const plain = await registerApplication(f);
    const other = await approvedToken(plain, 'openid email');
    const res = await write({ validations: [doc()] }, other);
    expect(res.status).toBe(403);
    expect((await write({ validations: [doc()] }, 'nope')).status).toBe(401);
  });

  describe('refuses invalid input with 400 and stores nothing', () => {
    const cases: [string, unknown, string][] = [
      ['no items', { validations: [] }, 'validations'],
      ['more than 100 items', { validations: Array.from({ length: 101 }, () => doc()) }, 'validations'],
      ['an unknown type', { validations: [doc({ type: 'selfie' })] }, 'validations.0.type'],
      ['a missing resource_id', { validations: [doc({ resource_id: undefined })] }, 'validations.0.resource_id'],
      ['a non-boolean verified', { validations: [doc({ verified: 'yes' })] }, 'validations.0.verified'],
      ['a document item without document', { validations: [doc({ document: undefined })] }, 'validations.0.document'],
      [
        'a document without document_number',
        { validations: [doc({ document: { document_type: 'passport' } })] },
        'validations.0.document.document_number',
      ],
      [
        'a face item without face',
        { validations: [{ type: 'face', resource_id: 'f', verified: true }] },
        'validations.0.face',
      ],
    ];
    it.each(cases)('%s', async (_what, body, field) => {
      const before = await stored();
      const res = await write(body);
      expect(res.status).toBe(400);
      expect(res.body.fields.map((x: { field: string }) => x.field)).toContain(field);
      expect(await stored()).toBe(before);
    });
  });
});
