import { newId, SandboxPhoneGateway } from '@kyc/platform';
import { Injectable } from '@nestjs/common';

import { SandboxPhoneMessageEntity } from './sandbox-phone-message.entity';

export interface LinkSms {
  tenantId: string;
  deliveryId: string;
  /** E.164. */
  phoneNumber: string;
  text: string;
}

/** Delivers access links by SMS (a telecom provider in production). */
export abstract class LinkSmsSender {
  abstract send(sms: LinkSms): Promise<void>;
}

/**
 * SANDBOX SMS provider: the platform's sandbox phone gateway (a little latency, unreachable numbers
 * refused, messages stored in sandbox_phone_messages, readable at GET /v1/sandbox/phone-messages).
 */
@Injectable()
export class SandboxLinkSmsSender extends LinkSmsSender {
  constructor(private readonly gateway: SandboxPhoneGateway<SandboxPhoneMessageEntity>) {
    super();
  }

  send(sms: LinkSms): Promise<void> {
    return this.gateway.deliver({
      id: newId('SMS'),
      tenantId: sms.tenantId,
      deliveryId: sms.deliveryId,
      phoneNumber: sms.phoneNumber,
      channel: 'sms',
      text: sms.text,
    });
  }
}
