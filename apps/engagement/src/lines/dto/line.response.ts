import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** A business line (a phone number of the WABA) on the wire. */
export class LineResponse {
  @ApiProperty({ description: 'The line, its phone with country code' })
  waba_line!: string;

  @ApiProperty()
  waba_phone_number!: string;

  @ApiProperty({ description: "The provider's phone number id" })
  phone_number_id!: string;

  @ApiProperty()
  waba_id!: string;

  @ApiPropertyOptional()
  name?: string;

  @ApiPropertyOptional()
  verified_name?: string;

  @ApiProperty({ enum: ['HIGH', 'MEDIUM', 'LOW', 'PENDING'] })
  quality_rating!: string;

  @ApiPropertyOptional()
  default_flow_id?: string;

  @ApiProperty({ format: 'date-time' })
  creation_date!: string;

  @ApiProperty({ format: 'date-time' })
  update_date!: string;
}

/** A business account (WABA) of the tenant. */
export class WabaResponse {
  @ApiProperty()
  waba_id!: string;

  @ApiProperty()
  subscribed!: boolean;

  @ApiPropertyOptional({ format: 'date-time' })
  subscription_date?: string;

  @ApiProperty({ type: [String] })
  lines!: string[];

  @ApiProperty({ format: 'date-time' })
  creation_date!: string;
}

export const LINE_EXAMPLE: LineResponse = {
  waba_line: '+573000000001',
  waba_phone_number: '+573000000001',
  phone_number_id: '106540352242922',
  waba_id: '102290129340398',
  name: 'Ventas',
  verified_name: 'Acme Tiendas',
  quality_rating: 'HIGH',
  default_flow_id: 'IPF1a2b3c',
  creation_date: '2026-11-25T10:00:00.000Z',
  update_date: '2026-11-25T10:00:00.000Z',
};

export const WABA_EXAMPLE: WabaResponse = {
  waba_id: '102290129340398',
  subscribed: true,
  subscription_date: '2026-11-25T10:00:00.000Z',
  lines: ['+573000000001'],
  creation_date: '2026-11-25T09:59:00.000Z',
};
