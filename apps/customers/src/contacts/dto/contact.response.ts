import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

export class ContactPropertyResponse {
  @ApiProperty({ example: 'CPR019ab9f2c4e0a1b2c3d4e5f6a7' }) property_id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ enum: ['string', 'int', 'boolean', 'date', 'email', 'enum', 'hidden'] }) type!: string;
  @ApiPropertyOptional({ type: [String], description: 'enum only' }) enum_values?: string[];
  @ApiProperty() hidden!: boolean;
  @ApiProperty({ format: 'date-time' }) creation_date!: string;
}

export const CONTACT_PROPERTY_EXAMPLE = {
  property_id: 'CPR019ab9f2c4e0a1b2c3d4e5f6a7',
  name: 'plan',
  type: 'enum',
  enum_values: ['basic', 'gold'],
  hidden: false,
  creation_date: '2026-11-25T09:00:00.000Z',
};

export class ContactResponse {
  @ApiProperty({ example: 'CON019ab9f2c4e0a1b2c3d4e5f6a7' }) contact_id!: string;
  @ApiProperty({ nullable: true, type: String, description: 'E.164' }) phone_number!: string | null;
  @ApiProperty({ nullable: true, type: String }) external_id!: string | null;
  @ApiProperty({ nullable: true, type: String }) name!: string | null;
  @ApiProperty({ nullable: true, type: String }) email!: string | null;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: 'property_id → value (hidden properties left out)',
  })
  custom_property_values!: Record<string, unknown>;
  @ApiProperty({ nullable: true, type: String, description: 'The customer profile it links to' })
  customer_id!: string | null;
  @ApiProperty({ format: 'date-time' }) creation_date!: string;
  @ApiProperty({ format: 'date-time' }) update_date!: string;
}

export const CONTACT_EXAMPLE = {
  contact_id: 'CON019ab9f2c4e0a1b2c3d4e5f6a7',
  phone_number: '+573001234567',
  external_id: 'crm-42',
  name: 'Ana Perez',
  email: 'ana@example.com',
  custom_property_values: { CPR019ab9f2c4e0a1b2c3d4e5f6a7: 'gold' },
  customer_id: 'CUS019ab9f2c4e0a1b2c3d4e5f6a7',
  creation_date: '2026-11-25T09:00:00.000Z',
  update_date: '2026-11-25T09:00:00.000Z',
};
