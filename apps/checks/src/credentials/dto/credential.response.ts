import { ApiProperty } from '@nestjs/swagger';

/** A stored credential, without its password or complements (write-only). */
export class CredentialResponse {
  @ApiProperty({ example: 'sandbox-co-bureau' }) database_id!: string;
  @ApiProperty() database_name!: string;
  @ApiProperty() username!: string;
  @ApiProperty() has_complements!: boolean;
  @ApiProperty({ format: 'date-time' }) creation_date!: string;
  @ApiProperty({ format: 'date-time' }) update_date!: string;
}

export class CredentialDeletedResponse {
  @ApiProperty() database_id!: string;
  @ApiProperty({ example: true }) deleted!: boolean;
}

export const CREDENTIAL_EXAMPLE = {
  database_id: 'sandbox-co-bureau',
  database_name: 'Sandbox Buró de crédito (comercial, requiere credenciales)',
  username: 'acme',
  has_complements: false,
  creation_date: '2026-11-25T06:00:00.000Z',
  update_date: '2026-11-25T06:00:00.000Z',
};
