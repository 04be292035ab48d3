import { Caller, PlatformConfig, ValidationFailedException } from '@kyc/platform';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

import { ApiKeysService } from '../api-keys/api-keys.service';
import { IdentityConfig } from '../config/identity.config';
import { FlowsService } from '../flows/flows.service';
import { ProcessErrorCode, ProcessException } from '../processes/processes.exception';
import { ProcessesService } from '../processes/processes.service';
import { AccessLinkDto } from './dto/access-link.dto';
import { SendLinkDto } from './dto/send-link.dto';
import { LinkDeliveryEntity } from './link-delivery.entity';
import { LinkDeliveryService } from './link-delivery.service';
import { processPageUrl } from './link-messages';

export interface IssuedAccessLink {
  delivery: LinkDeliveryEntity;
  apiKey: string;
  keyId: string;
  link: string;
  expiresAt: Date | null;
}

/**
 * Process links: an access link issues a temporary web key bound to the flow and sends the page
 * link through the channel asked; send-link sends the link of an existing process again.
 */
@Injectable()
export class AccessLinksService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly apiKeys: ApiKeysService,
    private readonly flows: FlowsService,
    private readonly processes: ProcessesService,
    private readonly deliveries: LinkDeliveryService,
    private readonly platform: PlatformConfig,
    private readonly config: IdentityConfig,
  ) {}

  async create(
    caller: Caller,
    flowId: string,
    dto: AccessLinkDto,
    variables: Record<string, string>,
  ): Promise<IssuedAccessLink> {
    const errors: { field: string; message: string }[] = [];
    if (dto.outbound_id !== undefined && dto.message_channel !== 'msgapp')
      errors.push({ field: 'outbound_id', message: 'outbound_id is for the msgapp channel' });
    if (Object.keys(variables).length && dto.message_channel !== 'msgapp')
      errors.push({ field: 'var', message: 'template variables need outbound_id (the msgapp channel)' });
    if (errors.length) throw new ValidationFailedException(errors);
    const flow = await this.flows.get(caller.tenantId, flowId);
    const lang = dto.lang ?? 'es';
    const { key, token } = await this.apiKeys.issue({
      tenantId: caller.tenantId,
      userId: caller.userId,
      name: 'access link',
      keyType: 'web',
      version: 1,
      grant: 'digital-identity',
      flowId: flow.id,
      country: 'ALL',
      ...(flow.redirectUrl ? { redirectUrl: flow.redirectUrl } : {}),
      ...(dto.email ? { emails: [dto.email] } : {}),
      ...(dto.phone_number ? { phones: [dto.phone_number] } : {}),
    });
    const link = processPageUrl(this.platform.publicUrl, token, lang);
    const delivery = await this.dataSource.transaction((m) =>
      this.deliveries.queue(m, {
        tenantId: caller.tenantId,
        userId: caller.userId,
        flowId: flow.id,
        keyId: key.id,
        processId: null,
        channel: dto.message_channel,
        lang,
        recipient: dto.message_channel === 'email' ? dto.email! : dto.phone_number!,
        outboundId: dto.outbound_id ?? null,
        variables,
        link,
      }),
    );
    return { delivery, apiKey: token, keyId: key.id, link, expiresAt: key.expiresAt };
  }

  /** POST /v1/processes/{id}/send-link: with the key that created the process (`token` is that key). */
  async sendLink(caller: Caller, token: string, processId: string, dto: SendLinkDto): Promise<LinkDeliveryEntity> {
    const p = await this.processes.get(caller, processId);
    if (p.keyId !== caller.keyId)
      throw new ProcessException(ProcessErrorCode.NotProcessKey, 'send the link with the key that created the process');
    if (p.status !== 'pending')
      throw new ProcessException(ProcessErrorCode.ProcessFinished, `process ${p.id} is already ${p.status}`);
    const outboundId = dto.outbound_id ?? this.config.IDENTITY_SEND_LINK_OUTBOUND_ID;
    if (!outboundId)
      throw new ValidationFailedException([
        { field: 'outbound_id', message: 'outbound_id is required: no IDENTITY_SEND_LINK_OUTBOUND_ID is configured' },
      ]);
    return this.dataSource.transaction((m) =>
      this.deliveries.queue(m, {
        tenantId: p.tenantId,
        userId: p.userId,
        flowId: p.flowId,
        keyId: p.keyId,
        processId: p.id,
        channel: 'msgapp',
        lang: dto.lang,
        recipient: `${dto.phone_country_code}${dto.phone_number}`,
        outboundId,
        variables: {},
        link: processPageUrl(this.platform.publicUrl, token, dto.lang),
      }),
    );
  }
}
