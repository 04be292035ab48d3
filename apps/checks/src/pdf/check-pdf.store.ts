import { rawQuery } from '@kyc/platform';
import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';

import * as SQL from './check-pdf.sql';

/** The raw statements of a check's PDFs, their SQL in check-pdf.sql.ts. */
@Injectable()
export class CheckPdfStore {
  /** Stores the rendered PDFs of the request made at requestedAt (a newer request keeps its own), in m's transaction. */
  async saveReady(
    m: EntityManager,
    tenantId: string,
    checkId: string,
    requestedAt: Date,
    pdfs: { es: Buffer; en: Buffer; pt: Buffer },
    now: Date,
  ): Promise<void> {
    await rawQuery(m.connection, SQL.SAVE_READY, [tenantId, checkId, requestedAt, pdfs.es, pdfs.en, pdfs.pt, now], m);
  }
}
