import { ApiProperty } from '@nestjs/swagger';

/** One decision variable of the catalog. */
export class DecisionVariableResponse {
  @ApiProperty() id!: string;
  @ApiProperty() name!: string;
  @ApiProperty() description!: string;
  @ApiProperty({ enum: ['risk', 'activity', 'identity'] }) category!: string;
  @ApiProperty({ description: '1: a latest result; 2: aggregated over the range' }) level!: number;
  @ApiProperty({ enum: ['check', 'process'] }) product!: string;
  @ApiProperty({ enum: ['boolean', 'string', 'number', 'date'] }) data_type!: string;
  @ApiProperty() active!: boolean;
}

export const DECISION_VARIABLE_EXAMPLE = {
  id: 'latest_check_score',
  name: 'Latest check score',
  description: 'Score (0 to 1) of the latest check in the range',
  category: 'risk',
  level: 1,
  product: 'check',
  data_type: 'number',
  active: true,
};

class CustomerValuesResponse {
  @ApiProperty() customer_id!: string;
  @ApiProperty({ type: 'object', additionalProperties: true, description: 'variable id → value over the range' })
  values!: Record<string, unknown>;
}

export class DecisionValuesPageResponse {
  @ApiProperty({ format: 'date' }) start_date!: string;
  @ApiProperty({ format: 'date' }) end_date!: string;
  @ApiProperty({ type: [CustomerValuesResponse] }) decision_variables!: CustomerValuesResponse[];
  @ApiProperty() self!: string;
  @ApiProperty({ required: false, description: 'The next page; absent on the last page' }) next?: string;
}

export const DECISION_VALUES_EXAMPLE = {
  start_date: '2026-10-26',
  end_date: '2026-11-25',
  decision_variables: [
    {
      customer_id: 'CUS019ab9f2c4e0a1b2c3d4e5f6a7',
      values: { latest_check_score: 0.8, failed_validations_count: 0 },
    },
  ],
  self: '/v1/customers/decision-variables?start_date=2026-10-26&end_date=2026-11-25',
};
