import { closeDb } from '@kyc/testing';
import { Browser, Page } from 'playwright-core';

import {
  accessLink,
  emailCode,
  fixture,
  FORM_STEP,
  launchBrowser,
  PageStack,
  processIdOf,
  startPageStack,
} from './support/page-stack';

const ENGINE_MS = 240_000;

/**
 * The end user's page in headless Chromium on the real services: form, e-mail code (read from the SMTP
 * sink), document (a TD1 card with a valid MRZ and a real portrait) and selfie, through the real
 * validations engines; the result on the page is the result of the API.
 */
describe('identity: the end user completes a process in the web page', () => {
  let s: PageStack;
  let browser: Browser;

  beforeAll(async () => {
    [s, browser] = await Promise.all([startPageStack(), launchBrowser()]);
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await s?.close();
    await closeDb();
  });

  async function walk(page: Page, link: string, selfie: string, email: string): Promise<string> {
    await page.goto(link);
    const id = (await processIdOf(page))!;
    try {
      await page.getByLabel('First name').fill('María José');
      await page.getByLabel('Last name').fill('Pérez Gómez');
      await page.getByRole('button', { name: 'Continue' }).click();

      await page.getByLabel('E-mail address').fill(email);
      await page.getByRole('button', { name: 'Send' }).click();
      const code = await emailCode(s, email);
      await page.getByLabel('Verification code').fill(code, { timeout: 60_000 });
      await page.getByRole('button', { name: 'Continue' }).click();

      await page.getByLabel('Country of the document').selectOption('CO', { timeout: 60_000 });
      await page.getByLabel('Document type').selectOption('national-id');
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.getByLabel('Front of the document').waitFor({ timeout: 60_000 });
      // docs/images/identity-page.png is taken here: IDENTITY_PAGE_SCREENSHOT=<path> (off in CI).
      if (process.env.IDENTITY_PAGE_SCREENSHOT) await page.screenshot({ path: process.env.IDENTITY_PAGE_SCREENSHOT });
      await page.getByLabel('Front of the document').setInputFiles(fixture('id-card-front.jpg'));
      await page.getByLabel('Back of the document').setInputFiles(fixture('id-card-reverse.jpg'));
      await page.getByRole('button', { name: 'Send' }).click();

      await page.getByRole('heading', { name: 'Your selfie' }).waitFor({ timeout: ENGINE_MS });
      await page.getByRole('button', { name: 'Continue' }).click();
      // The portrait on the document is enrolled first (the face model reads it): then the upload shows.
      await page.getByLabel('Selfie').setInputFiles(fixture(selfie), { timeout: ENGINE_MS });
      await page.getByRole('button', { name: 'Send' }).click();
      await page.locator('#result').waitFor({ timeout: ENGINE_MS });
      return id;
    } catch (err) {
      const state = await s.api.get(`/v1/processes/${id}`);
      throw new Error(`${(err as Error).message}\nprocess: ${JSON.stringify(state.body)}`);
    }
  }

  it(
    'form, e-mail code, document and matching selfie: success on the page and in GET /result, then the redirect',
    async () => {
      const { link } = await accessLink(
        s,
        [FORM_STEP, { type: 'email' }, { type: 'document' }, { type: 'face' }],
        'en',
      );
      const page = await browser.newPage();
      const id = await walk(page, link, 'selfie-match.jpg', `ana.${Date.now()}@example.com`);
      expect(await page.locator('#result').getAttribute('data-status')).toBe('success');
      expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe('Verification complete');

      const result = await s.api.get(`/v1/processes/${id}/result`);
      expect(result.status).toBe(200);
      expect(result.body).toMatchObject({ process_id: id, status: 'success' });
      expect(result.body.details.variables).toMatchObject({
        first_name: 'María José',
        last_name: 'Pérez Gómez',
        country: 'CO',
        document_type: 'national-id',
      });
      expect(result.body.details.validations.map((v: { type: string }) => v.type)).toEqual([
        'email',
        'document',
        'face',
      ]);
      expect(
        result.body.details.validations.every((v: { validation_status: string }) => v.validation_status === 'success'),
      ).toBe(true);

      await page.waitForURL(`${s.siteUrl}/done`, { timeout: 20_000 });
      await page.close();
    },
    ENGINE_MS * 3,
  );

  it(
    'the same flow with the selfie of another person ends in failure with its reason, on the page and in the API',
    async () => {
      const { link } = await accessLink(
        s,
        [FORM_STEP, { type: 'email' }, { type: 'document' }, { type: 'face' }],
        'en',
      );
      const page = await browser.newPage();
      const id = await walk(page, link, 'selfie-other.jpg', `other.${Date.now()}@example.com`);
      expect(await page.locator('#result').getAttribute('data-status')).toBe('failure');
      expect(await page.locator('#reason').innerText()).toContain('The face does not match the one on the document.');
      const result = await s.api.get(`/v1/processes/${id}/result`);
      expect(result.body).toMatchObject({
        status: 'failure',
        failure_status: 'declined',
        declined_reason: 'similarity_threshold_not_passed',
      });
      await page.close();
    },
    ENGINE_MS * 3,
  );
});
