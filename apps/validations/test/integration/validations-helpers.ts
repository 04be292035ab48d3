import { randomUUID } from 'node:crypto';
import { crc32 } from 'node:zlib';

import type { ServiceOptions } from '@kyc/platform';
import {
  ApiClient,
  createTenant,
  eventually,
  freePort,
  mintKey,
  signer,
  SmtpSink,
  startInProcess,
  startProcess,
  startSmtpSink,
  TestTenant,
} from '@kyc/testing';

import { validationsService } from '../../src/app.module';

export interface ValidationsStack {
  account: Awaited<ReturnType<typeof startProcess>>;
  validations: Awaited<ReturnType<typeof startInProcess>>;
  smtp: SmtpSink;
  tenant: TestTenant;
  api: ApiClient;
  /** Operator client (platform admin token). */
  operator: ApiClient;
  close(): Promise<void>;
}

/** Account (tenants, users) + validations with an SMTP sink, and a tenant whose key validations accepts. */
export async function startValidationsStack(
  env: Record<string, string> = {},
  options: ServiceOptions = {},
): Promise<ValidationsStack> {
  const smtp = await startSmtpSink();
  // The account service runs as its own process (from dist/, like the stack): tests use it over HTTP only.
  const [account, validations] = await Promise.all([
    freePort().then((port) =>
      startProcess('account', port, { KAFKA_CONSUMER_GROUP: `account-${randomUUID().slice(0, 8)}` }),
    ),
    startInProcess(
      'validations',
      validationsService,
      {
        VALIDATIONS_SMTP_URL: smtp.url,
        VALIDATIONS_SECRET_KEY: 'integration-test-secret-key',
        JOBS_POLL_MS: '100',
        ...env,
      },
      options,
    ),
  ]);
  const tenant = await createTenant(account.url, [validations.url]);
  return {
    account,
    validations,
    smtp,
    tenant,
    api: new ApiClient(validations.url, tenant.apiKey),
    operator: new ApiClient(validations.url, await signer().platformAdminToken('test-operator')),
    close: async () => {
      await Promise.all([validations.close(), account.close()]);
      await smtp.close();
    },
  };
}

/** A key of the tenant's admin issued at `iat` (seconds). */
export const keyIssuedAt = (tenant: TestTenant, iat: number) =>
  mintKey({ tenant_id: tenant.tenantId, sub: tenant.adminUserId, ver: 1, iat });

/** Expects the service error envelope with a status (and error_code / offending field when given). */
export function expectError(res: { status: number; body: any }, status: number, errorCode?: string, field?: string) {
  expect({ status: res.status, code: res.body?.code }).toEqual({ status, code: status });
  expect(typeof res.body.message).toBe('string');
  if (errorCode) expect(res.body.error_code).toBe(errorCode);
  if (field) expect((res.body.fields ?? []).map((f: { field: string }) => f.field)).toContain(field);
}

/** Waits for a validation to leave pending (job queue) and returns it. */
export async function waitFinished(api: ApiClient, id: string, timeoutMs = 30_000) {
  return eventually(
    async () => {
      const res = await api.get(`/v1/validations/${id}`);
      if (res.body.validation_status === 'pending' && res.body.manual_review_status !== 'pending')
        throw new Error(`validation ${id} still pending`);
      return res.body;
    },
    { timeoutMs, intervalMs: 200 },
  );
}

/** PUTs a file to an upload link as Base64 text. */
export const upload = (link: string, data: Buffer, contentType = 'text/plain') =>
  fetch(link, { method: 'PUT', headers: { 'content-type': contentType }, body: data.toString('base64') }).then(
    async (r): Promise<{ status: number; body: any }> => ({
      status: r.status,
      body: await r.json().catch(() => undefined),
    }),
  );

/** The 6-digit code of the last OTP e-mail sent to `to`. */
export async function otpFromMail(
  smtp: SmtpSink,
  to: string,
): Promise<{ code: string; subject: string; text: string }> {
  const mail = await smtp.waitFor((m) => m.recipients.includes(to), 15_000);
  const code = /^(\d{6})$/m.exec(mail.text)?.[1];
  if (!code) throw new Error(`no code in ${mail.text}`);
  return { code, subject: mail.subject, text: mail.text };
}

/**
 * A JPEG of `size` bytes (at least 21) whose structure passes the upload checks (start, a padding segment, a
 * 1x1 frame header, end) but has no scan data: not a decodable photo.
 */
export const jpegLike = (size = 64) => {
  const padding = Buffer.alloc(4 + size - 21, 7);
  padding.writeUInt16BE(0xffe1, 0);
  padding.writeUInt16BE(padding.length - 2, 2);
  const frame = Buffer.from([0xff, 0xc0, 0, 11, 8, 0, 1, 0, 1, 1, 1, 0x11, 0]);
  return Buffer.concat([Buffer.from([0xff, 0xd8]), padding, frame, Buffer.from([0xff, 0xd9])]);
};

/** A PNG made of these chunks after its signature (lengths and CRCs computed). */
export function pngOf(chunks: [type: string, data: Buffer][]): Buffer {
  const parts = chunks.map(([type, data]) => {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(data.length, 0);
    head.write(type, 4, 'latin1');
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
    return Buffer.concat([head, data, crc]);
  });
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), ...parts]);
}

/** A PNG header (IHDR) of these dimensions and bit depth, RGBA. */
export function ihdr(width: number, height: number, bitDepth: number): [string, Buffer] {
  const data = Buffer.alloc(13);
  data.writeUInt32BE(width, 0);
  data.writeUInt32BE(height, 4);
  data[8] = bitDepth;
  data[9] = 6;
  return ['IHDR', data];
}
