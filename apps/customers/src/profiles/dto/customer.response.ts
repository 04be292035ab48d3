import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** The basic info of a profile (also the whole answer of a list with `basic_info=true`). */
export class BasicInfoResponse {
  @ApiProperty() id!: string;
  @ApiProperty({ nullable: true, type: String }) name!: string | null;
  @ApiProperty({ nullable: true, type: String }) country!: string | null;
  @ApiProperty({ nullable: true, type: String }) phone!: string | null;
  @ApiProperty({ nullable: true, type: String }) email!: string | null;
  @ApiProperty({ nullable: true, type: String }) document_number!: string | null;
  @ApiProperty({ nullable: true, type: String }) document_type!: string | null;
  @ApiProperty({ nullable: true, type: String }) birthday!: string | null;
  @ApiProperty({ nullable: true, type: String }) document_issue_date!: string | null;
  @ApiProperty({ nullable: true, type: String }) gender!: string | null;
}

class CustomerSummaryResponse {
  @ApiProperty() transactions_count!: number;
  @ApiProperty() checks_count!: number;
  @ApiProperty({ nullable: true, type: Number }) latest_check_score!: number | null;
  @ApiProperty({ nullable: true, type: String }) latest_check_status!: string | null;
  @ApiProperty() validations_count!: number;
  @ApiProperty() failed_validations_count!: number;
  @ApiProperty({ nullable: true, type: String }) latest_validation_status!: string | null;
  @ApiProperty() processes_count!: number;
  @ApiProperty({ nullable: true, type: String }) latest_process_status!: string | null;
  @ApiProperty() chats_count!: number;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) first_transaction_date!: string | null;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) last_transaction_date!: string | null;
}

/** A customer profile built from the services' events. */
export class CustomerResponse {
  @ApiProperty({ example: 'CUS019ab9f2c4e0a1b2c3d4e5f6a7' }) customer_id!: string;
  @ApiProperty({ type: BasicInfoResponse }) basic_info!: BasicInfoResponse;
  @ApiProperty({ nullable: true, type: String }) first_name!: string | null;
  @ApiProperty({ nullable: true, type: String }) last_name!: string | null;
  @ApiProperty({ type: [String] }) tags!: string[];
  @ApiProperty({ type: CustomerSummaryResponse, description: 'What segments and decision variables read' })
  summary!: CustomerSummaryResponse;
  @ApiProperty({ format: 'date-time' }) creation_date!: string;
  @ApiProperty({ format: 'date-time' }) update_date!: string;
}

export const BASIC_INFO_EXAMPLE = {
  id: 'CUS019ab9f2c4e0a1b2c3d4e5f6a7',
  name: 'Ana Perez',
  country: 'CO',
  phone: '+573001234567',
  email: 'ana@example.com',
  document_number: '1020304050',
  document_type: 'national-id',
  birthday: '1990-05-01',
  document_issue_date: null,
  gender: 'female',
};

export const CUSTOMER_EXAMPLE = {
  customer_id: 'CUS019ab9f2c4e0a1b2c3d4e5f6a7',
  basic_info: BASIC_INFO_EXAMPLE,
  first_name: 'Ana',
  last_name: 'Perez',
  tags: ['vip'],
  summary: {
    transactions_count: 2,
    checks_count: 1,
    latest_check_score: 0.8,
    latest_check_status: 'completed',
    validations_count: 1,
    failed_validations_count: 0,
    latest_validation_status: 'success',
    processes_count: 0,
    latest_process_status: null,
    chats_count: 0,
    first_transaction_date: '2026-11-25T09:00:00.000Z',
    last_transaction_date: '2026-11-25T09:05:00.000Z',
  },
  creation_date: '2026-11-25T09:00:00.000Z',
  update_date: '2026-11-25T09:05:00.000Z',
};

/** One check, process, validation, chat or profile event on the profile. */
export class TransactionResponse {
  @ApiProperty() transaction_id!: string;
  @ApiProperty() customer_id!: string;
  @ApiProperty({ enum: ['check', 'process', 'validation', 'engagement-chat', 'profile'] }) product!: string;
  @ApiProperty({ description: 'The id of the check, process, validation or chat' }) source_id!: string;
  @ApiProperty({ description: 'The topic of the event that made it' }) event_type!: string;
  @ApiProperty({ nullable: true, type: String }) status!: string | null;
  @ApiProperty({ nullable: true, type: Number }) score!: number | null;
  @ApiProperty({ format: 'date-time' }) occurred_at!: string;
  @ApiProperty({ type: 'object', additionalProperties: true }) data!: Record<string, unknown>;
  @ApiProperty({ format: 'date-time' }) creation_date!: string;
  @ApiProperty({ format: 'date-time' }) update_date!: string;
}

export const TRANSACTION_EXAMPLE = {
  transaction_id: 'TRX019ab9f2c4e0a1b2c3d4e5f6a8',
  customer_id: 'CUS019ab9f2c4e0a1b2c3d4e5f6a7',
  product: 'check',
  source_id: 'CHK019ab9f2c4e0a1b2c3d4e5f6a9',
  event_type: 'checks.check.finished',
  status: 'completed',
  score: 0.8,
  occurred_at: '2026-11-25T09:00:00.000Z',
  data: { country: 'CO', type: 'person' },
  creation_date: '2026-11-25T09:00:00.000Z',
  update_date: '2026-11-25T09:00:00.000Z',
};

export class TagChangeResponse {
  @ApiProperty() tag!: string;
  @ApiProperty({ enum: ['added', 'removed'] }) action!: string;
  @ApiProperty({ description: 'What changed it (an event topic or the API)' }) source!: string;
  @ApiProperty({ format: 'date-time' }) occurred_at!: string;
  @ApiProperty({ format: 'date-time' }) creation_date!: string;
}

export const TAG_CHANGE_EXAMPLE = {
  tag: 'vip',
  action: 'added',
  source: 'engagement.message.received',
  occurred_at: '2026-11-25T09:00:00.000Z',
  creation_date: '2026-11-25T09:00:00.000Z',
};

class WabaLineResponse {
  @ApiProperty() waba_phone_number!: string;
  @ApiProperty({ format: 'date-time' }) first_seen_at!: string;
  @ApiProperty({ format: 'date-time' }) last_seen_at!: string;
}

export class WabaLinesResponse {
  @ApiProperty({ type: [WabaLineResponse] }) waba_lines!: WabaLineResponse[];
}

export const WABA_LINES_EXAMPLE = {
  waba_lines: [
    {
      waba_phone_number: '+5215512345678',
      first_seen_at: '2026-11-25T09:00:00.000Z',
      last_seen_at: '2026-11-25T09:05:00.000Z',
    },
  ],
};

export class CustomersQueryResponse {
  @ApiProperty({ type: [CustomerResponse] }) customers!: CustomerResponse[];
  @ApiPropertyOptional({ description: 'Send it back as start_key for the next page' }) next_start_key?: string;
  @ApiProperty() self!: string;
}

class IdentityResponse {
  @ApiProperty({ enum: ['document', 'phone', 'email'] }) kind!: string;
  @ApiProperty({ description: 'Normalized; a document is `<country>:<type>:<number>`' }) value!: string;
  @ApiProperty({ format: 'date-time', description: 'When an event first brought it to a profile' })
  first_seen_at!: string;
}

class MergeResponse {
  @ApiProperty({ description: 'The profile merged into this one (its id answers with this profile)' })
  merged_customer_id!: string;
  @ApiProperty({ description: 'The identifier both held (`<kind>:<value>`)' }) identifier!: string;
  @ApiProperty({ format: 'date-time' }) merged_at!: string;
}

/** How identity resolution knows the person: the profile's identifiers and the profiles merged into it. */
export class IdentitiesResponse {
  @ApiProperty({ type: [IdentityResponse] }) identities!: IdentityResponse[];
  @ApiProperty({ type: [MergeResponse] }) merges!: MergeResponse[];
  @ApiProperty() self!: string;
}

export const IDENTITIES_EXAMPLE = {
  identities: [
    { kind: 'document', value: 'CO:national-id:1020304050', first_seen_at: '2026-11-25T09:00:00.000Z' },
    { kind: 'phone', value: '+573001234567', first_seen_at: '2026-11-25T09:05:00.000Z' },
  ],
  merges: [
    {
      merged_customer_id: 'CUS019ab9f2c4e0a1b2c3d4e5f6b0',
      identifier: 'phone:+573001234567',
      merged_at: '2026-11-25T09:05:00.000Z',
    },
  ],
  self: '/v1/customers/CUS019ab9f2c4e0a1b2c3d4e5f6a7/identities',
};
