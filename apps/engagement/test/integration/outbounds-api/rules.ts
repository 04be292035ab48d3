import { readdir } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';

import { eventually } from '@kyc/testing';

import { MediaUploadSpool } from '../../../src/outbounds/media-upload/media-upload-spool';
import { marketing } from '../support/engagement-helpers';
import {
  COPY,
  engagement,
  other,
  outboundCount,
  PHONE,
  QR,
  t,
  tenantId,
  URL_BUTTON,
  useOutboundsTenants,
} from '../support/outbounds-fixture';

describe('engagement outbounds: outbound rules and media uploads (sandbox provider)', () => {
  useOutboundsTenants();

  describe('outbound rules: every rule refused, nothing stored', () => {
    const long = (n: number) => 'x'.repeat(n);
    const auth = { category: 'AUTHENTICATION', content: undefined, var: undefined };
    const cases: [string, Record<string, unknown>, string][] = [
      ['outbound_name missing', { outbound_name: undefined }, 'outbound_name'],
      ['outbound_name over 512', { outbound_name: long(513) }, 'outbound_name'],
      ['waba_phone_number not a line of the account', { waba_phone_number: '+573999999999' }, 'waba_phone_number'],
      ['waba_phone_number not a phone', { waba_phone_number: 'abc' }, 'waba_phone_number'],
      ['category outside the enum', { category: 'PROMO' }, 'category'],
      ['language_code outside the enum', { language_code: 'fr' }, 'language_code'],
      ['template_type outside the enum', { template_type: 'AUDIO' }, 'template_type'],
      ['is_notification not a boolean', { is_notification: 'maybe' }, 'is_notification'],
      ['content over 1024', { content: long(1025), var: undefined }, 'content'],
      ['content missing for MARKETING', { content: undefined, var: undefined }, 'content'],
      ['content with a malformed variable', { content: 'Hola {{name}}', var: undefined }, 'content'],
      ['header_text over 60', { header_text: long(61) }, 'header_text'],
      [
        'header_text with two variables',
        { header_text: '{{.a}} {{.b}}', var: { name: { value: 'x' }, a: { value: 'a' }, b: { value: 'b' } } },
        'header_text',
      ],
      ['header_text on a media template', { template_type: 'IMAGE', header_text: 'Hola' }, 'header_text'],
      ['footer over 60', { footer: long(61) }, 'footer'],
      ['footer on AUTHENTICATION', { ...auth, footer: 'x' }, 'footer'],
      ['content on AUTHENTICATION (predefined)', { ...auth, content: 'Tu código {{.code}}' }, 'content'],
      ['header_text on AUTHENTICATION', { ...auth, header_text: 'x' }, 'header_text'],
      ['AUTHENTICATION with a media type', { ...auth, template_type: 'IMAGE', media_id: 'm1' }, 'template_type'],
      ['code_expiration_minutes 0', { ...auth, code_expiration_minutes: 0 }, 'code_expiration_minutes'],
      ['code_expiration_minutes 91', { ...auth, code_expiration_minutes: 91 }, 'code_expiration_minutes'],
      [
        'code_expiration_minutes not an integer',
        { ...auth, code_expiration_minutes: 'ten' },
        'code_expiration_minutes',
      ],
      ['code_expiration_minutes on MARKETING', { code_expiration_minutes: 10 }, 'code_expiration_minutes'],
      ['buttons on AUTHENTICATION', { ...auth, buttons: [QR('Sí')] }, 'buttons'],
      ['IMAGE without media_id', { template_type: 'IMAGE' }, 'media_id'],
      ['TEXT with media_id', { media_id: 'media123' }, 'media_id'],
      ['media_id never uploaded', { template_type: 'IMAGE', media_id: 'media-unknown' }, 'media_id'],
      ['no example for a variable', { var: undefined }, 'var.name'],
      [
        'an example for a variable the outbound does not have',
        { var: { name: { value: 'a' }, other: { value: 'b' } } },
        'var.other',
      ],
      ['an example that is not {value: string}', { var: { name: 'Ana' } }, 'var.name'],
      ['var not an object', { var: 'Ana' }, 'var'],
      ['buttons not an array', { buttons: 'QUICK_REPLY' }, 'buttons'],
      ['11 buttons', { is_notification: false, buttons: Array.from({ length: 11 }, (_, i) => QR(`R${i}`)) }, 'buttons'],
      [
        '3 URL buttons',
        { buttons: [URL_BUTTON, URL_BUTTON, URL_BUTTON], var: { name: { value: 'a' }, order: { value: '1' } } },
        'buttons',
      ],
      ['2 PHONE_NUMBER buttons', { buttons: [PHONE, PHONE] }, 'buttons'],
      [
        '2 COPY_CODE buttons',
        { buttons: [COPY, COPY], var: { name: { value: 'a' }, code: { value: '123' } } },
        'buttons',
      ],
      [
        'COPY_CODE on UTILITY',
        { category: 'UTILITY', buttons: [COPY], var: { name: { value: 'a' }, code: { value: '123' } } },
        'buttons',
      ],
      [
        'COPY_CODE example over 15',
        { buttons: [COPY], var: { name: { value: 'a' }, code: { value: long(16) } } },
        'var.code',
      ],
      ['QUICK_REPLY on a notification', { is_notification: true, buttons: [QR('Sí')] }, 'buttons'],
      ['button text over 25', { is_notification: false, buttons: [QR(long(26))] }, 'buttons[0].text'],
      ['button text missing', { is_notification: false, buttons: [{ type: 'QUICK_REPLY' }] }, 'buttons[0].text'],
      [
        'COPY_CODE with a text',
        { buttons: [{ type: 'COPY_CODE', text: 'Copiar' }], var: { name: { value: 'a' }, code: { value: '1' } } },
        'buttons[0].text',
      ],
      ['button type outside the enum', { buttons: [{ type: 'CALL', text: 'x' }] }, 'buttons[0].type'],
      ['URL button without url', { buttons: [{ type: 'URL', text: 'Ver' }] }, 'buttons[0].url'],
      [
        'URL over 2000',
        { buttons: [{ type: 'URL', text: 'Ver', url: `https://a.example.com/${long(2000)}` }] },
        'buttons[0].url',
      ],
      [
        'URL with another scheme',
        { buttons: [{ type: 'URL', text: 'Ver', url: 'ftp://files.example.com/a' }] },
        'buttons[0].url',
      ],
      ['URL without a host', { buttons: [{ type: 'URL', text: 'Ver', url: 'https://' }] }, 'buttons[0].url'],
      [
        'URL with two variables',
        { buttons: [{ type: 'URL', text: 'Ver', url: 'https://a.example.com/{{.x}}/{{.y}}' }] },
        'buttons[0].url',
      ],
      [
        'URL variable not at the end',
        { buttons: [{ type: 'URL', text: 'Ver', url: 'https://a.example.com/{{.x}}/detail' }] },
        'buttons[0].url',
      ],
      [
        'PHONE_NUMBER without phone_number',
        { buttons: [{ type: 'PHONE_NUMBER', text: 'Llamar' }] },
        'buttons[0].phone_number',
      ],
      [
        'PHONE_NUMBER over 20',
        { buttons: [{ ...PHONE, phone_number: '+57 300 111 2233 4455 6' }] },
        'buttons[0].phone_number',
      ],
      [
        'grouping QUICK_REPLY,URL,QUICK_REPLY',
        {
          is_notification: false,
          buttons: [QR('a'), URL_BUTTON, QR('b')],
          var: { name: { value: 'a' }, order: { value: '1' } },
        },
        'buttons',
      ],
      [
        'grouping URL,QUICK_REPLY,URL',
        {
          is_notification: false,
          buttons: [URL_BUTTON, QR('a'), URL_BUTTON],
          var: { name: { value: 'a' }, order: { value: '1' } },
        },
        'buttons',
      ],
    ];

    it.each(cases)('refuses %s', async (_, overrides, field) => {
      const before = await outboundCount();
      const res = await t.api.postJson('/v1/msg/outbounds', marketing(t.line, overrides));
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 400, error_code: 'validation_failed' });
      expect(res.body.fields.map((f: { field: string }) => f.field)).toContain(field);
      expect(await outboundCount()).toBe(before);
    });

    it('refuses a header file of the wrong type for the template', async () => {
      const video = await t.api.postJson('/v1/msg/media', {
        waba_phone_number: t.line,
        media_type: 'VIDEO',
        mime_type: 'video/mp4',
        file: Buffer.from('fake mp4').toString('base64'),
      });
      expect(video.status).toBe(201);
      const res = await t.api.postJson(
        '/v1/msg/outbounds',
        marketing(t.line, { template_type: 'IMAGE', media_id: video.body.media_id }),
      );
      expect(res.status).toBe(400);
      expect(res.body.fields).toEqual([expect.objectContaining({ field: 'media_id' })]);
    });
  });

  describe('media upload', () => {
    const upload = (overrides: Record<string, unknown>) =>
      t.api.postJson('/v1/msg/media', {
        waba_phone_number: t.line,
        media_type: 'IMAGE',
        mime_type: 'image/png',
        file: Buffer.from('png bytes').toString('base64'),
        ...overrides,
      });

    it('uploads an image through the provider and uses it in an IMAGE outbound', async () => {
      const media = await upload({});
      expect(media.status).toBe(201);
      expect(media.body).toMatchObject({ media_type: 'IMAGE', mime_type: 'image/png', size_bytes: 9 });
      const created = await t.api.postJson(
        '/v1/msg/outbounds',
        marketing(t.line, { template_type: 'IMAGE', media_id: media.body.media_id }),
      );
      expect(created.status).toBe(201);
      expect(created.body.media_id).toBe(media.body.media_id);
    });

    it.each([
      ['an IMAGE that is not JPEG or PNG', { mime_type: 'image/gif' }, 'mime_type'],
      ['an IMAGE over 5 MB', { file: Buffer.alloc(5 * 1024 * 1024 + 1).toString('base64') }, 'file'],
      ['a VIDEO that is not MP4 or 3GPP', { media_type: 'VIDEO', mime_type: 'video/avi' }, 'mime_type'],
      [
        'a VIDEO over 16 MB',
        { media_type: 'VIDEO', mime_type: 'video/mp4', file: Buffer.alloc(16 * 1024 * 1024 + 1).toString('base64') },
        'file',
      ],
      ['a DOCUMENT with an invalid MIME type', { media_type: 'DOCUMENT', mime_type: 'not a mime' }, 'mime_type'],
      ['a TEXT media type', { media_type: 'TEXT' }, 'media_type'],
      ['a file that is not base64', { file: '%%%' }, 'file'],
    ])('refuses %s', async (_, overrides, field) => {
      const res = await upload(overrides);
      expect(res.status).toBe(400);
      expect(res.body.fields.map((f: { field: string }) => f.field)).toContain(field);
    });

    /** An upload whose body is sent in two halves: the second only when `finish` is called. */
    const heldUpload = (body: Buffer) => {
      const req = httpRequest(new URL('/v1/msg/media', engagement.url), {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'content-length': String(body.length),
          'service-api-key': t.api.apiKey!,
        },
      });
      const answer = new Promise<{ status: number; body: any }>((resolve, reject) => {
        req.on('response', (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString() || '{}') }),
          );
        });
        req.on('error', reject);
      });
      const half = Math.floor(body.length / 2);
      req.write(body.subarray(0, half));
      return {
        finish: () => {
          req.end(body.subarray(half));
          return answer;
        },
      };
    };
    const spoolFiles = async () => (await readdir(tmpdir())).filter((f) => f.startsWith('engagement-media-'));

    it('streams large files, and bounds the uploads a tenant has in progress (429 before the body is read)', async () => {
      const spool = engagement.app.get(MediaUploadSpool);
      // other processes on the machine may spool too: only the files this test adds must be gone
      const before = new Set(await spoolFiles());
      const bytes = Buffer.alloc(3 * 1024 * 1024 + 5, 7);
      const body = Buffer.from(
        JSON.stringify({
          waba_phone_number: t.line,
          media_type: 'DOCUMENT',
          mime_type: 'application/pdf',
          file: bytes.toString('base64'),
        }),
      );
      // The tenant's two slots (ENGAGEMENT_MEDIA_UPLOADS_PER_TENANT, default 2) are taken by uploads in progress.
      const held = [heldUpload(body), heldUpload(body)];
      await eventually(() => expect(spool.uploadsInProgress(tenantId)).toBe(2));
      const refused = await upload({});
      expect(refused.status).toBe(429);
      expect(refused.body).toMatchObject({ code: 429, error_code: 'too_many_uploads' });
      expect(refused.body.message).toContain('2 media uploads in progress');
      expect(refused.headers.get('retry-after')).toBe('1');
      // Another tenant is not held back.
      const others = await other.api.postJson('/v1/msg/media', {
        waba_phone_number: other.line,
        media_type: 'IMAGE',
        mime_type: 'image/png',
        file: Buffer.from('png bytes').toString('base64'),
      });
      expect(others.status).toBe(201);
      const done = await Promise.all(held.map((h) => h.finish()));
      expect(done.map((d) => [d.status, d.body.size_bytes])).toEqual([
        [201, bytes.length],
        [201, bytes.length],
      ]);
      await eventually(() => expect(spool.uploadsInProgress(tenantId)).toBe(0));
      expect((await upload({})).status).toBe(201);
      await eventually(async () => expect((await spoolFiles()).filter((f) => !before.has(f))).toEqual([]));
    });
  });
});
