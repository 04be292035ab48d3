import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

export class BatchProgressResponse {
  @ApiProperty() rows_total!: number;
  @ApiProperty() rows_pending!: number;
  @ApiProperty() rows_created!: number;
  @ApiProperty() rows_failed!: number;
  @ApiProperty() rows_stopped!: number;
  @ApiProperty() checks_completed!: number;
  @ApiProperty() checks_error!: number;
  @ApiProperty() checks_in_progress!: number;
}

export class BatchResponse {
  @ApiProperty({ example: 'BCH019ab9f2c4e0a1b2c3d4e5' }) batch_id!: string;
  @ApiProperty({ example: 'checks' }) service!: string;
  @ApiProperty() country!: string;
  @ApiProperty() type!: string;
  @ApiPropertyOptional() end_date?: string;
  @ApiPropertyOptional() frequency?: string;
  @ApiProperty({ type: 'array', items: { type: 'string', nullable: true }, description: 'The input of each column' })
  columns!: (string | null)[];
  @ApiProperty({ enum: ['created', 'file_uploaded', 'processing', 'completed', 'stopped', 'failed'] }) status!: string;
  @ApiPropertyOptional({ description: 'Why the batch failed' }) error?: string;
  @ApiPropertyOptional({ type: BatchProgressResponse }) progress?: BatchProgressResponse;
  @ApiPropertyOptional({
    type: 'object',
    properties: {
      format: { type: 'string', enum: ['xlsx', 'csv', 'pdf'] },
      status: { type: 'string', enum: ['generating', 'ready'] },
      requested_at: { type: 'string', format: 'date-time' },
      generated_at: { type: 'string', format: 'date-time', nullable: true },
    },
  })
  report?: Record<string, unknown>;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) file_upload_expiration!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) file_uploaded_at!: string | null;
  @ApiProperty({ format: 'date-time' }) creation_date!: string;
  @ApiProperty({ format: 'date-time' }) update_date!: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) started_at!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) finished_at!: string | null;
}

export class BatchEnvelopeResponse {
  @ApiProperty({ type: BatchResponse }) batch!: BatchResponse;
  @ApiProperty() self!: string;
  @ApiProperty() report_link!: string;
}

export class BatchCreatedResponse extends BatchEnvelopeResponse {
  @ApiProperty({ type: 'array', items: { type: 'string', nullable: true } }) columns!: (string | null)[];
  @ApiProperty({ description: 'PUT the xlsx file here (no API key; valid 30 minutes)' }) file_upload_link!: string;
}

export class BatchReportGeneratingResponse {
  @ApiProperty() batch_id!: string;
  @ApiProperty({ type: 'object', properties: { format: { type: 'string' }, status: { type: 'string' } } })
  report!: { format: string; status: string };
  @ApiProperty() self!: string;
}

const ID = 'BCH019ab9f2c4e0a1b2c3d4e5';
export const BATCH_EXAMPLE = {
  batch_id: ID,
  service: 'checks',
  country: 'CO',
  type: 'person',
  columns: ['user_authorized', 'national_id', 'first_name', 'last_name'],
  status: 'processing',
  progress: {
    rows_total: 2,
    rows_pending: 0,
    rows_created: 2,
    rows_failed: 0,
    rows_stopped: 0,
    checks_completed: 1,
    checks_error: 0,
    checks_in_progress: 1,
  },
  file_upload_expiration: '2026-11-25T06:30:00.000Z',
  file_uploaded_at: '2026-11-25T06:01:00.000Z',
  creation_date: '2026-11-25T06:00:00.000Z',
  update_date: '2026-11-25T06:01:05.000Z',
  started_at: '2026-11-25T06:01:05.000Z',
  finished_at: null,
};

export const batchEnvelopeExample = (batch: object = BATCH_EXAMPLE) => ({
  batch,
  self: `/v1/batches/${ID}`,
  report_link: `/v1/batches/${ID}/report`,
});

export const BATCH_CREATED_EXAMPLE = {
  ...batchEnvelopeExample({
    ...BATCH_EXAMPLE,
    status: 'created',
    progress: undefined,
    file_uploaded_at: null,
    started_at: null,
    update_date: BATCH_EXAMPLE.creation_date,
  }),
  columns: BATCH_EXAMPLE.columns,
  file_upload_link: `http://127.0.0.1:4001/v1/batches/${ID}/file?expires=1795586400&signature=3f1c…`,
};
