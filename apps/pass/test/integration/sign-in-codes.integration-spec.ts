import { randomUUID } from 'node:crypto';
import { IncomingHttpHeaders, request } from 'node:http';

import { closeDb, db } from '@kyc/testing';

import { PassFixture, registerApplication, seedUser, startPass, TestApplication } from './support/pass-fixture';

/** A browser's sign-in interaction driven with fetch: the interaction's URL and its cookies. */
interface Interaction {
  uid: string;
  cookie: string;
}

const cookiesOf = (res: Response) =>
  res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');

/**
 * Sign-in codes under attack (issue 37): guesses are counted per code and per person atomically, a
 * person is locked out after too many and told so in plain words, codes sent are limited per address
 * and per client address.
 */
describe('pass: sign-in codes are throttled and locked out', () => {
  let f: PassFixture;
  let app: TestApplication;

  const start = async (a = app): Promise<Interaction> => {
    const url = new URL(`${f.pass.url}/authorize`);
    url.search = new URLSearchParams({
      client_id: a.client_id,
      redirect_uri: a.redirect_uri,
      response_type: 'code',
      scope: 'openid email',
      state: randomUUID(),
      // PKCE is on by default for new applications; the codes are never exchanged here.
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      code_challenge_method: 'S256',
    }).toString();
    const res = await fetch(url, { redirect: 'manual' });
    const location = res.headers.get('location');
    if (res.status !== 303 || !location) throw new Error(`no interaction: ${res.status} ${await res.text()}`);
    return { uid: new URL(location, f.pass.url).pathname.split('/').pop()!, cookie: cookiesOf(res) };
  };

  const post = (i: Interaction, path: string, form: Record<string, string>) =>
    fetch(`${f.pass.url}/interaction/${i.uid}/${path}`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'accept-language': 'en', cookie: i.cookie },
      body: new URLSearchParams(form).toString(),
    }).then(async (r) => ({ status: r.status, html: await r.text(), location: r.headers.get('location') }));

  const notice = (html: string) => /data-code="([^"]+)">([^<]*)</.exec(html)?.slice(1) ?? [];

  /** Sends a code to the e-mail; resolves with the code read from the SMTP sink. */
  const sendCode = async (i: Interaction, email: string) => {
    const before = f.smtp.messages.length;
    const res = await post(i, 'email', { email });
    if (res.status !== 200) return { res };
    const mail = await f.smtp.waitFor((m) => m.recipients.includes(email) && f.smtp.messages.indexOf(m) >= before);
    return { res, code: /\b(\d{6})\b/.exec(mail.subject)![1] };
  };

  const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

  beforeAll(async () => {
    f = await startPass({ OTP_ISSUE_PER_ADDRESS_PER_HOUR: '5' });
    app = await registerApplication(f);
  });

  afterAll(async () => {
    await f?.close();
    await closeDb();
  });

  it('evaluates at most the allowed guesses of a concurrent burst of wrong codes', async () => {
    const { email } = await seedUser(f.operator);
    const i = await start();
    const { code } = await sendCode(i, email);
    const burst = await Promise.all(Array.from({ length: 40 }, () => post(i, 'code', { code: wrong(code!) })));
    const evaluated = burst.filter((r) => notice(r.html)[0] === 'invalid_code').length;
    expect(evaluated).toBeLessThanOrEqual(5);
    const { rows } = await db().query(`SELECT attempts FROM pass.one_time_codes WHERE reference = $1`, [i.uid]);
    expect(rows.map((r) => r.attempts)).toEqual([5]);
  });

  it('counts wrong guesses per person across new codes, then locks them out and says so in plain words', async () => {
    const { email } = await seedUser(f.operator);
    const answers: string[] = [];
    // Each new code used to reset the count: 4 codes of 5 guesses were 20 guesses.
    for (let n = 0; n < 4 && !answers.includes('too_many_attempts'); n++) {
      const i = await start();
      const { code } = await sendCode(i, email);
      for (let g = 0; g < 5; g++) {
        const res = await post(i, 'code', { code: wrong(code!) });
        answers.push(notice(res.html)[0]);
        if (res.status === 429) break;
      }
    }
    // Ten wrong guesses in all (OTP_MAX_ATTEMPTS_PER_SUBJECT): the tenth tells the lockout.
    expect(answers.filter((a) => a === 'invalid_code' || a === 'code_attempts_used')).toHaveLength(9);
    expect(answers.at(-1)).toBe('too_many_attempts');

    // Locked: a new code is not sent, and the right code of a code sent before does not help either.
    const i = await start();
    const refused = await post(i, 'email', { email });
    expect(refused.status).toBe(429);
    const [code, text] = notice(refused.html);
    expect(code).toBe('too_many_attempts');
    expect(text).toMatch(
      /^To keep your account safe, sign-in with this e-mail is locked\. Try again in 1[45] minutes\.$/,
    );
    expect(text).not.toMatch(/expired/);
    const { rows } = await db().query(
      `SELECT count, strikes, locked_until > now() + interval '14 minutes' AS locked
         FROM pass.one_time_code_limits WHERE key = $1`,
      [`attempts:pass.sign-in:${email}`],
    );
    expect(rows[0]).toMatchObject({ strikes: 1, locked: true });
  });

  it('limits the codes sent to one address an hour, then tells the wait', async () => {
    const { email } = await seedUser(f.operator);
    const statuses: number[] = [];
    for (let n = 0; n < 6; n++) statuses.push((await sendCode(await start(), email)).res.status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    const refused = await post(await start(), 'email', { email });
    expect(refused.status).toBe(429);
    expect(notice(refused.html)).toEqual(['too_many_codes', expect.stringMatching(/Try again in 1[45] minutes\.$/)]);
    // Another address is not held back.
    const other = await seedUser(f.operator);
    expect((await sendCode(await start(), other.email)).res.status).toBe(200);
  });

  it('still signs a person in with the right code after a wrong one', async () => {
    const { email } = await seedUser(f.operator);
    const i = await start();
    const { code } = await sendCode(i, email);
    expect(notice((await post(i, 'code', { code: wrong(code!) })).html)[0]).toBe('invalid_code');
    const right = await post(i, 'code', { code: code! });
    expect(right.status).toBe(303);
    const again = await post(i, 'code', { code: code! });
    expect(notice(again.html)[0]).toBe('code_expired');
  });
});

describe('pass: codes asked for from one client address are limited', () => {
  let f: PassFixture;

  afterAll(async () => {
    await f?.close();
    await closeDb();
  });

  it('refuses codes past OTP_ISSUE_PER_CLIENT_PER_HOUR from one address, whatever e-mail they go to', async () => {
    // The codes of the suite before came from this address too.
    await db().query(`DELETE FROM pass.one_time_code_limits WHERE key LIKE 'issue:pass.sign-in:client:%'`);
    f = await startPass({ OTP_ISSUE_PER_CLIENT_PER_HOUR: '3' });
    const app = await registerApplication(f);
    const statuses: number[] = [];
    for (let n = 0; n < 4; n++) {
      const url = new URL(`${f.pass.url}/authorize`);
      url.search = new URLSearchParams({
        client_id: app.client_id,
        redirect_uri: app.redirect_uri,
        response_type: 'code',
        scope: 'openid email',
        state: randomUUID(),
        code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
        code_challenge_method: 'S256',
      }).toString();
      const res = await fetch(url, { redirect: 'manual' });
      const cookie = cookiesOf(res);
      const uid = new URL(res.headers.get('location')!, f.pass.url).pathname.split('/').pop();
      const sent = await fetch(`${f.pass.url}/interaction/${uid}/email`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
        body: new URLSearchParams({ email: `someone${n}.${Date.now()}@example.com` }).toString(),
      });
      statuses.push(sent.status);
      if (sent.status === 429) expect(await sent.text()).toContain('data-code="too_many_codes"');
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
  });
});

describe('pass: the pages are rate limited per client address', () => {
  let f: PassFixture;
  let app: TestApplication;

  beforeAll(async () => {
    // A bucket of 5 that refills one request per 20 s: nothing comes back during the test.
    f = await startPass({
      RATE_LIMIT_CLIENT_PER_SECOND: '0.05',
      RATE_LIMIT_CLIENT_BURST: '5',
      RATE_LIMIT_SYNC_MS: '50',
    });
    app = await registerApplication(f);
  });

  afterAll(async () => {
    await f?.close();
    await closeDb();
  });

  /** GET /authorize from a local address of our choice (each its own client address). */
  const authorize = (localAddress: string) =>
    new Promise<{ status: number; headers: IncomingHttpHeaders; body: string }>((resolve, reject) => {
      const url = new URL(`${f.pass.url}/authorize`);
      url.search = new URLSearchParams({
        client_id: app.client_id,
        redirect_uri: app.redirect_uri,
        response_type: 'code',
        scope: 'openid',
        state: randomUUID(),
        code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
        code_challenge_method: 'S256',
      }).toString();
      request(url, { localAddress }, (res) => {
        let body = '';
        res.on('data', (c) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
      })
        .on('error', reject)
        .end();
    });

  it('refuses a client address past its bucket with 429 and Retry-After in the envelope; others, probes and OAuth clients go on', async () => {
    const statuses: number[] = [];
    for (let n = 0; n < 6; n++) statuses.push((await authorize('127.0.0.1')).status);
    expect(statuses).toEqual([303, 303, 303, 303, 303, 429]);
    const refused = await authorize('127.0.0.1');
    expect(refused.status).toBe(429);
    expect(JSON.parse(refused.body)).toEqual({
      code: 429,
      status: 'Too Many Requests',
      message: expect.stringContaining('for this client address'),
      error_code: 'too_many_requests',
    });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(refused.headers['ratelimit-limit']).toBe('5');
    expect(refused.headers['ratelimit-remaining']).toBe('0');

    // Another client address has its own bucket.
    expect((await authorize('127.0.0.2')).status).toBe(303);
    // Probes and the OAuth client routes (client credentials, bearer tokens) are not limited per address.
    expect((await fetch(`${f.pass.url}/livez`)).status).toBe(200);
    const token = await fetch(`${f.pass.url}/v1/oauth2/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        grant_type: 'authorization_code',
        code: 'x',
        client_id: app.client_id,
        client_secret: 'ps_no',
      }),
    });
    expect(token.status).toBe(401);
    expect((await fetch(`${f.pass.url}/v1/oauth2/userinfo`)).status).toBe(401);
    // The sign-in pages are limited too (the same bucket): the interaction page of the address is refused.
    const page = await fetch(`${f.pass.url}/interaction/some-uid`);
    expect(page.status).toBe(429);
  });
});
