import { setTimeout as sleep } from 'node:timers/promises';

import type { VerifyChannel } from '@kyc/contracts';
import { Clock, PermanentDeliveryError } from '@kyc/platform';
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';

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

/** Numbers the sandbox refuses like a provider refuses an unreachable number (+1555000xxxx). */
export const SANDBOX_UNREACHABLE = /^\+?1555000\d{4}$/;

/**
 * SANDBOX phone provider: behaves like the carrier API (a little latency, refuses unreachable
 * numbers) and, instead of reaching a phone, stores what it would have delivered in
 * sandbox_phone_messages, readable at GET /v1/sandbox/phone-messages.
 */
@Injectable()
export class SandboxPhoneSender extends PhoneSender {
  constructor(
    @InjectRepository(SandboxPhoneMessageEntity) private readonly messages: Repository<SandboxPhoneMessageEntity>,
    private readonly clock: Clock,
  ) {
    super();
  }

  async send(message: PhoneMessage): Promise<void> {
    await sleep(20 + Math.floor(Math.random() * 30));
    if (SANDBOX_UNREACHABLE.test(message.phoneNumber))
      throw new PermanentDeliveryError(`sandbox: ${message.phoneNumber} is unreachable`);
    await this.messages.insert({
      id: newId('MSG'),
      tenantId: message.tenantId,
      validationId: message.validationId,
      phoneNumber: message.phoneNumber,
      channel: message.channel,
      text: message.text,
      createdAt: this.clock.now(),
    });
  }
}
