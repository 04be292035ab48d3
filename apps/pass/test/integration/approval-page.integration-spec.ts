import { ApiClient, closeDb, db, eventually } from '@kyc/testing';
import { Browser } from 'playwright-core';

import {
  launchBrowser,
  PassFixture,
  registerApplication,
  seedUser,
  startPass,
  TestApplication,
} from './support/pass-fixture';

const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');

const FORM_FIELDS = [
  { name: 'amount', label: 'Amount', type: 'number', required: true },
  { name: 'purpose', label: 'Purpose', type: 'select', options: ['car', 'home'], required: true },
  { name: 'start', label: 'Start date', type: 'date' },
  { name: 'accept', label: 'I accept the terms', type: 'checkbox', required: true },
  { name: 'note', label: 'Note', type: 'text', max_length: 20 },
];

/**
 * The CIBA approval page of a rich request: binding message, authorization_details with their attachments
 * (staged by the same application for the same approver), the requested form, approve/decline; in Chromium.
 */
describe('pass: the CIBA approval page with a form and attachments', () => {
  let f: PassFixture;
  let browser: Browser;
  let app: TestApplication;
  let other: TestApplication;
  let user: { email: string; phone: string };
  let client: ApiClient;

  const stage = async (a: TestApplication, loginHint: string, upload = true) => {
    const staged = await client.post('/v1/oauth2/approval-attachments', {
      client_id: a.client_id,
      client_secret: a.client_secret,
      login_hint: loginHint,
      file_name: 'contract.pdf',
      content_type: 'application/pdf',
    });
    expect(staged.status).toBe(200);
    if (upload) {
      const put = await fetch(staged.body.upload_url, {
        method: 'PUT',
        headers: { 'content-type': 'application/pdf' },
        body: PDF,
      });
      expect(put.status).toBe(200);
    }
    return staged.body.s3_key as string;
  };
  const bcAuthorize = (details: unknown, a = app, loginHint = user.email) =>
    client.post('/v1/oauth2/bc-authorize', {
      client_id: a.client_id,
      client_secret: a.client_secret,
      login_hint: loginHint,
      scope: 'openid approval:read',
      binding_message: 'Loan 4821',
      authorization_details: typeof details === 'string' ? details : JSON.stringify(details),
    });
  const linkFor = (authReqId: string) =>
    eventually(async () => {
      const res = await f.operator.get(`/v1/admin/sandbox/messages?phone_number=${encodeURIComponent(user.phone)}`);
      const message = res.body.messages.find((m: { text: string }) => m.text.includes(encodeURIComponent(authReqId)));
      if (!message) throw new Error('no message yet');
      return /(https?:\/\/\S+)/.exec(message.text as string)![1];
    });
  const poll = (authReqId: string) =>
    client.post('/v1/oauth2/token', {
      grant_type: 'urn:openid:params:grant-type:ciba',
      auth_req_id: authReqId,
      client_id: app.client_id,
      client_secret: app.client_secret,
    });
  const outcomeOf = async (authReqId: string) => {
    const tokens = await poll(authReqId);
    expect(tokens.status).toBe(200);
    const res = await fetch(`${f.pass.url}/v1/oauth2/approval-outcome?auth_req_id=${encodeURIComponent(authReqId)}`, {
      headers: { authorization: `Bearer ${tokens.body.access_token}` },
    });
    expect(res.status).toBe(200);
    return res.json() as Promise<Record<string, unknown>>;
  };
  const outcomes = async (authReqId: string) =>
    (await db().query(`SELECT count(*)::int AS n FROM pass.approval_outcomes WHERE auth_req_id = $1`, [authReqId]))
      .rows[0].n as number;

  beforeAll(async () => {
    f = await startPass();
    browser = await launchBrowser();
    [app, other] = await Promise.all([registerApplication(f), registerApplication(f)]);
    user = await seedUser(f.operator);
    client = new ApiClient(f.pass.url);
  });

  afterAll(async () => {
    await browser?.close();
    await f?.close();
    await closeDb();
  });

  it('shows the binding message, the details and the attachment, takes the filled form and returns it as form_data', async () => {
    const s3Key = await stage(app, user.email);
    const started = await bcAuthorize([
      {
        type: 'loan_agreement',
        amount_limit: 2000,
        currency: 'COP',
        attachments: [{ s3_key: s3Key }],
        form_fields: FORM_FIELDS,
      },
    ]);
    expect(started.status).toBe(200);
    const page = await browser.newPage();
    await page.goto(await linkFor(started.body.auth_req_id));
    expect(await page.textContent('#binding_message')).toBe('Loan 4821');
    // The details in words (no machine type, no JSON): each member as a label and its value.
    expect(await page.textContent('#detail_0 h3')).toBe('Loan agreement');
    expect(await page.textContent('#detail_0 dd[data-member=amount_limit]')).toBe('2000');
    expect(await page.textContent('#detail_0 dd[data-member=currency]')).toBe('COP');
    const attachment = page.locator(`li.attachment[data-s3-key="${s3Key}"] a`);
    expect(await attachment.textContent()).toBe('contract.pdf');
    // the approver opens the attachment: the bytes that were uploaded, as a download
    const download = await fetch(new URL((await attachment.getAttribute('href'))!, f.pass.url));
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toBe('application/pdf');
    expect(download.headers.get('content-disposition')).toBe('attachment; filename="contract.pdf"');
    expect(Buffer.from(await download.arrayBuffer())).toEqual(PDF);
    // the browser does not submit an approval while a required field is empty
    await page.click('#approve');
    expect(await page.locator('#outcome').count()).toBe(0);
    expect(await outcomes(started.body.auth_req_id)).toBe(0);

    await page.fill('#field_amount', '1500.50');
    await page.selectOption('#field_purpose', 'home');
    await page.fill('#field_start', '2027-01-15');
    await page.check('#field_accept');
    await page.fill('#field_note', 'first house');
    await page.click('#approve');
    await page.waitForSelector('#outcome');
    await page.close();
    expect(await outcomeOf(started.body.auth_req_id)).toMatchObject({
      decision: 'approved',
      form_data: { amount: 1500.5, purpose: 'home', start: '2027-01-15', accept: true, note: 'first house' },
    });
  }, 90_000);

  it('declines without filling the required fields', async () => {
    const started = await bcAuthorize([{ type: 'loan_agreement', form_fields: FORM_FIELDS }]);
    const page = await browser.newPage();
    await page.goto(await linkFor(started.body.auth_req_id));
    await page.click('#decline');
    await page.waitForSelector('#outcome');
    await page.close();
    const denied = await poll(started.body.auth_req_id);
    expect(denied.body.error).toBe('access_denied');
  }, 60_000);

  it('refuses invalid answers posted to the page (shown again with the errors, nothing recorded)', async () => {
    const started = await bcAuthorize([{ type: 'loan_agreement', form_fields: FORM_FIELDS }]);
    const link = await linkFor(started.body.auth_req_id);
    const sig = new URL(link).searchParams.get('sig')!;
    const post = (fields: Record<string, string>) =>
      fetch(link.split('?')[0], {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ sig, decision: 'approve', ...fields }),
      });
    const valid = { field_amount: '10', field_purpose: 'car', field_accept: 'on' };
    const cases: [Record<string, string>, string][] = [
      [{ field_purpose: 'car', field_accept: 'on' }, 'amount'],
      [{ ...valid, field_amount: '12abc' }, 'amount'],
      [{ ...valid, field_purpose: 'boat' }, 'purpose'],
      [{ ...valid, field_start: '2027-02-30' }, 'start'],
      [{ field_amount: '10', field_purpose: 'car' }, 'accept'],
      [{ ...valid, field_note: 'x'.repeat(21) }, 'note'],
    ];
    for (const [fields, field] of cases) {
      const res = await post(fields);
      expect(res.status).toBe(400);
      expect(await res.text()).toContain(`id="error_${field}"`);
    }
    expect(await outcomes(started.body.auth_req_id)).toBe(0);
    expect((await poll(started.body.auth_req_id)).body.error).toBe('authorization_pending');
    const res = await post(valid);
    expect(res.status).toBe(200);
    // The client waited its interval: its previous poll is moved back in time (no 5 s real-time wait).
    await db().query(`UPDATE pass.oidc_models SET payload = '{"at":0}' WHERE model = 'CibaPoll' AND id = $1`, [
      started.body.auth_req_id,
    ]);
    expect((await outcomeOf(started.body.auth_req_id)).form_data).toEqual({ amount: 10, purpose: 'car', accept: true });
  }, 60_000);

  it('refuses attachments not staged by the application for that approver and uploaded (400 invalid_request, nothing sent)', async () => {
    const other_person = await seedUser(f.operator);
    const cases: [string, string][] = [
      ['approvals/unknown/key', 'not staged by this application'],
      [await stage(other, user.email), 'not staged by this application'],
      [await stage(app, other_person.email), 'another approver'],
      [await stage(app, user.email, false), 'not been uploaded'],
    ];
    const before = (await f.operator.get(`/v1/admin/sandbox/messages?phone_number=${encodeURIComponent(user.phone)}`))
      .body.messages.length;
    for (const [s3Key, reason] of cases) {
      const res = await bcAuthorize([{ type: 'contract', attachments: [{ s3_key: s3Key }] }]);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('invalid_request');
      expect(res.body.error_description).toContain(reason);
    }
    const after = (await f.operator.get(`/v1/admin/sandbox/messages?phone_number=${encodeURIComponent(user.phone)}`))
      .body.messages.length;
    expect(after).toBe(before);
  });

  it('refuses authorization_details that are not RFC 9396 or ask for a malformed form (400 invalid_request)', async () => {
    const cases: unknown[] = [
      'not json',
      '{"type":"x"}',
      [],
      [{ form_fields: [] }],
      [{ type: 'x', attachments: [{}] }],
      [{ type: 'x', form_fields: [{ name: 'Bad Name' }] }],
      [{ type: 'x', form_fields: [{ name: 'a', type: 'file' }] }],
      [{ type: 'x', form_fields: [{ name: 'a', type: 'select' }] }],
      [{ type: 'x', form_fields: [{ name: 'a' }, { name: 'a' }] }],
      [{ type: 'x', form_fields: [{ name: 'a', type: 'number', max_length: 3 }] }],
    ];
    for (const details of cases) {
      const res = await bcAuthorize(details);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('invalid_request');
    }
  });
});
