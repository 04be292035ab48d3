import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

export class ProcessStepResponse {
  @ApiProperty({ example: 'step-1' }) step_id!: string;
  @ApiProperty({ enum: ['form', 'email', 'phone', 'document', 'face'] }) type!: string;
  @ApiProperty({ example: 'VER3f2a1b0c9d8e7f6a5b4c' }) verification_id!: string;
  @ApiProperty({ enum: ['pending', 'awaiting_validation', 'success', 'failure'] }) status!: string;
  @ApiProperty({ type: [String] }) expected_inputs!: string[];
  @ApiPropertyOptional() validation_id?: string;
  @ApiPropertyOptional({ description: 'Upload links of the validation' }) instructions?: object;
  @ApiPropertyOptional({
    description: "Upload slots the end user's page sent to the validation",
    type: [String],
    example: ['front'],
  })
  uploaded?: string[];
  @ApiPropertyOptional({
    enum: ['accepted', 'rejected'],
    description: 'E-mail and phone steps: the answer of the validations service to the last code',
  })
  code_status?: string;
  @ApiPropertyOptional({ example: 2, description: 'E-mail and phone steps: codes the user may still try' })
  attempts_left?: number;
  @ApiPropertyOptional() declined_reason?: string;
  @ApiPropertyOptional() expired_reason?: string;
  @ApiPropertyOptional({
    example: 'VLD0a1b2c3d4e5f60718293a4b5c6d7e8f9',
    description:
      "Document and face steps sent back to capture: the failed validation the step's next validation retries (validator settings allowed_retries, retry_ttl)",
  })
  retry_of_id?: string;
  @ApiPropertyOptional({
    example: 'unreadable_document',
    description: 'Why the retried validation failed (its declined or failure reason)',
  })
  retry_reason?: string;
  @ApiPropertyOptional({ example: 0, description: 'Retries of the step left after the current one' })
  retries_left?: number;
  @ApiPropertyOptional() dynamic?: boolean;
  @ApiPropertyOptional({ format: 'date-time' }) completed_date?: string;
}

export class ProcessResponse {
  @ApiProperty({ example: 'IDP0a1b2c3d4e5f60718293a4b5c6d7e8f9' }) process_id!: string;
  @ApiProperty() flow_id!: string;
  @ApiProperty() account_id!: string;
  @ApiProperty({ enum: ['pending', 'success', 'failure'], description: 'override_status when present' })
  status!: string;
  @ApiPropertyOptional({ enum: ['success', 'failure'] }) override_status?: string;
  @ApiPropertyOptional({ type: 'array', items: { type: 'object', additionalProperties: true } })
  override_status_history?: object[];
  @ApiPropertyOptional({ example: 'expired' }) failure_status?: string;
  @ApiPropertyOptional() declined_reason?: string;
  @ApiPropertyOptional() expired_reason?: string;
  @ApiProperty() current_step!: number;
  @ApiProperty({ type: [ProcessStepResponse] }) steps!: ProcessStepResponse[];
  @ApiPropertyOptional() phone_number?: string;
  @ApiPropertyOptional({ description: 'Serialized JSON' }) device_info?: string;
  @ApiProperty() timeout_attempts!: number;
  @ApiProperty({ format: 'date-time' }) expiration_date!: string;
  @ApiProperty({ format: 'date-time' }) creation_date!: string;
  @ApiProperty({ format: 'date-time' }) update_date!: string;
  @ApiPropertyOptional({ format: 'date-time' }) finished_date?: string;
}

export const PROCESS_EXAMPLE = {
  process_id: 'IDP0a1b2c3d4e5f60718293a4b5c6d7e8f9',
  flow_id: 'IDF8c1e2d3f4a5b6c7d8e9f0a1b2c3d4e5f',
  account_id: 'acc-42',
  status: 'pending',
  current_step: 1,
  steps: [
    {
      step_id: 'step-1',
      type: 'form',
      verification_id: 'VER3f2a1b0c9d8e7f6a5b4c',
      status: 'success',
      expected_inputs: ['first_name'],
      completed_date: '2026-11-25T06:01:00.000Z',
    },
    {
      step_id: 'step-2',
      type: 'document',
      verification_id: 'VER9e8d7c6b5a4f3e2d1c0b',
      status: 'pending',
      expected_inputs: ['country', 'document_type'],
    },
  ],
  timeout_attempts: 0,
  expiration_date: '2026-11-25T06:10:00.000Z',
  creation_date: '2026-11-25T06:00:00.000Z',
  update_date: '2026-11-25T06:01:00.000Z',
};

export const RESULT_EXAMPLE = {
  process_id: PROCESS_EXAMPLE.process_id,
  account_id: 'acc-42',
  flow_id: PROCESS_EXAMPLE.flow_id,
  status: 'success',
  creation_date: '2026-11-25T06:00:00.000Z',
  details: {
    validations: [
      { step_id: 'step-2', type: 'document', validation_status: 'success', validation_id: 'VLD0a1b2c3d4e5f' },
    ],
    variables: { first_name: 'Ana', country: 'CO', document_type: 'national-id' },
  },
};

export const RESULT_SCHEMA = {
  type: 'object',
  required: ['process_id', 'account_id', 'flow_id', 'status', 'creation_date', 'details'],
  properties: {
    process_id: { type: 'string' },
    account_id: { type: 'string' },
    flow_id: { type: 'string' },
    status: { type: 'string', enum: ['pending', 'success', 'failure'] },
    override_status: { type: 'string' },
    failure_status: { type: 'string' },
    declined_reason: { type: 'string' },
    expired_reason: { type: 'string' },
    creation_date: { type: 'string', format: 'date-time' },
    details: {
      type: 'object',
      properties: {
        validations: { type: 'array', items: { type: 'object', additionalProperties: true } },
        variables: { type: 'object', additionalProperties: { type: 'string' } },
      },
    },
  },
};
