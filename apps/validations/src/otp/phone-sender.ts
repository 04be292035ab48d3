import type { VerifyChannel } from '@kyc/contracts';
import { SandboxPhoneGateway } from '@kyc/platform';
import { Injectable } from '@nestjs/common';

import { newId } from '../shared/ids';
import { SandboxPhoneMessageEntity } from './sandbox-phone-message.entity';

export interface PhoneMessage {
  tenantId: string;
  validationId: string;
  phoneNumber: string;
  channel: VerifyChannel;
  text: string;
}

/** Delivers phone OTPs by SMS, voice call or messaging app (a telecom or messaging provider in production). */
export abstract class PhoneSender {
  abstract send(message: PhoneMessage): Promise<void>;
}

/**
 * SANDBOX phone provider: the platform's sandbox phone gateway (a little latency, unreachable
 * numbers refused, messages stored in sandbox_phone_messages, readable at GET /v1/sandbox/phone-messages).
 */
@Injectable()
export class SandboxPhoneSender extends PhoneSender {
  constructor(private readonly gateway: SandboxPhoneGateway<SandboxPhoneMessageEntity>) {
    super();
  }

  send(message: PhoneMessage): Promise<void> {
    return this.gateway.deliver({
      id: newId('MSG'),
      tenantId: message.tenantId,
      validationId: message.validationId,
      phoneNumber: message.phoneNumber,
      channel: message.channel,
      text: message.text,
    });
  }
}
