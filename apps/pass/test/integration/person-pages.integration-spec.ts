import { randomUUID } from 'node:crypto';
import path from 'node:path';

import { ApiClient, closeDb, eventually } from '@kyc/testing';
import { Browser, BrowserContext, Page, Response } from 'playwright-core';

import {
  launchBrowser,
  PassFixture,
  registerApplication,
  seedUser,
  signInAndConsent,
  startPass,
  TestApplication,
} from './support/pass-fixture';

const AXE = require.resolve('axe-core/axe.min.js');

/** With PASS_PAGE_SCREENSHOTS=<dir> (off in CI), the Spanish pages as <dir>/pass-<name>.png, phone-sized. */
const screenshot = async (page: Page, lang: string, name: string) => {
  const dir = process.env.PASS_PAGE_SCREENSHOTS;
  if (dir && lang === 'es') await page.screenshot({ path: path.join(dir, `pass-${name}.png`), fullPage: true });
};

/** What each language's pages say (a few words of each page: the right catalog was used). */
const TEXT = {
  es: {
    signIn: 'Inicia sesión en Acme web',
    mail: 'Tu código para iniciar sesión',
    code: 'Revisa tu correo',
    wrong: 'Ese código no es correcto',
    resent: 'Te enviamos un código nuevo',
    consent: 'Acme web quiere acceder a tus datos',
    owner: 'Acme web es una aplicación de acme.',
    expired: 'Este inicio de sesión expiró',
    expiredText: 'Vuelve a Acme web y comienza de nuevo.',
    approval: 'Revisa la solicitud',
    requester: 'Acme web, de acme, te pide aprobar esta solicitud.',
    detail: 'Loan agreement',
    approved: 'Aprobaste la solicitud',
    decided: 'Ya respondiste esta solicitud',
    badLink: 'Este enlace no es válido',
    lockout: 'Demasiados intentos',
  },
  pt: {
    signIn: 'Entre em Acme web',
    mail: 'Seu código para entrar',
    code: 'Confira seu e-mail',
    wrong: 'Esse código não está certo',
    resent: 'Enviamos um código novo',
    consent: 'Acme web quer acessar seus dados',
    owner: 'Acme web é um aplicativo de acme.',
    expired: 'Esta entrada expirou',
    expiredText: 'Volte para Acme web e comece de novo.',
    approval: 'Revise a solicitação',
    requester: 'Acme web, de acme, pede que você aprove esta solicitação.',
    detail: 'Loan agreement',
    approved: 'Você aprovou a solicitação',
    decided: 'Você já respondeu esta solicitação',
    badLink: 'Este link não é válido',
    lockout: 'Tentativas demais',
  },
  en: {
    signIn: 'Sign in to Acme web',
    mail: 'Your sign-in code',
    code: 'Check your e-mail',
    wrong: 'That code is not right',
    resent: 'We sent you a new code',
    consent: 'Acme web wants to access your data',
    owner: 'Acme web is an application of acme.',
    expired: 'This sign-in expired',
    expiredText: 'Go back to Acme web and start again.',
    approval: 'Review the request',
    requester: 'Acme web, of acme, asks you to approve this request.',
    detail: 'Loan agreement',
    approved: 'You approved the request',
    decided: 'You already answered this request',
    badLink: 'This link is not valid',
    lockout: 'Too many attempts',
  },
} as const;
type Lang = keyof typeof TEXT;

/**
 * How a language is asked for: Spanish by the browser (Accept-Language), Portuguese by the application
 * (`ui_locales`, over an English browser), English by `ui_locales` over a Spanish browser.
 */
const ASKED: Record<Lang, { locale: string; uiLocales?: string }> = {
  es: { locale: 'es-CO' },
  pt: { locale: 'en-US', uiLocales: 'pt-BR' },
  en: { locale: 'es-CO', uiLocales: 'en' },
};

const FORM_FIELDS = [
  { name: 'amount', label: 'Monto', type: 'number', required: true },
  { name: 'purpose', label: 'Destino', type: 'select', options: ['Carro', 'Casa'], required: true },
  { name: 'accept', label: 'Acepto los términos', type: 'checkbox', required: true },
];

/**
 * The pages a person sees in pass, in Chromium, in Spanish, Portuguese and English: sign-in → code →
 * consent → callback, Back after consent, a sign-in link without its cookie, the CIBA approval page and its
 * decided, bad-link and lockout pages. Each page: text in the right language, no 5xx, the page headers,
 * and axe-core with no serious or critical violation; the English walk is done with the keyboard alone.
 */
describe('pass: the pages a person sees (es, pt, en)', () => {
  let f: PassFixture;
  let browser: Browser;
  let app: TestApplication;
  let client: ApiClient;
  const failures: string[] = [];

  /** A phone-sized context in the language's browser locale, watching every document it loads. */
  const open = async (lang: Lang): Promise<{ context: BrowserContext; page: Page }> => {
    // bypassCSP lets axe be injected; the CSP itself is asserted on every response's headers.
    const context = await browser.newContext({
      viewport: { width: 390, height: 844 },
      locale: ASKED[lang].locale,
      bypassCSP: true,
    });
    const page = await context.newPage();
    page.on('response', (r: Response) => {
      if (r.status() >= 500) failures.push(`${r.status()} ${r.url()}`);
      if (r.request().resourceType() === 'document' && r.status() < 300) checkHeaders(r);
    });
    return { context, page };
  };

  const checkHeaders = (r: Response) => {
    const h = r.headers();
    const where = `${r.status()} ${r.url()}`;
    if (!r.url().startsWith(f.pass.url)) return;
    if (h['x-frame-options'] !== 'DENY') failures.push(`no X-Frame-Options: ${where}`);
    if (!/frame-ancestors 'none'/.test(h['content-security-policy'] ?? ''))
      failures.push(`no frame-ancestors: ${where}`);
    if (h['x-content-type-options'] !== 'nosniff') failures.push(`no nosniff: ${where}`);
    if (h['referrer-policy'] !== 'no-referrer') failures.push(`no Referrer-Policy: ${where}`);
  };

  /** axe-core on the page as it is: no serious or critical violation. */
  const axe = async (page: Page) => {
    await page.addScriptTag({ path: AXE });
    const violations = await page.evaluate(async () => {
      const result = await (
        window as unknown as {
          axe: { run(): Promise<{ violations: { id: string; impact: string; nodes: { html: string }[] }[] }> };
        }
      ).axe.run();
      return result.violations
        .filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map((v) => `${v.id}: ${v.nodes.map((n) => n.html).join(' | ')}`);
    });
    expect(violations).toEqual([]);
  };

  const heading = (page: Page) => page.locator('h1').innerText();

  const authorizationUrl = (lang: Lang, email: string) => {
    const url = new URL(`${f.pass.url}/authorize`);
    url.search = new URLSearchParams({
      client_id: app.client_id,
      redirect_uri: app.redirect_uri,
      response_type: 'code',
      scope: 'openid email identity',
      state: randomUUID(),
      login_hint: email,
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      code_challenge_method: 'S256',
      ...(ASKED[lang].uiLocales ? { ui_locales: ASKED[lang].uiLocales } : {}),
    }).toString();
    return url.href;
  };

  const lastCode = async (email: string, after: number) => {
    const mail = await f.smtp.waitFor((m) => m.recipients.includes(email) && f.smtp.messages.indexOf(m) >= after);
    return /\b(\d{6})\b/.exec(mail.subject)![1];
  };

  const approvalLink = (phone: string, authReqId: string) =>
    eventually(async () => {
      const res = await f.operator.get(`/v1/admin/sandbox/messages?phone_number=${encodeURIComponent(phone)}`);
      const message = res.body.messages.find((m: { text: string }) => m.text.includes(encodeURIComponent(authReqId)));
      if (!message) throw new Error('no message yet');
      return /(https?:\/\/\S+)/.exec(message.text as string)![1];
    });

  beforeAll(async () => {
    f = await startPass({ OTP_MAX_ATTEMPTS_PER_SUBJECT: '4', RATE_LIMIT_CLIENT_BURST: '1000' });
    browser = await launchBrowser();
    app = await registerApplication(f);
    client = new ApiClient(f.pass.url);
  });

  afterAll(async () => {
    await browser?.close();
    await f?.close();
    await closeDb();
  });

  afterEach(() => {
    expect(failures.splice(0)).toEqual([]);
  });

  for (const lang of ['es', 'pt', 'en'] as const) {
    it(`${lang}: sign-in, code, consent, callback, then Back and a link without its cookie`, async () => {
      const t = TEXT[lang];
      const keyboard = lang === 'en';
      const user = await seedUser(f.operator);
      const { context, page } = await open(lang);

      // Sign-in: the e-mail of login_hint is already there.
      await page.goto(authorizationUrl(lang, user.email));
      expect(await heading(page)).toBe(t.signIn);
      expect(await page.getAttribute('html', 'lang')).toBe(lang);
      expect(await page.inputValue('#email')).toBe(user.email);
      await axe(page);
      await screenshot(page, lang, 'sign-in');
      let before = f.smtp.messages.length;
      if (keyboard) {
        await page.focus('#email');
        await page.keyboard.press('Enter');
      } else await page.click('#send-code');

      // Code: a wrong one says so; another code can be sent; the right one signs in.
      await page.waitForSelector('[data-page=code]');
      expect(await heading(page)).toBe(t.code);
      const first = await lastCode(user.email, before);
      // The e-mail is in the page's language too.
      expect(f.smtp.messages.filter((m) => m.recipients.includes(user.email)).at(-1)!.subject).toContain(t.mail);
      await axe(page);
      await screenshot(page, lang, 'code');
      await page.fill('#code', String((Number(first) + 1) % 1_000_000).padStart(6, '0'));
      await page.click('#verify');
      await page.waitForSelector('#notice[data-code=invalid_code]');
      expect(await page.innerText('#notice')).toContain(t.wrong);
      await axe(page);
      await screenshot(page, lang, 'code-wrong');
      before = f.smtp.messages.length;
      await page.click('#resend');
      await page.waitForSelector('#notice[data-code=code_sent]');
      expect(await page.innerText('#notice')).toContain(t.resent);
      const code = await lastCode(user.email, before);
      if (keyboard) {
        await page.keyboard.type(code); // the code field has the focus
        await page.keyboard.press('Enter');
      } else {
        await page.fill('#code', code);
        await page.click('#verify');
      }

      // Consent: the application and its tenant; Allow is the primary button, Deny the secondary one.
      await page.waitForSelector('[data-page=consent]');
      expect(await heading(page)).toBe(t.consent);
      expect(await page.innerText('#owner')).toBe(t.owner);
      expect(await page.getAttribute('#deny', 'class')).toContain('secondary');
      expect((await page.getAttribute('#allow', 'class')) ?? '').not.toContain('secondary');
      await axe(page);
      await screenshot(page, lang, 'consent');
      if (keyboard) {
        await page.keyboard.press('Tab');
        expect(await page.evaluate(() => document.activeElement?.id)).toBe('allow');
        await page.keyboard.press('Enter');
      } else await page.click('#allow');
      await page.waitForURL(`${app.redirect_uri}**`);
      const callback = new URL(page.url());
      expect(callback.searchParams.get('code')).toBeTruthy();

      // Back after consent: the sign-in is over, the page says so and links back to the application.
      const back = await page.goBack();
      expect(back!.status()).toBeLessThan(500);
      expect(await heading(page)).toBe(t.expired);
      expect(await page.innerText('#message')).toBe(t.expiredText);
      expect(await page.getAttribute('#back', 'href')).toBe(new URL(app.redirect_uri).origin);
      await axe(page);
      await screenshot(page, lang, 'expired');

      // A sign-in link opened without its cookie (another browser): the same page, naming the application.
      const started = await open(lang);
      await started.page.goto(authorizationUrl(lang, user.email));
      await started.page.waitForSelector('[data-page=sign-in]');
      const elsewhere = await open(lang);
      const res = await elsewhere.page.goto(started.page.url());
      expect(res!.status()).toBe(400);
      expect(await heading(elsewhere.page)).toBe(t.expired);
      expect(await elsewhere.page.innerText('#message')).toBe(t.expiredText);
      // The resume link without its cookie (oidc-provider's own error): a page too, not a 500.
      const uid = new URL(started.page.url()).pathname.split('/').pop();
      const resume = await elsewhere.page.goto(`${f.pass.url}/authorize/${uid}`);
      expect(resume!.status()).toBe(400);
      expect(await heading(elsewhere.page)).toBe(t.expired);
      await axe(elsewhere.page);
      await elsewhere.context.close();
      await started.context.close();
      await context.close();
    }, 120_000);

    it(`${lang}: the CIBA approval page, its outcome, the decided link and a bad link`, async () => {
      const t = TEXT[lang];
      const user = await seedUser(f.operator);
      const started = await client.post('/v1/oauth2/bc-authorize', {
        client_id: app.client_id,
        client_secret: app.client_secret,
        login_hint: user.email,
        scope: 'openid approval:read',
        binding_message: 'Crédito 4821',
        authorization_details: JSON.stringify([
          { type: 'loan_agreement', amount_limit: 2000, currency: 'COP', form_fields: FORM_FIELDS },
        ]),
      });
      expect(started.status).toBe(200);
      const link = new URL(await approvalLink(user.phone, started.body.auth_req_id));
      if (ASKED[lang].uiLocales) link.searchParams.set('ui_locales', ASKED[lang].uiLocales);
      const { context, page } = await open(lang);
      await page.goto(link.href);
      expect(await heading(page)).toBe(t.approval);
      expect(await page.innerText('#requester')).toBe(t.requester);
      expect(await page.innerText('#binding_message')).toBe('Crédito 4821');
      // The details in words: no machine type, no JSON.
      expect(await page.innerText('#detail_0 h3')).toBe(t.detail);
      expect(await page.innerText('#detail_0 dd[data-member=amount_limit]')).toBe('2000');
      const text = await page.innerText('main');
      expect(text).not.toContain('loan_agreement');
      expect(text).not.toMatch(/[{}[\]"]/);
      await axe(page);
      await screenshot(page, lang, 'approval');
      // A required answer missing: the page again, the field marked, in the language.
      await page.fill('#field_amount', '1500');
      await page.selectOption('#field_purpose', 'Casa');
      await page.evaluate(() => document.querySelector('#approval_form')!.setAttribute('novalidate', ''));
      await page.click('#approve');
      await page.waitForSelector('#error_accept');
      await axe(page);
      await page.check('#field_accept');
      await page.click('#approve');
      await page.waitForSelector('#outcome');
      expect(await page.innerText('#outcome')).toBe(t.approved);
      await axe(page);
      await screenshot(page, lang, 'approved');

      // The same link again: already answered (not JSON, not a 404 in English).
      const again = await page.goto(link.href);
      expect(again!.status()).toBe(409);
      expect(await heading(page)).toBe(t.decided);
      await axe(page);
      await screenshot(page, lang, 'approval-decided');

      // A link with a wrong signature.
      const bad = new URL(link.href);
      bad.searchParams.set('sig', 'x'.repeat(43));
      const badRes = await page.goto(bad.href);
      expect(badRes!.status()).toBe(404);
      expect(await heading(page)).toBe(t.badLink);
      await axe(page);
      await screenshot(page, lang, 'bad-link');
      await context.close();
    }, 120_000);

    it(`${lang}: too many wrong codes lock the sign-in and say how long to wait`, async () => {
      const t = TEXT[lang];
      const user = await seedUser(f.operator);
      const { context, page } = await open(lang);
      await page.goto(authorizationUrl(lang, user.email));
      const before = f.smtp.messages.length;
      await page.click('#send-code');
      const code = await lastCode(user.email, before);
      const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
      for (let n = 0; n < 4 && !(await page.$('[data-page=lockout]')); n++) {
        await page.fill('#code', wrong);
        await page.click('#verify');
        await page.waitForSelector('#notice');
      }
      expect(await heading(page)).toBe(t.lockout);
      expect(await page.innerText('#notice')).toMatch(/1[45] (minutos|minutes)/);
      await axe(page);
      await screenshot(page, lang, 'lockout');
      await context.close();
    }, 90_000);
  }

  it('attack: another site frames the approval page to steal a click on Approve (clickjacking)', async () => {
    const user = await seedUser(f.operator);
    const started = await client.post('/v1/oauth2/bc-authorize', {
      client_id: app.client_id,
      client_secret: app.client_secret,
      login_hint: user.email,
      scope: 'openid',
      binding_message: 'Pay 10 USD',
    });
    expect(started.status).toBe(200);
    const link = await approvalLink(user.phone, started.body.auth_req_id);
    // The attacker's page (another origin) puts the approval page in a frame under its own bait.
    const attacker = await browser.newContext();
    const evil = await attacker.newPage();
    await evil.goto(`${f.rpUrl}/evil`);
    // The frame's load event fires whether the browser shows the page or refuses it (an error page).
    await evil.evaluate(
      (src) =>
        new Promise<void>((resolve) => {
          const frame = document.createElement('iframe');
          frame.onload = () => resolve();
          frame.src = src;
          document.body.appendChild(frame);
        }),
      link,
    );
    const frame = evil.frames().find((fr) => fr !== evil.mainFrame());
    expect(frame ? await frame.$('#approve').catch(() => null) : null).toBeNull();
    await attacker.close();
  }, 60_000);

  it('Back after consent, then Allow again: a page, never a 500 (SessionNotFound)', async () => {
    const user = await seedUser(f.operator);
    const { context, page } = await open('es');
    await signInAndConsent(page, f.smtp, authorizationUrl('es', user.email), app.redirect_uri, user.email);
    const back = await page.goBack();
    expect(back!.status()).toBeLessThan(500);
    // A browser that shows the consent page again from its cache: pressing Allow again.
    if (await page.$('#allow')) {
      const [again] = await Promise.all([page.waitForNavigation(), page.click('#allow')]);
      expect(again!.status()).toBeLessThan(500);
    }
    expect(await heading(page)).toBe(TEXT.es.expired);
    await context.close();
  }, 90_000);

  it('es: a bad authorization request is a page for the person, with the code for the developer', async () => {
    const { context, page } = await open('es');
    const res = await page.goto(`${f.pass.url}/authorize?client_id=pc_unknown&response_type=code&scope=openid`);
    expect(res!.status()).toBe(400);
    expect(await heading(page)).toBe('No pudimos iniciar la sesión');
    expect(await page.locator('#error').textContent()).toBe('invalid_client');
    await axe(page);
    await screenshot(page, 'es', 'authorize-error');
    await context.close();
  }, 60_000);
});
