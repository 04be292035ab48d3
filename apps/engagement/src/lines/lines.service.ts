import { Caller, Clock } from '@kyc/platform';
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Repository } from 'typeorm';

import { CredentialsService, viaProvider } from '../credentials/credentials.service';
import { MessagingProvider } from '../provider/messaging-provider';
import { qualityOf } from '../provider/template-components';
import { e164 } from '../shared/phones';
import { LineConfigDto } from './dto/line-config.dto';
import { UpdateLineDto } from './dto/update-line.dto';
import { LineEntity } from './line.entity';
import { LineErrorCode, LineException } from './lines.exception';

/** Business lines: the phone numbers of the tenant's WABA, synced from the provider at subscription. */
@Injectable()
export class LinesService {
  constructor(
    @InjectRepository(LineEntity) private readonly lines: Repository<LineEntity>,
    private readonly credentials: CredentialsService,
    private readonly provider: MessagingProvider,
    private readonly clock: Clock,
  ) {}

  /** Subscribes the platform's app to the tenant's WABA and syncs its phone numbers as lines. */
  async subscribe(caller: Caller): Promise<{ wabaId: string; lines: LineEntity[] }> {
    const creds = await this.credentials.open(caller.tenantId);
    const numbers = await viaProvider(async () => {
      await this.provider.subscribeApp(creds);
      return this.provider.phoneNumbers(creds);
    });
    const now = this.clock.now();
    for (const n of numbers) {
      const existing = await this.lines.findOneBy({ id: n.id });
      await this.lines.save(
        this.lines.create({
          id: n.id,
          tenantId: caller.tenantId,
          wabaId: creds.wabaId,
          phone: e164(n.displayPhoneNumber),
          name: existing?.name ?? null,
          verifiedName: n.verifiedName ?? null,
          quality: qualityOf(n.qualityRating),
          defaultFlowId: existing?.defaultFlowId ?? null,
          createdAt: existing?.createdAt ?? now,
          updatedAt: now,
        }),
      );
    }
    await this.credentials.markSubscribed(caller.tenantId);
    return { wabaId: creds.wabaId, lines: await this.list(caller) };
  }

  list(caller: Caller): Promise<LineEntity[]> {
    return this.lines.find({ where: { tenantId: caller.tenantId }, order: { createdAt: 'ASC', id: 'ASC' } });
  }

  /** The tenant's line with this phone (any formatting); 404 when it has none. */
  async get(tenantId: string, phone: string): Promise<LineEntity> {
    const line = await this.lines.findOneBy({ tenantId, phone: e164(phone) });
    if (!line) throw new LineException(LineErrorCode.LineNotFound, `line ${phone} not found`);
    return line;
  }

  find(tenantId: string, phone: string): Promise<LineEntity | null> {
    return this.lines.findOneBy({ tenantId, phone: e164(phone) });
  }

  /** A line by the provider's phone-number id (webhooks; on the caller's transaction connection when given). */
  byId(id: string, m: EntityManager = this.lines.manager): Promise<LineEntity | null> {
    return m.findOneBy(LineEntity, { id });
  }

  async update(caller: Caller, phone: string, dto: UpdateLineDto): Promise<LineEntity> {
    const line = await this.get(caller.tenantId, phone);
    if (dto.name !== undefined) line.name = dto.name;
    if (dto.default_flow_id !== undefined) line.defaultFlowId = dto.default_flow_id;
    line.updatedAt = this.clock.now();
    return this.lines.save(line);
  }

  async configure(caller: Caller, phone: string, dto: LineConfigDto): Promise<LineEntity> {
    return this.update(caller, phone, { default_flow_id: dto.default_flow_id });
  }

  async wabas(caller: Caller) {
    const row = await this.credentials.find(caller.tenantId);
    if (!row) return [];
    const lines = await this.list(caller);
    return [
      {
        waba_id: row.wabaId,
        subscribed: row.subscribedAt !== null,
        subscription_date: row.subscribedAt?.toISOString(),
        lines: lines.map((l) => l.phone),
        creation_date: row.createdAt.toISOString(),
      },
    ];
  }
}
