import { setTimeout as sleep } from 'node:timers/promises';

import { Provider } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { getRepositoryToken } from '@nestjs/typeorm';
import { IsOptional, IsString } from 'class-validator';
import { Column, FindOptionsOrder, FindOptionsWhere, PrimaryColumn, Repository } from 'typeorm';
import { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';

import { PermanentDeliveryError } from '../mail/smtp-client';
import { Clock } from '../time/clock';

/** Numbers the sandbox refuses as a carrier refuses an unreachable number (+1555000xxxx). */
export const SANDBOX_UNREACHABLE_PHONE = /^\+?1555000\d{4}$/;

/**
 * The columns of a service's `sandbox_phone_messages` table; the service's entity extends it with
 * the id of what the message was sent for (a validation, an access-link delivery).
 */
export abstract class SandboxPhoneMessageColumns {
  @PrimaryColumn({ type: 'text' }) id!: string;
  @Column({ name: 'tenant_id', type: 'text' }) tenantId!: string;
  @Column({ name: 'phone_number', type: 'text' }) phoneNumber!: string;
  /** sms, call or a messaging app. */
  @Column({ type: 'text' }) channel!: string;
  @Column({ type: 'text' }) text!: string;
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt!: Date;
}

/**
 * SANDBOX phone gateway (SMS, voice call, messaging app) of the services that reach users' phones:
 * it behaves like a carrier API (a little latency, unreachable numbers refused with a permanent
 * error) and, instead of reaching a phone, stores the message in the service's
 * sandbox_phone_messages, which the service shows at GET /v1/sandbox/phone-messages.
 */
export class SandboxPhoneGateway<E extends SandboxPhoneMessageColumns> {
  constructor(
    private readonly messages: Repository<E>,
    private readonly clock: Clock,
  ) {}

  /** Delivers a message (stored with the clock's time), or refuses an unreachable number. */
  async deliver(message: Omit<E, 'createdAt'>): Promise<void> {
    await sleep(20 + Math.floor(Math.random() * 30));
    if (SANDBOX_UNREACHABLE_PHONE.test(message.phoneNumber))
      throw new PermanentDeliveryError(`sandbox: ${message.phoneNumber} is unreachable`);
    await this.messages.insert({ ...message, createdAt: this.clock.now() } as QueryDeepPartialEntity<E>);
  }

  /** The tenant's latest 50 messages, newest first (of one number when given). */
  latest(tenantId: string, phoneNumber?: string): Promise<E[]> {
    return this.messages.find({
      where: { tenantId, ...(phoneNumber ? { phoneNumber } : {}) } as FindOptionsWhere<E>,
      order: { createdAt: 'DESC' } as FindOptionsOrder<E>,
      take: 50,
    });
  }
}

/** Provides a service's SandboxPhoneGateway on its sandbox_phone_messages entity (registered with TypeOrmModule.forFeature). */
export const sandboxPhoneGatewayProvider = (entity: new () => SandboxPhoneMessageColumns): Provider => ({
  provide: SandboxPhoneGateway,
  useFactory: (messages: Repository<SandboxPhoneMessageColumns>, clock: Clock) =>
    new SandboxPhoneGateway(messages, clock),
  inject: [getRepositoryToken(entity), Clock],
});

/** The wire fields every sandbox phone message has (the service adds its own reference). */
export const sandboxPhoneMessageJson = (m: SandboxPhoneMessageColumns) => ({
  message_id: m.id,
  phone_number: m.phoneNumber,
  channel: m.channel,
  text: m.text,
  creation_date: m.createdAt.toISOString(),
});

/** The query of a service's GET /v1/sandbox/phone-messages. */
export class SandboxPhoneMessagesQuery {
  @ApiPropertyOptional({ description: 'E.164', example: '+573001234567' })
  @IsOptional()
  @IsString()
  phone_number?: string;
}
