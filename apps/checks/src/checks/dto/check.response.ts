import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

import { CHECK_INPUT_FIELDS } from './create-check.dto';

/** Result of one route (by_id or by_name) of a dataset. */
export class ScoreDetailResponse {
  @ApiProperty({ enum: ['found', 'not_found', 'pending', 'delayed', 'error', 'ignored'] })
  result!: string;

  @ApiProperty({ example: 1 })
  score!: number;

  @ApiProperty({ enum: ['unknown', 'none', 'very_low', 'low', 'medium', 'high', 'very_high'] })
  severity!: string;
}

/** Score of one dataset (public Score schema). */
export class DatasetScoreResponse extends ScoreDetailResponse {
  @ApiProperty({ example: 'criminal_record' })
  data_set!: string;

  @ApiProperty({ type: ScoreDetailResponse })
  by_id!: ScoreDetailResponse;

  @ApiProperty({ type: ScoreDetailResponse })
  by_name!: ScoreDetailResponse;
}

/** Status of one database of a check (public Status schema). */
export class DatabaseStatusResponse {
  @ApiProperty({ example: 'sandbox-co-police' })
  database_id!: string;

  @ApiProperty({ example: 'Sandbox Policía Nacional (antecedentes judiciales)' })
  database_name!: string;

  @ApiPropertyOptional({ example: 'criminal_record' })
  data_set?: string;

  @ApiProperty({ enum: ['not_started', 'delayed', 'completed', 'error', 'expired', 'skipped'] })
  status!: string;

  @ApiPropertyOptional({ type: [String], description: 'Inputs a skipped database lacks' })
  invalid_inputs?: string[];

  @ApiPropertyOptional({ description: 'Why a database failed' })
  message?: string;
}

/** The public Check schema; the inputs appear under their wire names (national_id, first_name, ...). */
export class CheckResponse {
  @ApiProperty({ example: 'CHK019ab9f2c4e03f1a2b3c4d5e6f7a8b9c' })
  check_id!: string;

  @ApiProperty({ enum: ['ALL', 'BR', 'CO', 'CL', 'MX', 'PE', 'CR'] })
  country!: string;

  @ApiProperty({ example: 'person', description: 'person, vehicle, company or a custom type' })
  type!: string;

  @ApiProperty({ enum: ['not_started', 'in_progress', 'delayed', 'completed', 'error'] })
  status!: string;

  @ApiProperty({ format: 'date-time' })
  creation_date!: string;

  @ApiProperty({ format: 'date-time' })
  update_date!: string;

  @ApiProperty({
    description: '0 (high risk) to 1 (low risk); 0 until a database answers (`status` tells which)',
    example: 1,
  })
  score!: number;

  @ApiProperty({ example: 1 })
  id_score!: number;

  @ApiProperty({ example: 1 })
  homonym_score!: number;

  @ApiPropertyOptional({ description: 'Share of people found by name who are not the one identified by document' })
  homonym_probability?: number;

  @ApiProperty({ type: [DatasetScoreResponse] })
  scores!: DatasetScoreResponse[];

  @ApiProperty({ type: [DatabaseStatusResponse] })
  statuses!: DatabaseStatusResponse[];

  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: 'Public Summary schema (names_found, identity_status, ...)',
  })
  summary!: Record<string, unknown>;

  @ApiPropertyOptional({ type: 'object', additionalProperties: true })
  vehicle_summary?: Record<string, unknown>;

  @ApiPropertyOptional({ type: 'object', additionalProperties: true })
  company_summary?: Record<string, unknown>;

  @ApiPropertyOptional({ type: 'array', items: { type: 'object', properties: { input: { type: 'string' } } } })
  wrong_inputs?: { input: string }[];

  @ApiPropertyOptional()
  custom_input?: string;

  @ApiPropertyOptional()
  report_id?: string;

  @ApiPropertyOptional({ description: 'The check a continuous-check run repeats' })
  previous_check?: string;

  @ApiProperty()
  user_authorized!: boolean;
}

// The inputs a check was created with are echoed under their wire names (check.presenter's
// echoedInputs): each is an optional property of the published Check, the dates as date-times.
for (const field of CHECK_INPUT_FIELDS)
  ApiPropertyOptional({
    type: String,
    ...(field === 'date_of_birth' || field === 'issue_date' ? { format: 'date-time' } : {}),
    description: 'An input of the check, as sent',
  })(CheckResponse.prototype, field);

export const CHECK_EXAMPLE = {
  check_id: 'CHK019ab9f2c4e03f1a2b3c4d5e6f7a8b9c',
  country: 'CO',
  type: 'person',
  status: 'completed',
  creation_date: '2026-11-25T06:00:00.000Z',
  update_date: '2026-11-25T06:00:01.412Z',
  score: 1,
  id_score: 1,
  homonym_score: 1,
  scores: [
    {
      data_set: 'criminal_record',
      result: 'not_found',
      score: 1,
      severity: 'none',
      by_id: { result: 'not_found', score: 1, severity: 'none' },
      by_name: { result: 'ignored', score: 1, severity: 'none' },
    },
  ],
  statuses: [
    {
      database_id: 'sandbox-co-police',
      database_name: 'Sandbox Policía Nacional (antecedentes judiciales)',
      data_set: 'criminal_record',
      status: 'completed',
    },
  ],
  summary: { names_found: [{ first_name: 'ANA', last_name: 'GOMEZ', count: 1 }], identity_status: 'found' },
  user_authorized: true,
  national_id: '123456',
  first_name: 'Ana',
};

/** POST /v1/checks and GET /v1/checks/{check_id}. */
export class CheckEnvelopeResponse {
  @ApiProperty({ type: CheckResponse })
  check!: CheckResponse;

  @ApiProperty({ example: '/v1/checks/CHK019ab9f2c4e03f1a2b3c4d5e6f7a8b9c/details' })
  details!: string;

  @ApiProperty({ example: '/v1/checks/CHK019ab9f2c4e03f1a2b3c4d5e6f7a8b9c' })
  self!: string;
}

export const checkEnvelopeExample = (check: object = CHECK_EXAMPLE) => ({
  check,
  details: `/v1/checks/${CHECK_EXAMPLE.check_id}/details`,
  self: `/v1/checks/${CHECK_EXAMPLE.check_id}`,
});

export const NEW_CHECK_EXAMPLE = {
  ...CHECK_EXAMPLE,
  status: 'not_started',
  update_date: CHECK_EXAMPLE.creation_date,
  score: 0,
  id_score: 0,
  homonym_score: 0,
  scores: [],
  statuses: [],
  summary: { names_found: [] },
};

/** One database's answer (GET /v1/checks/{check_id}/details). */
export class CheckDetailResponse {
  @ApiProperty() id!: string;
  @ApiProperty() check_id!: string;
  @ApiProperty() database_id!: string;
  @ApiProperty() database_name!: string;
  @ApiProperty() data_set!: string;
  @ApiProperty({ type: [String] }) data_sets!: string[];
  @ApiProperty({ example: 'government' }) group!: string;
  @ApiProperty({ example: 'person', description: 'person, person-name, vehicle, company, ...' }) route!: string;
  @ApiProperty() status!: string;
  @ApiProperty({
    enum: ['pending', 'found', 'not_found', 'error'],
    example: 'not_found',
    description: 'error also for a skipped database (see status)',
  })
  result!: string;
  @ApiProperty() severity!: string;
  @ApiProperty() score!: number;
  @ApiPropertyOptional({ type: [String] }) invalid_inputs?: string[];
  @ApiPropertyOptional() message?: string;
  @ApiProperty() found_first_name!: string;
  @ApiProperty() found_last_name!: string;
  @ApiProperty() found_company_name!: string;

  @ApiProperty({
    type: 'array',
    description: 'What the database found: a table per record, titles and labels translated (lang)',
    items: { type: 'object', additionalProperties: true },
  })
  tables!: Record<string, unknown>[];

  @ApiProperty({ description: 'Number of documents the database issued' }) attachments!: number;
  @ApiProperty({ format: 'date-time' }) update_date!: string;
}

export const CHECK_DETAIL_EXAMPLE = {
  id: 'CDB5d7f0c9e8a7d4e5f9a1b2c3d4e5f6a01',
  check_id: CHECK_EXAMPLE.check_id,
  database_id: 'sandbox-co-police',
  database_name: 'Sandbox Policía Nacional (antecedentes judiciales)',
  data_set: 'criminal_record',
  data_sets: ['criminal_record'],
  group: 'government',
  route: 'person',
  status: 'completed',
  result: 'not_found',
  severity: 'none',
  score: 1,
  found_first_name: '',
  found_last_name: '',
  found_company_name: '',
  tables: [],
  attachments: 0,
  update_date: '2026-11-25T06:00:01.412Z',
};

/** GET /v1/checks/{check_id}/summarize. */
export class CheckSummaryResponse {
  @ApiProperty() check_id!: string;
  @ApiProperty() status!: string;
  @ApiProperty({ type: 'object', additionalProperties: true }) summary!: Record<string, unknown>;
  @ApiPropertyOptional({ type: 'object', additionalProperties: true }) vehicle_summary?: Record<string, unknown>;
  @ApiPropertyOptional({ type: 'object', additionalProperties: true }) company_summary?: Record<string, unknown>;
  @ApiPropertyOptional() homonym_probability?: number;
  @ApiProperty() self!: string;
}

/** A document a database issued (e.g. a police certificate). */
export class CheckAttachmentResponse {
  @ApiProperty() attachment_id!: string;
  @ApiProperty() database_id!: string;
  @ApiProperty() database_name!: string;
  @ApiProperty({ example: 'certificado.pdf' }) file_name!: string;
  @ApiProperty({ example: 'application/pdf' }) content_type!: string;
  @ApiProperty({ description: 'Bytes' }) size!: number;
  @ApiProperty({ description: 'base64' }) content!: string;
  @ApiProperty({ format: 'date-time' }) creation_date!: string;
}

export class CheckAttachmentsResponse {
  @ApiProperty({ type: [CheckAttachmentResponse] }) attachments!: CheckAttachmentResponse[];
  @ApiProperty() self!: string;
}

export class CheckDeletedResponse {
  @ApiProperty() check_id!: string;
  @ApiProperty({ example: true }) deleted!: boolean;
}
