import {
  Caller,
  Clock,
  decodeStartKey,
  encodeStartKey,
  Job,
  JobQueueService,
  Page,
  PlatformConfig,
  ValidationFailedException,
} from '@kyc/platform';
import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { DataSource, Repository } from 'typeorm';

import { ChatStore } from '../chats/chat.store';
import { ChatsService } from '../chats/chats.service';
import { EngagementConfig } from '../config/engagement.config';
import { newId } from '../shared/phones';
import { ChatExportEntity } from './chat-export.entity';
import { CreateExportDto } from './dto/create-export.dto';
import { ListExportsQuery } from './dto/list-exports.query';
import { ExportLinks } from './export-links';
import { ExportErrorCode, ExportException } from './exports.exception';
import { buildExportTsv } from './tsv-writer';

export const EXPORT_QUEUE = 'chat-export';
const PAGE = 20;

/** First instant of the month of `YYYY-MM…`, plus `addMonths`. */
const monthStart = (value: string, addMonths = 0) =>
  new Date(Date.UTC(Number(value.slice(0, 4)), Number(value.slice(5, 7)) - 1 + addMonths, 1));

/** Chat exports: TSV over whole months, written by a durable job, downloaded by a signed expiring link. */
@Injectable()
export class ExportsService implements OnApplicationBootstrap {
  private readonly links: ExportLinks;

  constructor(
    private readonly chatStore: ChatStore,
    @InjectRepository(ChatExportEntity) private readonly exports: Repository<ChatExportEntity>,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly chats: ChatsService,
    private readonly jobs: JobQueueService,
    private readonly config: EngagementConfig,
    private readonly platform: PlatformConfig,
    private readonly clock: Clock,
  ) {
    this.links = new ExportLinks(config.credentialsKey);
  }

  onApplicationBootstrap(): void {
    if (!this.config.ENGAGEMENT_WORKER_ENABLED) return;
    this.jobs.register<{ exportId: string }>(EXPORT_QUEUE, (job) => this.write(job), {
      concurrency: 2,
      lockMs: this.config.ENGAGEMENT_WORKER_LOCK_MS,
    });
  }

  async create(caller: Caller, dto: CreateExportDto): Promise<ChatExportEntity> {
    const rangeStart = monthStart(dto.time_range_start_date);
    const rangeEnd = monthStart(dto.time_range_end_date, 1);
    if (rangeEnd <= rangeStart)
      throw new ValidationFailedException([
        { field: 'time_range_end_date', message: 'time_range_end_date must not be before time_range_start_date' },
      ]);
    if (dto.export_type === 'single_chat') await this.chats.get(caller, dto.chat_id!);
    const now = this.clock.now();
    const entity = this.exports.create({
      id: newId('EXP'),
      tenantId: caller.tenantId,
      name: dto.name ?? null,
      exportType: dto.export_type,
      exportFormat: dto.export_format,
      language: dto.language,
      chatId: dto.export_type === 'single_chat' ? dto.chat_id! : null,
      rangeStart,
      rangeEnd,
      requestedBy: caller.username ?? caller.userId,
      status: 'pending',
      rows: null,
      content: null,
      error: null,
      createdAt: now,
      completedAt: null,
    });
    await this.dataSource.transaction(async (m) => {
      await m.insert(ChatExportEntity, entity);
      await this.jobs.enqueue(m, EXPORT_QUEUE, { exportId: entity.id }, { tenantId: caller.tenantId });
    });
    return entity;
  }

  async get(caller: Caller, id: string): Promise<ChatExportEntity> {
    const found = await this.exports.findOneBy({ id, tenantId: caller.tenantId });
    if (!found) throw new ExportException(ExportErrorCode.ExportNotFound, `export ${id} not found`);
    return found;
  }

  async list(caller: Caller, q: ListExportsQuery): Promise<Page<ChatExportEntity>> {
    const qb = this.exports.createQueryBuilder('e').where('e.tenantId = :tenantId', { tenantId: caller.tenantId });
    if (q.chat_id) qb.andWhere('e.chatId = :chatId', { chatId: q.chat_id });
    if (q.time_range_start_date) qb.andWhere('e.rangeStart >= :from', { from: new Date(q.time_range_start_date) });
    if (q.time_range_end_date) qb.andWhere('e.rangeEnd <= :to', { to: new Date(q.time_range_end_date) });
    if (q.export_format) qb.andWhere('e.exportFormat = :format', { format: q.export_format });
    if (q.name)
      qb.andWhere(`e.name ILIKE :name ESCAPE '\\'`, { name: `%${q.name.replace(/[\\%_]/g, (c) => `\\${c}`)}%` });
    if (q.export_type) qb.andWhere('e.exportType = :type', { type: q.export_type });
    if (q.language) qb.andWhere('e.language = :language', { language: q.language });
    if (q.requested_by) qb.andWhere('e.requestedBy = :by', { by: q.requested_by });
    const start = decodeStartKey(q.start_key);
    if (start) {
      if (Number.isNaN(new Date(start[0]).getTime()))
        throw new ValidationFailedException([
          { field: 'start_key', message: 'start_key is not a valid pagination key' },
        ]);
      qb.andWhere('(e.createdAt, e.id) < (:at, :id)', { at: new Date(start[0]), id: String(start[1]) });
    }
    const limit = q.page_size ?? PAGE;
    const rows = await qb
      .orderBy('e.createdAt', 'DESC')
      .addOrderBy('e.id', 'DESC')
      .take(limit + 1)
      .getMany();
    const items = rows.slice(0, limit);
    const last = items[items.length - 1];
    return {
      items,
      nextKey: rows.length > limit && last ? encodeStartKey([last.createdAt.toISOString(), last.id]) : undefined,
    };
  }

  /** The download link of a completed export, valid for ENGAGEMENT_EXPORT_LINK_TTL_S. */
  downloadLink(e: ChatExportEntity): { url: string; expires_at: string } | undefined {
    if (e.status !== 'completed') return undefined;
    const expires = Math.floor(this.clock.now().getTime() / 1000) + this.config.ENGAGEMENT_EXPORT_LINK_TTL_S;
    const url = new URL(`/v1/engagement/chat/export/${e.id}/file`, this.platform.publicUrl);
    url.searchParams.set('expires', String(expires));
    url.searchParams.set('signature', this.links.sign(e.id, expires));
    return { url: url.toString(), expires_at: new Date(expires * 1000).toISOString() };
  }

  /** The file behind a signed link (no API key: the signature is the authorization). */
  async file(id: string, expires?: string, signature?: string): Promise<{ e: ChatExportEntity; content: string }> {
    if (!this.links.verify(id, expires, signature, Math.floor(this.clock.now().getTime() / 1000)))
      throw new ExportException(ExportErrorCode.InvalidLink, 'the download link is invalid or has expired');
    const e = await this.exports.createQueryBuilder('e').addSelect('e.content').where('e.id = :id', { id }).getOne();
    if (!e || e.content === null) throw new ExportException(ExportErrorCode.ExportNotFound, `export ${id} not found`);
    return { e, content: e.content };
  }

  private async write(job: Job<{ exportId: string }>): Promise<void> {
    const e = await this.exports.findOneBy({ id: job.payload.exportId });
    if (!e || e.status !== 'pending') return;
    const { content, rows } = await buildExportTsv(this.chatStore, this.dataSource, e);
    await this.exports.update(
      { id: e.id, status: 'pending' },
      { status: 'completed', content, rows, completedAt: this.clock.now() },
    );
  }
}
