import { randomUUID } from 'node:crypto';

import type { ValidationType } from '@kyc/contracts';
import { ApiKeySigner } from '@kyc/platform';
import { Injectable } from '@nestjs/common';

import { IdentityConfig } from '../config/identity.config';

export interface CreatedValidation {
  validation_id: string;
  instructions?: Record<string, string>;
}

/** A refusal of the validations service (4xx): retrying the same request cannot succeed. */
export class ValidationRefused extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super(`validations refused the validation: ${status} ${JSON.stringify(body)}`);
  }
}

/**
 * The validations service over HTTP. Requests carry a short-lived key of the process's user,
 * signed here (identity holds the platform's signing key), and an Idempotency-Key so a retried
 * job never creates a second validation for the same step.
 */
@Injectable()
export class ValidationsClient {
  private readonly signer: ApiKeySigner;

  constructor(private readonly config: IdentityConfig) {
    this.signer = new ApiKeySigner(config.API_KEY_PRIVATE_KEY!);
  }

  async create(
    tenantId: string,
    userId: string,
    idempotencyKey: string,
    body: { type: ValidationType } & Record<string, unknown>,
  ): Promise<CreatedValidation> {
    const iat = Math.floor(Date.now() / 1000);
    const key = await this.signer.sign({
      jti: `KEY${randomUUID().replace(/-/g, '')}`,
      sub: userId,
      tenant_id: tenantId,
      key_type: 'backend',
      ver: 1,
      iat,
      exp: iat + 300,
    });
    const res = await fetch(`${this.config.IDENTITY_VALIDATIONS_URL}/v1/validations`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'Service-API-Key': key, 'Idempotency-Key': idempotencyKey },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(10_000),
    });
    const json = (await res.json().catch(() => null)) as CreatedValidation | null;
    if (res.status >= 400 && res.status < 500) throw new ValidationRefused(res.status, json);
    if (!res.ok || !json?.validation_id) throw new Error(`validations answered ${res.status}`);
    return json;
  }
}
