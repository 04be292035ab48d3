import { ApiProperty } from '@nestjs/swagger';

export class RoleResponse {
  @ApiProperty({ example: 'analyst' }) name!: string;
  @ApiProperty() description!: string;
  @ApiProperty({ type: [String], example: ['checks.country_co'] }) permissions!: string[];
  @ApiProperty({
    type: 'array',
    items: { type: 'object', additionalProperties: true },
    description: 'JSON-Logic rules restricting which checks the role reads',
  })
  access_rules!: unknown[];
  @ApiProperty({ description: 'full_access and default_access' }) built_in!: boolean;
  @ApiProperty({ format: 'date-time' }) creation_date!: string;
  @ApiProperty({ format: 'date-time' }) update_date!: string;
}

export const ROLE_EXAMPLE = {
  name: 'analyst',
  description: 'Reads Colombian checks',
  permissions: ['checks.country_co'],
  access_rules: [{ in: [{ var: 'country' }, ['CO']] }],
  built_in: false,
  creation_date: '2026-11-25T06:00:00.000Z',
  update_date: '2026-11-25T06:00:00.000Z',
};
