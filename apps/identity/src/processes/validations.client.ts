import type { ValidationType } from '@kyc/contracts';
import { ApiKeySigner, Clock } from '@kyc/platform';
import { Injectable } from '@nestjs/common';

import { IdentityConfig } from '../config/identity.config';

export interface CreatedValidation {
  validation_id: string;
  instructions?: Record<string, string>;
}

export interface Enrollment {
  enrollment_id: string;
  status: string;
  face_enrolled?: boolean;
  file_upload_link?: string;
}

/** The validation after a code was submitted. */
export interface CodeOutcome {
  validation_id: string;
  validation_status: string;
  attempts_left?: number;
}

/** A refusal of the validations service (4xx): retrying the same request cannot succeed. */
export class ValidationRefused extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    /** Its Retry-After (a 429: the person is locked out for this long). */
    readonly retryAfterSeconds?: number,
  ) {
    super(`validations refused the request: ${status} ${JSON.stringify(body)}`);
  }
}

/**
 * The validations service over HTTP. Requests carry a short-lived key of the process's user,
 * signed here (identity holds the platform's signing key); creations carry an Idempotency-Key so a
 * retried job never creates a second enrollment or validation for the same step. Links the
 * validations service returned (uploads, media) are followed on IDENTITY_VALIDATIONS_URL with their
 * path and signature only: identity never calls an address a response could aim.
 */
@Injectable()
export class ValidationsClient {
  private readonly signer: ApiKeySigner;

  constructor(
    private readonly config: IdentityConfig,
    private readonly clock: Clock,
  ) {
    this.signer = new ApiKeySigner(config.API_KEY_PRIVATE_KEY!);
  }

  create(
    tenantId: string,
    userId: string,
    idempotencyKey: string,
    body: { type: ValidationType } & Record<string, unknown>,
  ): Promise<CreatedValidation> {
    return this.call<CreatedValidation>(
      'POST',
      '/v1/validations',
      tenantId,
      userId,
      body,
      idempotencyKey,
      'validation_id',
    );
  }

  enroll(tenantId: string, userId: string, idempotencyKey: string, body: Record<string, unknown>): Promise<Enrollment> {
    return this.call<Enrollment>('POST', '/v1/enrollments', tenantId, userId, body, idempotencyKey, 'enrollment_id');
  }

  enrollment(tenantId: string, userId: string, enrollmentId: string): Promise<Enrollment> {
    return this.call<Enrollment>('GET', `/v1/enrollments/${encodeURIComponent(enrollmentId)}`, tenantId, userId);
  }

  /** POST /v1/validations/{id}: the code the user received (a wrong one answers 200 with attempts_left). */
  submitCode(tenantId: string, userId: string, validationId: string, type: ValidationType, token: string) {
    return this.call<CodeOutcome>('POST', `/v1/validations/${encodeURIComponent(validationId)}`, tenantId, userId, {
      type,
      token,
    });
  }

  /** The front image of a document validation (its show_details media link), or undefined when it has none. */
  async documentFront(tenantId: string, userId: string, validationId: string): Promise<Buffer | undefined> {
    const v = await this.call<{ media?: { slot: string; url: string }[] }>(
      'GET',
      `/v1/validations/${encodeURIComponent(validationId)}?show_details=true`,
      tenantId,
      userId,
    );
    const front = v.media?.find((x) => x.slot === 'front') ?? v.media?.find((x) => x.slot !== 'reverse');
    if (!front) return undefined;
    const res = await fetch(this.onService(front.url), { signal: AbortSignal.timeout(30_000) });
    if (!res.ok) throw new Error(`validations answered ${res.status} for the document's front`);
    return Buffer.from(await res.arrayBuffer());
  }

  /**
   * PUT of a file (Base64, or a data: URL) to a signed upload link; answers the refusal (status and
   * message) or undefined when the file is in.
   */
  async upload(link: string, base64: string): Promise<{ status: number; message: string } | undefined> {
    const res = await fetch(this.onService(link), {
      method: 'PUT',
      headers: { 'content-type': 'text/plain' },
      body: base64,
      signal: AbortSignal.timeout(60_000),
    });
    if (res.ok) return undefined;
    const body = (await res.json().catch(() => null)) as { message?: string } | null;
    if (res.status >= 500) throw new Error(`validations answered ${res.status} to an upload`);
    return { status: res.status, message: body?.message ?? `the file was refused (${res.status})` };
  }

  /** A link of the validations service, on the configured base URL (path and query kept). */
  private onService(link: string): string {
    const url = new URL(link, this.config.IDENTITY_VALIDATIONS_URL);
    return new URL(`${url.pathname}${url.search}`, this.config.IDENTITY_VALIDATIONS_URL).toString();
  }

  private async call<T>(
    method: 'GET' | 'POST',
    path: string,
    tenantId: string,
    userId: string,
    body?: Record<string, unknown>,
    idempotencyKey?: string,
    requiredField?: string,
  ): Promise<T> {
    const key = await this.signer.userKey(tenantId, userId, this.clock.now());
    const res = await fetch(`${this.config.IDENTITY_VALIDATIONS_URL}${path}`, {
      method,
      headers: {
        'Service-API-Key': key,
        ...(body ? { 'content-type': 'application/json' } : {}),
        ...(idempotencyKey ? { 'Idempotency-Key': idempotencyKey } : {}),
      },
      ...(body ? { body: JSON.stringify(body) } : {}),
      signal: AbortSignal.timeout(10_000),
    });
    const json = (await res.json().catch(() => null)) as Record<string, unknown> | null;
    if (res.status >= 400 && res.status < 500)
      throw new ValidationRefused(res.status, json, Number(res.headers.get('retry-after')) || undefined);
    if (!res.ok || !json || (requiredField && !json[requiredField]))
      throw new Error(`validations answered ${res.status} to ${method} ${path}`);
    return json as T;
  }
}
