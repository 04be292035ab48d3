import { Caller, Clock, Job, JobQueueService } from '@kyc/platform';
import { Injectable, OnModuleInit } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { DataSource, EntityManager, Repository } from 'typeorm';

import { ChecksService } from '../checks/checks.service';
import { ChecksConfig } from '../config/checks.config';
import { CheckEntity } from '../engine/check.entity';
import { CheckDatabaseEntity } from '../engine/check-database.entity';
import { CheckPdfEntity } from './check-pdf.entity';
import { CheckPdfContent, renderCheckPdf } from './check-pdf.renderer';
import { CheckPdfStore } from './check-pdf.store';
import { PdfErrorCode, PdfException } from './pdf.exception';
import { DEFAULT_PDF_LANGUAGE, PDF_LANGUAGES, PdfLanguage } from './pdf-labels';

export const PDF_QUEUE = 'checks.pdf';
export interface PdfJob {
  check_id: string;
  /** The request this job answers (ISO); a newer request supersedes it. */
  requested_at: string;
}

const COLUMN: Record<PdfLanguage, 'pdfEs' | 'pdfEn' | 'pdfPt'> = { es: 'pdfEs', en: 'pdfEn', pt: 'pdfPt' };

/** What the PDF of a check shows, from its row and its databases. */
export function pdfContent(
  check: CheckEntity,
  databases: (Pick<CheckDatabaseEntity, 'databaseId' | 'answer'> &
    Partial<Pick<CheckDatabaseEntity, 'databaseName'>>)[],
): CheckPdfContent {
  return {
    checkId: check.id,
    country: check.country,
    type: check.type,
    status: check.status,
    createdAt: check.createdAt,
    inputs: { ...check.inputs, ...(check.customInput ? { custom_input: check.customInput } : {}) },
    score: check.score,
    idScore: check.idScore,
    homonymScore: check.homonymScore,
    scores: check.result?.scores ?? [],
    statuses: check.result?.statuses ?? [],
    recordsFound: Object.fromEntries(databases.map((d) => [d.databaseId, d.answer?.records?.length ?? 0])),
    records: databases.flatMap((d) =>
      (d.answer?.records ?? []).map((r) => ({
        data_set: r.data_set,
        found_by: r.found_by,
        severity: r.severity,
        kind: r.kind,
        fields: r.fields,
        database_name: d.databaseName ?? d.databaseId,
      })),
    ),
  };
}

/**
 * Check PDFs. POST queues a durable job (checks.pdf) that renders the check as it is at that moment
 * in the three languages and stores them as bytea in checks.check_pdfs (one row per check; a new
 * request regenerates it). GET answers the PDF in the language asked (default Spanish), 202 while
 * it is being generated, 404 when it was never requested.
 */
@Injectable()
export class PdfService implements OnModuleInit {
  constructor(
    @InjectRepository(CheckPdfEntity) private readonly pdfs: Repository<CheckPdfEntity>,
    private readonly dataSource: DataSource,
    private readonly store: CheckPdfStore,
    private readonly checks: ChecksService,
    private readonly jobs: JobQueueService,
    private readonly clock: Clock,
    private readonly config: ChecksConfig,
  ) {}

  onModuleInit(): void {
    if (!this.config.CHECKS_WORKER_ENABLED) return;
    this.jobs.register<PdfJob>(PDF_QUEUE, (job, m) => this.generate(job, m), { transactional: true, concurrency: 2 });
  }

  async request(caller: Caller, checkId: string): Promise<CheckPdfEntity> {
    const check = await this.checks.get(caller, checkId);
    const now = this.clock.now();
    const row = this.pdfs.create({
      tenantId: caller.tenantId,
      checkId: check.id,
      status: 'generating',
      pdfEs: null,
      pdfEn: null,
      pdfPt: null,
      message: null,
      requestedAt: now,
      generatedAt: null,
    });
    await this.dataSource.transaction(async (m) => {
      await m.upsert(CheckPdfEntity, row, ['tenantId', 'checkId']);
      await this.jobs.enqueue<PdfJob>(
        m,
        PDF_QUEUE,
        { check_id: check.id, requested_at: now.toISOString() },
        {
          tenantId: caller.tenantId,
          maxAttempts: 5,
          dedupeKey: `pdf:${caller.tenantId}:${check.id}:${now.getTime()}`,
        },
      );
    });
    return row;
  }

  async download(caller: Caller, checkId: string, lang: PdfLanguage = DEFAULT_PDF_LANGUAGE): Promise<Buffer> {
    const check = await this.checks.get(caller, checkId);
    const row = await this.pdfs.findOneBy({ tenantId: caller.tenantId, checkId: check.id });
    if (!row)
      throw new PdfException(
        PdfErrorCode.PdfNotRequested,
        `no PDF was requested for check ${checkId}: request it with POST /v1/checks/${checkId}/pdf`,
      );
    if (row.status === 'generating')
      throw new PdfException(
        PdfErrorCode.PdfGenerating,
        `the PDF of check ${checkId} is being generated; ask again shortly`,
      );
    const pdf = row[COLUMN[lang]];
    if (row.status === 'error' || !pdf)
      throw new PdfException(
        PdfErrorCode.PdfFailed,
        `the PDF of check ${checkId} could not be generated: request it again`,
      );
    return pdf;
  }

  /** Renders the three languages and stores them, unless a newer request superseded this one. */
  async generate(job: Job<PdfJob>, m: EntityManager): Promise<void> {
    const tenantId = job.tenantId!;
    // FOR SHARE: waits for an engine change of the check in flight, so the PDF shows a consistent check.
    const check = await m
      .getRepository(CheckEntity)
      .createQueryBuilder('c')
      .setLock('pessimistic_read')
      .where('c.id = :id AND c.tenantId = :tenant', { id: job.payload.check_id, tenant: tenantId })
      .getOne();
    if (!check) return; // deleted: its PDF row went with it
    const databases = await m.find(CheckDatabaseEntity, {
      where: { checkId: check.id, tenantId },
      select: { databaseId: true, databaseName: true, answer: true },
      order: { databaseId: 'ASC' },
    });
    const content = pdfContent(check, databases);
    const now = this.clock.now();
    const [es, en, pt] = await Promise.all(PDF_LANGUAGES.map((lang) => renderCheckPdf(content, lang, now)));
    await this.store.saveReady(m, tenantId, check.id, new Date(job.payload.requested_at), { es, en, pt }, now);
  }
}
