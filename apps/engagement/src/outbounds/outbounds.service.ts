import {
  ENGAGEMENT_EVENT_TYPES,
  OutboundQuality,
  OutboundStatus,
  OutboundStatusChangedEvent,
  TOPICS,
} from '@kyc/contracts';
import {
  base64DecodedLength,
  Caller,
  Clock,
  OutboxService,
  Page,
  paginate,
  ValidationFailedException,
} from '@kyc/platform';
import { Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { DataSource, EntityManager, Repository } from 'typeorm';

import { CredentialsService, viaProvider } from '../credentials/credentials.service';
import { LinesService } from '../lines/lines.service';
import { MessagingProvider } from '../provider/messaging-provider';
import { qualityOf, TemplateDefinition } from '../provider/template-components';
import { newId } from '../shared/phones';
import { ListOutboundsQuery } from './dto/list-outbounds.query';
import { outboundRuleErrors } from './dto/outbound-rules';
import { SaveOutboundDto } from './dto/save-outbound.dto';
import { UploadMediaDto } from './dto/upload-media.dto';
import { MediaEntity } from './media.entity';
import { MediaFile, mediaFileOf } from './media-upload/media-upload-spool';
import { OutboundEntity, OutboundQualityEntity } from './outbound.entity';
import { OutboundErrorCode, OutboundException } from './outbounds.exception';

const PAGE_SIZE = 20;
/** Without the pagination flag the list is a plain array of at most this many outbounds. */
const PLAIN_LIST_MAX = 100;
const DAY_MS = 24 * 60 * 60 * 1000;
/** FLAGGED → APPROVED after this many consecutive days of HIGH or MEDIUM; → DISABLED after more than this many of LOW. */
export const QUALITY_REVIEW_DAYS = 7;

/** Media rules of spec 2: allowed MIME types (undefined: any valid one) and maximum size. */
export const MEDIA_RULES: Record<UploadMediaDto['media_type'], { mimeTypes?: string[]; maxBytes: number }> = {
  IMAGE: { mimeTypes: ['image/jpeg', 'image/png'], maxBytes: 5 * 1024 * 1024 },
  VIDEO: { mimeTypes: ['video/mp4', 'video/3gpp'], maxBytes: 16 * 1024 * 1024 },
  DOCUMENT: { maxBytes: 100 * 1024 * 1024 },
};

/** Provider template events that are outbound statuses (APPROVED, REJECTED, FLAGGED, PAUSED, DISABLED, PENDING_DELETION…). */
const PROVIDER_STATUSES: Record<string, OutboundStatus> = {
  APPROVED: 'APPROVED',
  REJECTED: 'REJECTED',
  FLAGGED: 'FLAGGED',
  PAUSED: 'PAUSED',
  DISABLED: 'DISABLED',
  PENDING_DELETION: 'PENDING_DELETION',
  PENDING: 'PENDING',
  REINSTATED: 'APPROVED',
};

/** A send's outbound: 404 unless found (for the tenant), 409 unless APPROVED. */
export function assertSendable(id: string, outbound: OutboundEntity | null): asserts outbound is OutboundEntity {
  if (!outbound) throw new OutboundException(OutboundErrorCode.OutboundNotFound, `outbound ${id} not found`);
  if (outbound.status !== 'APPROVED')
    throw new OutboundException(
      OutboundErrorCode.OutboundNotSendable,
      `outbound ${id} is ${outbound.status}: only APPROVED outbounds can be sent`,
    );
}

/** What the provider's template of an outbound is made of (definition). */
export type OutboundTemplate = Pick<
  OutboundEntity,
  | 'providerName'
  | 'category'
  | 'languageCode'
  | 'templateType'
  | 'content'
  | 'headerText'
  | 'footer'
  | 'codeExpirationMinutes'
  | 'buttons'
  | 'mediaId'
  | 'examples'
>;

/** The tenant owning a business account that reported something in a webhook, and that account. */
export interface WabaOwner {
  tenantId: string;
  wabaId: string;
}

const isGood = (q: OutboundQuality) => q === 'HIGH' || q === 'MEDIUM';

/**
 * Outbound message templates: the spec's rules, submission to the provider for review, the
 * statuses and quality the provider reports (webhooks), and the daily quality review of FLAGGED ones.
 */
@Injectable()
export class OutboundsService {
  constructor(
    @InjectRepository(OutboundEntity) private readonly outbounds: Repository<OutboundEntity>,
    @InjectRepository(MediaEntity) private readonly media: Repository<MediaEntity>,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly lines: LinesService,
    private readonly credentials: CredentialsService,
    private readonly provider: MessagingProvider,
    private readonly outbox: OutboxService,
    private readonly clock: Clock,
  ) {}

  async create(caller: Caller, dto: SaveOutboundDto): Promise<OutboundEntity> {
    const fields = await this.validate(caller, dto);
    const creds = await this.credentials.open(caller.tenantId);
    const now = this.clock.now();
    const id = newId('OTB');
    const outbound = this.outbounds.create({
      id,
      tenantId: caller.tenantId,
      ...fields,
      status: 'PENDING',
      quality: 'PENDING',
      statusReason: null,
      providerName: `${id.toLowerCase()}_1`,
      providerTemplateId: null,
      revision: 1,
      statusChangedAt: now,
      createdAt: now,
      updatedAt: now,
    });
    await this.outbounds.insert(outbound);
    try {
      const submitted = await viaProvider(() => this.provider.submitTemplate(creds, this.definition(outbound)));
      outbound.providerTemplateId = submitted.id;
      await this.outbounds.update({ id }, { providerTemplateId: submitted.id });
    } catch (err) {
      await this.outbounds.delete({ id });
      throw err;
    }
    return outbound;
  }

  /** Replaces an outbound's content: the old template is deleted at the provider and the new one reviewed (PENDING). */
  async update(caller: Caller, id: string, dto: SaveOutboundDto): Promise<OutboundEntity> {
    const outbound = await this.get(caller, id);
    if (outbound.status === 'DISABLED' || outbound.status === 'PENDING_DELETION')
      throw new OutboundException(
        OutboundErrorCode.OutboundNotEditable,
        `a ${outbound.status} outbound cannot be edited`,
      );
    const fields = await this.validate(caller, dto);
    const creds = await this.credentials.open(caller.tenantId);
    const previous = { status: outbound.status, providerName: outbound.providerName };
    Object.assign(outbound, fields, {
      revision: outbound.revision + 1,
      providerName: `${outbound.id.toLowerCase()}_${outbound.revision + 1}`,
      status: 'PENDING',
      quality: 'PENDING',
      statusReason: null,
      updatedAt: this.clock.now(),
    });
    const submitted = await viaProvider(async () => {
      await this.provider.deleteTemplate(creds, previous.providerName);
      return this.provider.submitTemplate(creds, this.definition(outbound));
    });
    outbound.providerTemplateId = submitted.id;
    await this.dataSource.transaction(async (m) => {
      if (previous.status !== 'PENDING') {
        outbound.statusChangedAt = outbound.updatedAt;
        await this.statusChanged(m, outbound, previous.status);
      }
      await m.save(outbound);
    });
    return outbound;
  }

  async remove(caller: Caller, id: string): Promise<void> {
    const outbound = await this.get(caller, id);
    const creds = await this.credentials.open(caller.tenantId);
    await viaProvider(() => this.provider.deleteTemplate(creds, outbound.providerName));
    await this.outbounds.delete({ id: outbound.id, tenantId: caller.tenantId });
  }

  async get(caller: Caller, id: string): Promise<OutboundEntity> {
    const outbound = await this.outbounds.findOneBy({ id, tenantId: caller.tenantId });
    if (!outbound) throw new OutboundException(OutboundErrorCode.OutboundNotFound, `outbound ${id} not found`);
    return outbound;
  }

  async list(caller: Caller, q: ListOutboundsQuery): Promise<Page<OutboundEntity>> {
    const qb = this.outbounds.createQueryBuilder('o').where('o.tenantId = :tenant', { tenant: caller.tenantId });
    if (q.line) qb.andWhere('o.linePhone = :line', { line: `+${q.line.replace(/\D/g, '')}` });
    if (q.status) qb.andWhere('o.status = :status', { status: q.status });
    if (q.category) qb.andWhere('o.category = :category', { category: q.category });
    if (q.default_flow_id) qb.andWhere('o.defaultFlowId = :flow', { flow: q.default_flow_id });
    if (q.search?.startsWith('OTB')) qb.andWhere('o.id = :sid', { sid: q.search });
    else if (q.search)
      qb.andWhere(`o.name ILIKE :name ESCAPE '\\'`, { name: `%${q.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%` });
    if (!q.paginated) {
      const items = await qb.orderBy('o.createdAt', 'DESC').addOrderBy('o.id', 'DESC').take(PLAIN_LIST_MAX).getMany();
      if (!items.length) throw new OutboundException(OutboundErrorCode.NoOutbounds, 'no outbounds match');
      return { items };
    }
    return paginate(qb, { startKey: q.start_key, limit: PAGE_SIZE });
  }

  /** An outbound that can be sent now (APPROVED); 404 / 409 otherwise. */
  async sendable(tenantId: string, id: string): Promise<OutboundEntity> {
    const outbound = await this.outbounds.findOneBy({ id, tenantId });
    assertSendable(id, outbound);
    return outbound;
  }

  /**
   * Uploads a header file to the provider. `spooled`: the file as the upload spool decoded it from
   * the request (MediaUploadSpool; `dto.file` is then a placeholder); otherwise `dto.file` is the
   * file's Base64 text.
   */
  async uploadMedia(caller: Caller, dto: UploadMediaDto, spooled?: MediaFile): Promise<MediaEntity> {
    const rule = MEDIA_RULES[dto.media_type];
    // Sized from the text, decoded only once it passes: a refused file never costs its bytes again.
    const size = spooled ? spooled.size : base64DecodedLength(dto.file);
    const fields = [];
    if (rule.mimeTypes && !rule.mimeTypes.includes(dto.mime_type.toLowerCase()))
      fields.push({ field: 'mime_type', message: `${dto.media_type} allows ${rule.mimeTypes.join(', ')}` });
    if (size > rule.maxBytes)
      fields.push({ field: 'file', message: `${dto.media_type} files are at most ${rule.maxBytes / 1024 / 1024} MB` });
    if (!size) fields.push({ field: 'file', message: 'file is empty' });
    const line = await this.lines.find(caller.tenantId, dto.waba_phone_number);
    if (!line) fields.push({ field: 'waba_phone_number', message: 'not a line of this account' });
    if (fields.length) throw new ValidationFailedException(fields);
    const file = spooled ?? mediaFileOf(Buffer.from(dto.file, 'base64'));
    const creds = await this.credentials.open(caller.tenantId);
    const id = await viaProvider(() => this.provider.uploadMedia(creds, line!.id, file, dto.mime_type));
    const media = this.media.create({
      id,
      tenantId: caller.tenantId,
      lineId: line!.id,
      mediaType: dto.media_type,
      mimeType: dto.mime_type.toLowerCase(),
      sizeBytes: file.size,
      createdAt: this.clock.now(),
    });
    await this.media.save(media);
    return media;
  }

  /**
   * A template status the provider reported (webhook `message_template_status_update`) for an
   * outbound of the tenant owning the reporting business account.
   */
  async applyProviderStatus(m: EntityManager, owner: WabaOwner, providerName: string, event: string, reason?: string) {
    const status = PROVIDER_STATUSES[event];
    const outbound = await m.findOneBy(OutboundEntity, { ...owner, providerName });
    if (!status || !outbound || outbound.status === status) return;
    const previous = outbound.status;
    outbound.status = status;
    outbound.statusReason = reason && reason !== 'NONE' ? reason : null;
    outbound.statusChangedAt = this.clock.now();
    outbound.updatedAt = outbound.statusChangedAt;
    if (status === 'APPROVED' && outbound.quality === 'PENDING') outbound.quality = 'HIGH';
    await m.save(outbound);
    await this.statusChanged(m, outbound, previous);
  }

  /**
   * A quality rating the provider reported (webhook `message_template_quality_update`) for an
   * outbound of the tenant owning the reporting business account: kept in the history the daily review reads; an APPROVED outbound that drops to LOW becomes FLAGGED.
   */
  async applyQuality(m: EntityManager, owner: WabaOwner, providerName: string, rating: string) {
    const outbound = await m.findOneBy(OutboundEntity, { ...owner, providerName });
    if (!outbound) return;
    const quality = qualityOf(rating);
    const now = this.clock.now();
    await m.insert(OutboundQualityEntity, { tenantId: outbound.tenantId, outboundId: outbound.id, quality, at: now });
    outbound.quality = quality;
    outbound.updatedAt = now;
    const previous = outbound.status;
    if (quality === 'LOW' && outbound.status === 'APPROVED') {
      outbound.status = 'FLAGGED';
      outbound.statusReason = 'quality LOW';
      outbound.statusChangedAt = now;
    }
    await m.save(outbound);
    if (previous !== outbound.status) await this.statusChanged(m, outbound, previous);
  }

  /**
   * The daily quality review: a FLAGGED outbound whose quality has been HIGH or MEDIUM for 7
   * consecutive days is APPROVED again; one LOW for more than 7 days is DISABLED.
   */
  async reviewQuality(m: EntityManager): Promise<{ approved: number; disabled: number }> {
    const now = this.clock.now().getTime();
    const flagged = await m.find(OutboundEntity, { where: { status: 'FLAGGED' } });
    let approved = 0;
    let disabled = 0;
    for (const outbound of flagged) {
      const history = await m.find(OutboundQualityEntity, {
        where: { outboundId: outbound.id },
        order: { at: 'ASC', id: 'ASC' },
      });
      const good = isGood(outbound.quality);
      // Start of the current run of good (or of LOW) ratings.
      let since = outbound.statusChangedAt.getTime();
      for (let i = history.length - 1; i >= 0 && isGood(history[i].quality) === good; i--)
        since = history[i].at.getTime();
      const days = (now - since) / DAY_MS;
      const previous = outbound.status;
      if (good && days >= QUALITY_REVIEW_DAYS) {
        outbound.status = 'APPROVED';
        outbound.statusReason = `quality ${outbound.quality} for ${QUALITY_REVIEW_DAYS} days`;
        approved++;
      } else if (outbound.quality === 'LOW' && days > QUALITY_REVIEW_DAYS) {
        outbound.status = 'DISABLED';
        outbound.statusReason = `quality LOW for more than ${QUALITY_REVIEW_DAYS} days`;
        disabled++;
      } else continue;
      outbound.statusChangedAt = new Date(now);
      outbound.updatedAt = outbound.statusChangedAt;
      await m.save(outbound);
      await this.statusChanged(m, outbound, previous);
    }
    return { approved, disabled };
  }

  definition(o: OutboundTemplate): TemplateDefinition {
    return {
      providerName: o.providerName,
      category: o.category,
      languageCode: o.languageCode,
      templateType: o.templateType,
      content: o.content ?? undefined,
      headerText: o.headerText ?? undefined,
      footer: o.footer ?? undefined,
      codeExpirationMinutes: o.codeExpirationMinutes ?? undefined,
      buttons: o.buttons,
      mediaId: o.mediaId ?? undefined,
      examples: o.examples,
    };
  }

  private async statusChanged(m: EntityManager, o: OutboundEntity, previous: OutboundStatus) {
    await this.outbox.add(m, {
      topic: TOPICS.engagementOutboundStatusChanged,
      type: ENGAGEMENT_EVENT_TYPES.outboundStatusChanged,
      tenantId: o.tenantId,
      aggregateId: o.id,
      payload: {
        outbound_id: o.id,
        status: o.status,
        previous_status: previous,
        quality: o.quality,
        ...(o.statusReason ? { reason: o.statusReason } : {}),
      } satisfies OutboundStatusChangedEvent,
    });
  }

  /** Every rule of spec 2 for an outbound; answers the fields to store. */
  private async validate(caller: Caller, dto: SaveOutboundDto) {
    const { errors, checked } = outboundRuleErrors(dto);
    const line = await this.lines.find(caller.tenantId, dto.waba_phone_number);
    if (!line) errors.push({ field: 'waba_phone_number', message: 'not a line of this account' });
    if (dto.media_id && dto.template_type !== 'TEXT') {
      const media = await this.media.findOneBy({ id: dto.media_id, tenantId: caller.tenantId });
      if (!media) errors.push({ field: 'media_id', message: 'no uploaded file with this id (POST /v1/msg/media)' });
      else if (media.mediaType !== dto.template_type)
        errors.push({
          field: 'media_id',
          message: `the file was uploaded as ${media.mediaType}, not ${dto.template_type}`,
        });
    }
    if (errors.length) throw new ValidationFailedException(errors);
    return {
      name: dto.outbound_name,
      linePhone: line!.phone,
      lineId: line!.id,
      wabaId: line!.wabaId,
      category: dto.category,
      languageCode: dto.language_code,
      templateType: dto.template_type,
      isNotification: dto.is_notification,
      mediaId: dto.media_id ?? null,
      content: dto.category === 'AUTHENTICATION' ? null : (dto.content ?? null),
      headerText: dto.header_text ?? null,
      footer: dto.footer ?? null,
      codeExpirationMinutes: dto.code_expiration_minutes ?? null,
      examples: checked.examples,
      buttons: checked.buttons,
      variables: checked.variables,
      defaultFlowId: dto.default_flow_id ?? null,
    };
  }
}
