import { rmSync } from 'node:fs';
import path from 'node:path';

import { closeDb } from '@kyc/testing';
import { Browser, Page } from 'playwright-core';

import { boxBlur, darken, decodeFixture, encodeJpeg, writeCameraVideos } from './support/fake-camera';
import {
  accessLink,
  emailCode,
  fixture,
  FORM_STEP,
  launchBrowser,
  launchCameraBrowser,
  pageLink,
  PageStack,
  phonePage,
  processIdOf,
  screenshot,
  startPageStack,
} from './support/page-stack';

const ENGINE_MS = 240_000;

/**
 * The end user's page in headless Chromium on the real services: form, e-mail code (read from the SMTP
 * sink), document (a TD1 card with a valid MRZ and a real portrait) and selfie, through the real
 * validations engines; the result on the page is the result of the API. `browser` has no camera (the
 * file picker walks); the camera browsers' fake cameras show Y4M videos made here from the same images
 * (Chromium reads one video file per launch: a sharp card, a blurred card, the selfie).
 */
describe('identity: the end user completes a process in the web page', () => {
  let s: PageStack;
  let browser: Browser;
  const camera: Record<'document' | 'blurred' | 'face', Browser> = {} as never;
  let videoDir: string | undefined;

  beforeAll(async () => {
    const card = decodeFixture(fixture('id-card-front.jpg'));
    const videos = writeCameraVideos({
      document: card,
      blurred: boxBlur(card, 6),
      face: decodeFixture(fixture('selfie-match.jpg')),
    });
    videoDir = path.dirname(videos.document);
    [s, browser, camera.document, camera.blurred, camera.face] = await Promise.all([
      startPageStack(),
      launchBrowser(),
      launchCameraBrowser(videos.document),
      launchCameraBrowser(videos.blurred),
      launchCameraBrowser(videos.face),
    ]);
  }, 300_000);

  afterAll(async () => {
    await Promise.all([browser, ...Object.values(camera)].map((b) => b?.close()));
    if (videoDir) rmSync(videoDir, { recursive: true, force: true });
    await s?.close();
    await closeDb();
  });

  const filesOf = (page: Page, id: string) =>
    page.evaluate((el) => (document.getElementById(el) as HTMLInputElement).files?.length ?? 0, id);

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

  it(
    'a selfie of another person goes straight back to the capture with the reason while the flow allows a retry; a matching one then completes',
    async () => {
      const { link } = await pageLink(
        s,
        [{ type: 'document' }, { type: 'face', validator_settings: { allowed_retries: 1 } }],
        'es',
      );
      const page = await browser.newPage();
      await page.goto(link);
      const id = (await processIdOf(page))!;
      try {
        await page.getByRole('button', { name: 'Continuar' }).click();
        await page.getByLabel('Frente del documento').setInputFiles(fixture('id-card-front.jpg'), { timeout: 60_000 });
        await page.getByLabel('Reverso del documento').setInputFiles(fixture('id-card-reverse.jpg'));
        await page.getByRole('button', { name: 'Enviar' }).click();
        await page.getByRole('heading', { name: 'Tu selfi' }).waitFor({ timeout: ENGINE_MS });
        await page.getByRole('button', { name: 'Continuar' }).click();
        await page.getByLabel('Selfi').setInputFiles(fixture('selfie-other.jpg'), { timeout: ENGINE_MS });
        await page.getByRole('button', { name: 'Enviar' }).click();

        // The comparison fails: the capture again, the reason in the person's language above it.
        const reason = page.locator('#retry-reason');
        await reason.waitFor({ timeout: ENGINE_MS });
        expect(await reason.innerText()).toBe('El rostro no coincide con el del documento. Toma la foto de nuevo.');
        expect(await reason.getAttribute('role')).toBe('alert');
        await screenshot(page, 'capture-retry');
        const retried = (await s.api.get(`/v1/processes/${id}`)).body;
        expect(retried).toMatchObject({ status: 'pending', current_step: 1 });
        expect(retried.steps[1]).toMatchObject({
          status: 'awaiting_validation',
          retry_reason: 'similarity_threshold_not_passed',
          retries_left: 0,
          retry_of_id: expect.any(String),
        });

        await page.getByLabel('Selfi').setInputFiles(fixture('selfie-match.jpg'));
        await page.getByRole('button', { name: 'Enviar' }).click();
        await page.locator('#result').waitFor({ timeout: ENGINE_MS });
        expect(await page.locator('#result').getAttribute('data-status')).toBe('success');
        expect(await page.locator('#outcomes li').allInnerTexts()).toEqual(['Documento leído', 'El rostro coincide']);
        expect((await s.api.get(`/v1/processes/${id}/result`)).body).toMatchObject({ status: 'success' });
        // The validation that passed retried the failed one, with passive liveness (spec: face retries need it).
        const face = (await s.api.get(`/v1/processes/${id}`)).body.steps[1];
        const v = await s.validationsApi.get(`/v1/validations/${face.validation_id}`);
        expect(v.body).toMatchObject({
          validation_status: 'success',
          retry_of_id: retried.steps[1].retry_of_id,
          subvalidations: ['similarity', 'passive_liveness'],
        });
      } catch (err) {
        const state = await s.api.get(`/v1/processes/${id}`);
        throw new Error(`${(err as Error).message}\nprocess: ${JSON.stringify(state.body)}`);
      }
      await page.close();
    },
    ENGINE_MS * 3,
  );

  describe('the camera', () => {
    it(
      'the front is taken automatically from a sharp frame and nothing leaves before Send; the selfie is taken by the front camera; the process completes with each outcome in words',
      async () => {
        const { link } = await pageLink(s, [{ type: 'document' }, { type: 'face' }], 'es');
        const page = await phonePage(camera.document);
        const uploads: string[] = [];
        page.on('request', (r) => {
          if (r.method() === 'PUT' && r.url().includes('/uploads/')) uploads.push(r.url());
        });
        await page.goto(link);
        const id = (await processIdOf(page))!;
        try {
          await page.getByRole('button', { name: 'Continuar' }).click();
          await page.locator('#camera[data-advice]').waitFor({ timeout: 60_000 });
          await screenshot(page, 'capture-document');
          await page.waitForFunction(
            () => (document.getElementById('field-front') as HTMLInputElement).files?.length === 1,
            undefined,
            { timeout: 30_000 },
          );
          // Taken: its preview with "retake", the camera waits for the back; nothing was uploaded.
          await page.getByRole('button', { name: 'Tomar otra vez: Frente del documento' }).waitFor();
          await page.getByRole('button', { name: 'Continuar con: Reverso del documento' }).waitFor();
          await screenshot(page, 'capture-preview');
          expect(uploads).toEqual([]);
          // The back from a file (this camera shows the front only): the picker stays available.
          await page.getByRole('button', { name: 'Elegir un archivo' }).click();
          await page.getByLabel('Reverso del documento').setInputFiles(fixture('id-card-reverse.jpg'));
          await page.locator('.preview').nth(1).waitFor();
          expect(uploads).toEqual([]);
          await page.getByRole('button', { name: 'Enviar' }).click();
          await page.getByRole('heading', { name: 'Tu selfi' }).waitFor({ timeout: ENGINE_MS });
          expect(uploads.map((u) => u.split('/').pop())).toEqual(['front', 'reverse']);
          await page.getByRole('button', { name: 'Continuar' }).click();
          await page.close();

          // The same link in the browser whose camera shows a face: the oval, then the selfie.
          const face = await phonePage(camera.face);
          await face.goto(link);
          // docs/images: the oval as the camera opens (the photo is taken within a second).
          if (process.env.IDENTITY_PAGE_SCREENSHOTS) {
            await face.locator('#camera[data-advice]').waitFor({ timeout: ENGINE_MS });
            await screenshot(face, 'capture-face');
          }
          await face.waitForFunction(
            () => (document.getElementById('field-selfie') as HTMLInputElement | null)?.files?.length === 1,
            undefined,
            { timeout: ENGINE_MS },
          );
          expect(await face.locator('.viewfinder.face').count()).toBe(1);
          await face.getByRole('button', { name: 'Enviar' }).click();
          await face.locator('#outcomes, #result').first().waitFor({ timeout: ENGINE_MS });
          if (await face.locator('.waiting').count()) {
            expect(await face.locator('#outcomes').innerText()).toContain('Documento leído');
            await screenshot(face, 'capture-waiting');
          }
          await face.locator('#result').waitFor({ timeout: ENGINE_MS });
          expect(await face.locator('#result').getAttribute('data-status')).toBe('success');
          const outcomes = await face.locator('#outcomes li').allInnerTexts();
          expect(outcomes).toEqual(['Documento leído', 'El rostro coincide']);
          await screenshot(face, 'capture-result');
          expect((await s.api.get(`/v1/processes/${id}/result`)).body).toMatchObject({ status: 'success' });
          await face.close();
        } catch (err) {
          const state = await s.api.get(`/v1/processes/${id}`);
          throw new Error(`${(err as Error).message}\nprocess: ${JSON.stringify(state.body)}`);
        }
      },
      ENGINE_MS * 3,
    );

    it('a blurred camera is refused with the advice shown, by the automatic capture and by the shutter', async () => {
      const { link } = await pageLink(s, [{ type: 'document' }], 'es');
      const page = await phonePage(camera.blurred);
      await page.goto(link);
      await page.getByRole('button', { name: 'Continuar' }).click();
      const advice = page.locator('#capture-advice');
      await advice.filter({ hasText: 'La foto está borrosa.' }).waitFor({ timeout: 60_000 });
      expect(await advice.getAttribute('aria-live')).toBe('polite');
      // After a few seconds the shutter shows; it refuses the blurred frame too.
      const shutter = page.getByRole('button', { name: 'Tomar la foto' });
      await shutter.waitFor({ timeout: 10_000 });
      await screenshot(page, 'capture-blurry');
      await shutter.click();
      expect(await advice.innerText()).toBe('La foto está borrosa.');
      expect(await filesOf(page, 'field-front')).toBe(0);
      expect(await page.locator('.preview').count()).toBe(0);
      await page.close();
    });

    it('without a camera the file picker stays, and a blurred or dark image is refused with the advice', async () => {
      const { link } = await pageLink(s, [{ type: 'document' }], 'en');
      const res = await fetch(link);
      expect(res.headers.get('permissions-policy')).toContain('camera=(self)');
      const page = await browser.newPage();
      const uploads: string[] = [];
      page.on('request', (r) => {
        if (r.method() === 'PUT' && r.url().includes('/uploads/')) uploads.push(r.url());
      });
      await page.goto(link);
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.locator('form[data-camera="off"]').waitFor({ timeout: 60_000 });
      expect(await page.locator('#status').innerText()).toBe(
        'We could not use the camera. Choose a photo from your device.',
      );
      const card = decodeFixture(fixture('id-card-front.jpg'));
      const front = page.getByLabel('Front of the document');
      const refusals: [Buffer, string][] = [
        [encodeJpeg(boxBlur(card, 6)), 'The photo is blurry.'],
        [encodeJpeg(darken(card, 0.2)), 'Too dark: find more light.'],
      ];
      for (const [buffer, message] of refusals) {
        await front.setInputFiles({ name: 'card.jpg', mimeType: 'image/jpeg', buffer });
        await page.locator('#field-front-error').filter({ hasText: message }).waitFor();
        expect(await front.getAttribute('aria-invalid')).toBe('true');
        expect(await filesOf(page, 'field-front')).toBe(0);
      }
      await front.setInputFiles(fixture('id-card-front.jpg'));
      await page.getByRole('button', { name: 'Take it again: Front of the document' }).waitFor();
      expect(await page.locator('#field-front-error').isHidden()).toBe(true);
      expect(uploads).toEqual([]);
      await page.close();
    });
  });
});
