import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** A message sent to or received from a user, with its delivery status. */
export class MessageResponse {
  @ApiProperty()
  message_id!: string;

  @ApiProperty({ enum: ['outbound', 'inbound'] })
  direction!: string;

  @ApiProperty()
  waba_phone_number!: string;

  @ApiProperty()
  phone!: string;

  @ApiPropertyOptional()
  account_id?: string;

  @ApiPropertyOptional()
  outbound_id?: string;

  @ApiPropertyOptional()
  flow_id?: string;

  @ApiPropertyOptional()
  campaign_id?: string;

  @ApiPropertyOptional()
  text?: string;

  @ApiProperty({ enum: ['accepted', 'sent', 'delivered', 'read', 'failed'] })
  status!: string;

  @ApiPropertyOptional({ description: "The provider's error (failed)" })
  error?: string;

  @ApiProperty({ format: 'date-time' })
  creation_date!: string;

  @ApiProperty({ format: 'date-time' })
  update_date!: string;
}

export const MESSAGE_EXAMPLE: MessageResponse = {
  message_id: 'MSG6f1d2c3b4a5e46f7a8b9c0d1e2f3a4b5',
  direction: 'outbound',
  waba_phone_number: '+573000000001',
  phone: '+573001234567',
  account_id: 'user-42',
  outbound_id: 'OTB0c1d2e3f4a5b46c7d8e9f0a1b2c3d4e5',
  flow_id: 'IPF1a2b3c',
  status: 'delivered',
  creation_date: '2026-11-25T10:00:00.000Z',
  update_date: '2026-11-25T10:00:01.000Z',
};
