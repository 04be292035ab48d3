import { Column, Entity, PrimaryColumn } from 'typeorm';

export type PdfStatus = 'generating' | 'ready' | 'error';

/** The PDF of a check, generated once per request in every language (bytea in the checks schema). */
@Entity({ name: 'check_pdfs' })
export class CheckPdfEntity {
  @PrimaryColumn({ name: 'tenant_id', type: 'text' })
  tenantId!: string;

  @PrimaryColumn({ name: 'check_id', type: 'text' })
  checkId!: string;

  @Column({ type: 'text' })
  status!: PdfStatus;

  @Column({ name: 'pdf_es', type: 'bytea', nullable: true })
  pdfEs!: Buffer | null;

  @Column({ name: 'pdf_en', type: 'bytea', nullable: true })
  pdfEn!: Buffer | null;

  @Column({ name: 'pdf_pt', type: 'bytea', nullable: true })
  pdfPt!: Buffer | null;

  @Column({ type: 'text', nullable: true })
  message!: string | null;

  @Column({ name: 'requested_at', type: 'timestamptz' })
  requestedAt!: Date;

  @Column({ name: 'generated_at', type: 'timestamptz', nullable: true })
  generatedAt!: Date | null;
}
