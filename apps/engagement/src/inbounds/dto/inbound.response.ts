import { ApiProperty } from '@nestjs/swagger';

/** An inbound flow on the wire. */
export class InboundResponse {
  @ApiProperty()
  inbound_flow_id!: string;

  @ApiProperty()
  flow_id!: string;

  @ApiProperty()
  activation_message!: string;

  @ApiProperty()
  waba_phone_number!: string;

  @ApiProperty({ description: 'Deep link that opens the chat with the activation message typed' })
  activation_link!: string;

  @ApiProperty({ format: 'date-time' })
  creation_date!: string;

  @ApiProperty({ format: 'date-time' })
  update_date!: string;
}

export const INBOUND_EXAMPLE: InboundResponse = {
  inbound_flow_id: 'IBF5e6f7a8b9c0d41e2f3a4b5c6d7e8f9a0',
  flow_id: 'IPF1a2b3c',
  activation_message: 'Quiero validar mi identidad',
  waba_phone_number: '+573000000001',
  activation_link: 'https://wa.me/573000000001?text=Quiero%20validar%20mi%20identidad',
  creation_date: '2026-11-25T10:00:00.000Z',
  update_date: '2026-11-25T10:00:00.000Z',
};

export const SESSION_EXAMPLE = {
  session_id: 'SES9a8b7c6d5e4f43a2b1c0d9e8f7a6b5c4',
  flow_id: 'IPF1a2b3c',
  status: 'finished',
  finished_at: '2026-11-25T10:30:00.000Z',
};
