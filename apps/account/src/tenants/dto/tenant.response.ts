import { ApiProperty } from '@nestjs/swagger';

export class TenantResponse {
  @ApiProperty({ example: 'acme' }) tenant_id!: string;
  @ApiProperty({ example: 'Acme S.A.S.' }) name!: string;
  @ApiProperty({ type: [String], example: ['HUB-A'] }) billing_hubs!: string[];
  @ApiProperty({ format: 'date-time' }) creation_date!: string;
}

export class TenantCreatedResponse {
  @ApiProperty() tenant_id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ type: [String] }) billing_hubs!: string[];
  @ApiProperty({ description: 'false when the tenant already existed (the call is idempotent)' }) created!: boolean;
  @ApiProperty({
    type: 'object',
    properties: {
      user_id: { type: 'string' },
      username: { type: 'string' },
      role: { type: 'string' },
      status: { type: 'string' },
    },
  })
  admin_user!: { user_id: string; username: string; role: string; status: string };
}

export class BillingHubsResponse {
  @ApiProperty({ type: [String], example: ['HUB-DEMO'] }) billing_hubs!: string[];
}

export const TENANT_EXAMPLE = {
  tenant_id: 'acme',
  name: 'Acme S.A.S.',
  billing_hubs: ['HUB-A'],
  creation_date: '2026-11-25T06:00:00.000Z',
};
