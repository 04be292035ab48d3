import { ApiAnyJson } from '@kyc/platform';
import { ApiProperty } from '@nestjs/swagger';

class SegmentComputeResponse {
  @ApiProperty({ nullable: true, type: String }) compute_id!: string | null;
  @ApiProperty({ enum: ['not_computed', 'queued', 'running', 'completed', 'failed'] }) status!: string;
  @ApiProperty({ nullable: true, type: String, enum: ['sql', 'node'] }) evaluation!: string | null;
  @ApiProperty({ nullable: true, type: String, description: 'Why the rule was evaluated in Node' })
  fallback_reason!: string | null;
  @ApiProperty() processed!: number;
  @ApiProperty() total!: number;
  @ApiProperty() matched!: number;
  @ApiProperty({ description: '0 to 1' }) progress!: number;
  @ApiProperty({ nullable: true, type: String }) error!: string | null;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) requested_at!: string | null;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) started_at!: string | null;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) finished_at!: string | null;
}

/** A segment: a JSON-Logic rule over profiles, with its last compute. */
export class SegmentResponse {
  @ApiProperty({ example: 'SEG019ab9f2c4e0a1b2c3d4e5f6a7' }) segment_id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ nullable: true, type: String }) description!: string | null;
  @ApiAnyJson({ description: 'JSON-Logic over profile attributes and decision variables: an object, or true / false' })
  rule: unknown;
  @ApiProperty() members_count!: number;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) computed_at!: string | null;
  @ApiProperty({ type: SegmentComputeResponse }) compute!: SegmentComputeResponse;
  @ApiProperty({ format: 'date-time' }) creation_date!: string;
  @ApiProperty({ format: 'date-time' }) update_date!: string;
}

export const SEGMENT_EXAMPLE = {
  segment_id: 'SEG019ab9f2c4e0a1b2c3d4e5f6a7',
  name: 'CO VIP',
  description: 'VIP customers of Colombia with a good score',
  rule: {
    and: [
      { '==': [{ var: 'country' }, 'CO'] },
      { in: ['vip', { var: 'tags' }] },
      { '>=': [{ var: 'latest_check_score' }, 0.7] },
    ],
  },
  members_count: 1280,
  computed_at: '2026-11-25T09:00:02.000Z',
  compute: {
    compute_id: 'CMP019ab9f2c4e0a1b2c3d4e5f6a8',
    status: 'completed',
    evaluation: 'sql',
    fallback_reason: null,
    processed: 50000,
    total: 50000,
    matched: 1280,
    progress: 1,
    error: null,
    requested_at: '2026-11-25T09:00:00.000Z',
    started_at: '2026-11-25T09:00:00.100Z',
    finished_at: '2026-11-25T09:00:02.000Z',
  },
  creation_date: '2026-11-25T08:00:00.000Z',
  update_date: '2026-11-25T09:00:02.000Z',
};

export const SEGMENT_SELF = '/v1/customers/segments/SEG019ab9f2c4e0a1b2c3d4e5f6a7';

class SegmentVariableResponse {
  @ApiProperty({ example: 'latest_check_score' }) name!: string;
  @ApiProperty({
    enum: ['string', 'number', 'date', 'array'],
    description: 'date: YYYY-MM-DD text; array: a list of strings',
  })
  type!: string;
  @ApiProperty({
    enum: ['profile', 'decision'],
    description: 'profile: an attribute; decision: derived from the transactions',
  })
  group!: string;
}

/** The variables a segment rule may read (`{"var": name}`). */
export class SegmentVariablesResponse {
  @ApiProperty({ type: [SegmentVariableResponse] }) variables!: SegmentVariableResponse[];
}
