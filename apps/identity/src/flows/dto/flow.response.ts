import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

export class FlowStepResponse {
  @ApiProperty({ example: 'step-1' }) step_id!: string;
  @ApiProperty({ enum: ['form', 'email', 'phone', 'document', 'face'] }) type!: string;
  @ApiPropertyOptional({
    description: 'Form steps: name, label, required',
    type: 'array',
    items: { type: 'object', additionalProperties: true },
  })
  fields?: object[];
  @ApiPropertyOptional({ description: "Validator steps: override of the tenant's validator configuration" })
  validator_settings?: object;
}

export class FlowResponse {
  @ApiProperty({ example: 'IDF8c1e2d3f4a5b6c7d8e9f0a1b2c3d4e5f' }) flow_id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ type: [FlowStepResponse] }) steps!: FlowStepResponse[];
  @ApiPropertyOptional({ nullable: true, type: String, description: 'null when the flow has none' }) redirect_url?:
    string | null;
  @ApiProperty() timeout_seconds!: number;
  @ApiProperty({ format: 'date-time' }) creation_date!: string;
  @ApiProperty({ format: 'date-time' }) update_date!: string;
}

export const FLOW_EXAMPLE = {
  flow_id: 'IDF8c1e2d3f4a5b6c7d8e9f0a1b2c3d4e5f',
  name: 'Onboarding',
  steps: [
    { step_id: 'step-1', type: 'form', fields: [{ name: 'first_name', label: 'First name', required: true }] },
    { step_id: 'step-2', type: 'document', validator_settings: { data_consistency: true } },
  ],
  redirect_url: 'https://example.com/done',
  timeout_seconds: 600,
  creation_date: '2026-11-25T06:00:00.000Z',
  update_date: '2026-11-25T06:00:00.000Z',
};
