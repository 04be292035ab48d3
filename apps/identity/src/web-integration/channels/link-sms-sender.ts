import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';

import { Clock, PermanentDeliveryError } from '@kyc/platform';
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';

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

/** Numbers the sandbox refuses like a carrier refuses an unreachable number (+1555000xxxx), as validations' sandbox. */
export const SANDBOX_UNREACHABLE = /^\+?1555000\d{4}$/;

/**
 * SANDBOX SMS provider, the same behaviour as the validations service's phone sandbox: a little
 * latency, unreachable numbers refused, and instead of reaching a phone the message is stored in
 * sandbox_phone_messages, readable at GET /v1/sandbox/phone-messages (of this service).
 */
@Injectable()
export class SandboxLinkSmsSender extends LinkSmsSender {
  constructor(
    @InjectRepository(SandboxPhoneMessageEntity) private readonly messages: Repository<SandboxPhoneMessageEntity>,
    private readonly clock: Clock,
  ) {
    super();
  }

  async send(sms: LinkSms): Promise<void> {
    await sleep(20 + Math.floor(Math.random() * 30));
    if (SANDBOX_UNREACHABLE.test(sms.phoneNumber))
      throw new PermanentDeliveryError(`sandbox: ${sms.phoneNumber} is unreachable`);
    // One message per delivery: a retried job does not deliver twice.
    await this.messages
      .createQueryBuilder()
      .insert()
      .values({
        id: `SMS${randomUUID().replace(/-/g, '')}`,
        tenantId: sms.tenantId,
        deliveryId: sms.deliveryId,
        phoneNumber: sms.phoneNumber,
        channel: 'sms',
        text: sms.text,
        createdAt: this.clock.now(),
      })
      .execute();
  }
}
