import { ApiClient, closeDb, db, eventually } from '@kyc/testing';

import { PassFixture, registerApplication, seedUser, startPass, TestApplication } from './support/pass-fixture';

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64, 1)]);

/** Approval attachments (signed upload URL, type rules) and the approval outcome. */
describe('pass: approval attachments and outcome', () => {
  let f: PassFixture;
  let app: TestApplication;
  let user: { email: string; phone: string };
  let client: ApiClient;

  const stage = (over: Record<string, string> = {}) =>
    client.post('/v1/oauth2/approval-attachments', {
      client_id: app.client_id,
      client_secret: app.client_secret,
      login_hint: user.email,
      file_name: 'contract.pdf',
      content_type: 'application/pdf',
      ...over,
    });
  const put = (url: string, body: Buffer | string, contentType: string) =>
    fetch(url, { method: 'PUT', headers: { 'content-type': contentType }, body });
  const stagedCount = async () =>
    (await db().query(`SELECT count(*)::int AS n FROM pass.approval_attachments`)).rows[0].n as number;

  /** A CIBA request decided through the approval page's form; returns its auth_req_id. */
  const decided = async (scope: string, decision: 'approve' | 'decline', a = app) => {
    const started = await client.post('/v1/oauth2/bc-authorize', {
      client_id: a.client_id,
      client_secret: a.client_secret,
      login_hint: user.email,
      scope,
    });
    expect(started.status).toBe(200);
    const link = await eventually(async () => {
      const res = await f.operator.get(`/v1/admin/sandbox/messages?phone_number=${encodeURIComponent(user.phone)}`);
      const message = res.body.messages.find((m: { text: string }) =>
        m.text.includes(encodeURIComponent(started.body.auth_req_id)),
      );
      if (!message) throw new Error('no message yet');
      return /(https?:\/\/\S+)/.exec(message.text as string)![1];
    });
    const res = await fetch(link.split('?')[0], {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ sig: new URL(link).searchParams.get('sig')!, decision }),
    });
    expect(res.status).toBe(200);
    return started.body.auth_req_id as string;
  };
  const tokenFor = async (authReqId: string, a = app) =>
    (
      await client.post('/v1/oauth2/token', {
        grant_type: 'urn:openid:params:grant-type:ciba',
        auth_req_id: authReqId,
        client_id: a.client_id,
        client_secret: a.client_secret,
      })
    ).body.access_token as string;

  beforeAll(async () => {
    f = await startPass();
    app = await registerApplication(f);
    user = await seedUser(f.operator);
    client = new ApiClient(f.pass.url);
  });

  afterAll(async () => {
    await f?.close();
    await closeDb();
  });

  it('stages an attachment and takes the bytes on the signed upload URL, once', async () => {
    const res = await stage({ file_name: 'photo.png', content_type: 'image/png' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      upload_url: expect.stringContaining('sig='),
      s3_key: expect.stringMatching(/^approvals\//),
      expires_in: 600,
    });
    const uploaded = await put(res.body.upload_url, PNG, 'image/png');
    expect(uploaded.status).toBe(200);
    const row = (await db().query(`SELECT size FROM pass.approval_attachments WHERE s3_key = $1`, [res.body.s3_key]))
      .rows[0];
    expect(row.size).toBe(PNG.length);
    expect((await put(res.body.upload_url, PNG, 'image/png')).status).toBe(403);
  });

  it('refuses an upload URL whose signature was altered', async () => {
    const res = await stage({ file_name: 'photo.png', content_type: 'image/png' });
    expect((await put(res.body.upload_url.replace(/sig=.{4}/, 'sig=AAAA'), PNG, 'image/png')).status).toBe(403);
  });

  it('refuses content that is not what content_type says, and PDFs with scripts', async () => {
    const png = await stage({ file_name: 'photo.png', content_type: 'image/png' });
    expect((await put(png.body.upload_url, '<script>alert(1)</script>', 'image/png')).status).toBe(400);
    const pdf = await stage();
    const res = await put(
      pdf.body.upload_url,
      '%PDF-1.7 /OpenAction << /JavaScript (app.alert(1)) >>',
      'application/pdf',
    );
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error_code: 'active_content_refused' });
    const text = await stage({ file_name: 'notes.txt', content_type: 'text/plain' });
    expect((await put(text.body.upload_url, 'hello <script src=x></script>', 'text/plain')).status).toBe(400);
  });

  it('refuses more than 10 MiB', async () => {
    const res = await stage({ file_name: 'big.pdf' });
    const big = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(10 * 1024 * 1024)]);
    // Fastify answers 413 and may close the connection before the client finished sending.
    const answer = await put(res.body.upload_url, big, 'application/pdf').catch(() => undefined);
    if (answer) expect(answer.status).toBe(413);
    const row = (await db().query(`SELECT size FROM pass.approval_attachments WHERE s3_key = $1`, [res.body.s3_key]))
      .rows[0];
    expect(row.size).toBeNull();
  });

  describe('refuses invalid staging input with 400 and stores nothing', () => {
    const cases: [string, Record<string, string>, string][] = [
      ['a content type outside the list', { content_type: 'text/html', file_name: 'a.html' }, 'content_type'],
      ['an extension that does not match', { file_name: 'contract.exe' }, 'file_name'],
      ['a file name of more than 200 characters', { file_name: `${'a'.repeat(201)}.pdf` }, 'file_name'],
      ['a file name with a path', { file_name: '../etc/passwd.pdf' }, 'file_name'],
      ['a login_hint that is not an e-mail', { login_hint: 'someone' }, 'login_hint'],
    ];
    it.each(cases)('%s', async (_what, over, field) => {
      const before = await stagedCount();
      const res = await stage(over);
      expect(res.status).toBe(400);
      expect(res.body.fields.map((x: { field: string }) => x.field)).toContain(field);
      expect(await stagedCount()).toBe(before);
    });
  });

  it('answers 415, not 500, to a raw body (text/plain) on a route that reads JSON or form fields', async () => {
    for (const route of ['/v1/oauth2/approval-attachments', '/v1/oauth2/userinfo', '/v1/oauth2/validations']) {
      const res = await fetch(`${f.pass.url}${route}`, {
        method: 'POST',
        headers: { 'content-type': 'text/plain' },
        body: `client_id=${app.client_id}&file_name=0`,
      });
      expect({ route, status: res.status }).toEqual({ route, status: 415 });
    }
  });

  it('answers 401 bad_credentials for a wrong client secret', async () => {
    const res = await stage({ client_secret: 'ps_wrong' });
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ error_code: 'bad_credentials' });
  });

  it('gives the decision to the application with approval:read, and only to it', async () => {
    const declined = await decided('openid email', 'decline');
    const approved = await decided('openid approval:read', 'approve');
    const token = await tokenFor(approved);
    const outcome = (id: string, bearer = token) =>
      client.get(`/v1/oauth2/approval-outcome?auth_req_id=${encodeURIComponent(id)}`, {
        authorization: `Bearer ${bearer}`,
      });
    const own = await outcome(declined);
    expect(own.status).toBe(200);
    expect(own.body).toMatchObject({ auth_req_id: declined, decision: 'declined', form_data: {} });
    expect((await outcome(approved)).body.decision).toBe('approved');

    const other = await registerApplication(f);
    const otherToken = await tokenFor(await decided('openid approval:read', 'approve', other), other);
    expect((await outcome(declined, otherToken)).status).toBe(404);

    const noScope = await tokenFor(await decided('openid email', 'approve'));
    expect((await outcome(declined, noScope)).status).toBe(403);
    expect((await client.get(`/v1/oauth2/approval-outcome?auth_req_id=${declined}`)).status).toBe(401);
  });
});
