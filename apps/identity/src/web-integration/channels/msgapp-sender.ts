import { ApiKeySigner, Clock, PermanentDeliveryError } from '@kyc/platform';
import { Injectable } from '@nestjs/common';

import { IdentityConfig } from '../../config/identity.config';

export interface MsgappLink {
  tenantId: string;
  userId: string;
  deliveryId: string;
  /** E.164. */
  phoneNumber: string;
  outboundId: string;
  /** The identity flow (sent to engagement when the outbound starts a flow). */
  flowId: string;
  variables: Record<string, string>;
  link: string;
}

/** Sends a process link by messaging app: an outbound message of the engagement service. */
export abstract class MessagingAppSender {
  /** Returns the engagement message id. */
  abstract send(message: MsgappLink): Promise<string>;
}

/** The variable of an outbound that receives the process link when the client does not set it. */
export const LINK_VARIABLE = 'link';

interface OutboundView {
  variables?: string[];
  is_notification?: boolean;
}

/**
 * The engagement service over its public HTTP API (no change to engagement): reads the outbound
 * (its variables and whether it starts a flow), then `POST /v1/msg/outbounds/send` with the
 * link in the `link` variable when the outbound has one. Requests carry a 5-minute key of the
 * user who asked for the link, signed here, and the delivery id as Idempotency-Key, so a retried
 * job sends once. A 4xx of engagement is final (PermanentDeliveryError).
 */
@Injectable()
export class EngagementMessagingAppSender extends MessagingAppSender {
  private readonly signer: ApiKeySigner;

  constructor(
    private readonly config: IdentityConfig,
    private readonly clock: Clock,
  ) {
    super();
    this.signer = new ApiKeySigner(config.API_KEY_PRIVATE_KEY!);
  }

  async send(m: MsgappLink): Promise<string> {
    const key = await this.key(m.tenantId, m.userId);
    const outbound = (await this.call('GET', `/v1/msg/outbounds/${m.outboundId}`, key)) as OutboundView;
    const values = { ...m.variables };
    if ((outbound.variables ?? []).includes(LINK_VARIABLE) && values[LINK_VARIABLE] === undefined)
      values[LINK_VARIABLE] = m.link;
    const { code, number } = splitE164(m.phoneNumber);
    const sent = (await this.call('POST', '/v1/msg/outbounds/send', key, m.deliveryId, {
      phone_country_code: `+${code}`,
      phone_number: number,
      outbound_id: m.outboundId,
      ...(outbound.is_notification ? {} : { flow_id: m.flowId }),
      user_authorized: true,
      var: values,
    })) as { message_id?: string };
    if (!sent.message_id) throw new Error('engagement answered without a message_id');
    return sent.message_id;
  }

  private key(tenantId: string, userId: string): Promise<string> {
    return this.signer.userKey(tenantId, userId, this.clock.now());
  }

  private async call(method: string, path: string, key: string, idempotencyKey?: string, body?: unknown) {
    const res = await fetch(`${this.config.IDENTITY_ENGAGEMENT_URL}${path}`, {
      method,
      headers: {
        'Service-API-Key': key,
        ...(body ? { 'content-type': 'application/json' } : {}),
        ...(idempotencyKey ? { 'Idempotency-Key': idempotencyKey } : {}),
      },
      body: body ? JSON.stringify(body) : undefined,
      signal: AbortSignal.timeout(10_000),
    });
    const json = (await res.json().catch(() => null)) as { message?: string; error_code?: string } | null;
    if (res.status >= 400 && res.status < 500)
      throw new PermanentDeliveryError(
        `engagement refused ${method} ${path}: ${res.status} ${json?.error_code ?? ''} ${json?.message ?? ''}`.trim(),
      );
    if (!res.ok || !json) throw new Error(`engagement answered ${res.status} to ${method} ${path}`);
    return json;
  }
}

/** Calling codes of three digits (the rest of the spec's countries have one or two). */
const THREE_DIGIT_CODES = new Set(['593', '503', '506', '507', '591', '595', '598', '502', '504', '505', '351']);

/** `+573001234567` → 57 / 3001234567 (engagement joins them again). */
export function splitE164(phone: string): { code: string; number: string } {
  const digits = phone.replace(/\D/g, '');
  const len = digits.startsWith('1') || digits.startsWith('7') ? 1 : THREE_DIGIT_CODES.has(digits.slice(0, 3)) ? 3 : 2;
  return { code: digits.slice(0, len), number: digits.slice(len) };
}
