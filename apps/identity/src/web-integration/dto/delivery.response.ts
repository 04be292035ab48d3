import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

export class LinkDeliveryResponse {
  @ApiProperty({ example: 'LND5e4d3c2b1a0f9e8d7c6b5a4f3e2d1c0b' }) delivery_id!: string;
  @ApiProperty() flow_id!: string;
  @ApiPropertyOptional({ description: 'send-link deliveries' }) process_id?: string;
  @ApiProperty({ enum: ['msgapp', 'email', 'sms'] }) message_channel!: string;
  @ApiProperty({ enum: ['es', 'en', 'pt'] }) lang!: string;
  @ApiProperty({ description: 'E.164 phone or e-mail address' }) recipient!: string;
  @ApiPropertyOptional() outbound_id?: string;
  @ApiProperty({ enum: ['queued', 'sent', 'failed'] }) delivery_status!: string;
  @ApiPropertyOptional({ description: 'Why the channel refused it (failed)' }) error?: string;
  @ApiPropertyOptional({ description: 'The engagement message (msgapp)' }) message_id?: string;
  @ApiProperty({ format: 'date-time' }) creation_date!: string;
  @ApiProperty({ format: 'date-time' }) update_date!: string;
}

export class AccessLinkResponse extends LinkDeliveryResponse {
  @ApiProperty({ description: "The end user's page: /web?token=<web key>&lang=" }) process_url!: string;
  @ApiProperty({ description: 'The temporary web key bound to the flow (one process)' }) api_key!: string;
  @ApiProperty() key_id!: string;
  @ApiPropertyOptional({ format: 'date-time' }) expiration_date?: string;
}

export const DELIVERY_EXAMPLE = {
  delivery_id: 'LND5e4d3c2b1a0f9e8d7c6b5a4f3e2d1c0b',
  flow_id: 'IDF8c1e2d3f4a5b6c7d8e9f0a1b2c3d4e5f',
  message_channel: 'email',
  lang: 'es',
  recipient: 'ana@example.com',
  delivery_status: 'queued',
  creation_date: '2026-11-25T06:00:00.000Z',
  update_date: '2026-11-25T06:00:00.000Z',
};

export const ACCESS_LINK_EXAMPLE = {
  ...DELIVERY_EXAMPLE,
  process_url: 'https://identity.example.com/web?token=eyJhbGciOiJFZERTQSJ9.eyJqdGkiOi…&lang=es',
  api_key: 'eyJhbGciOiJFZERTQSJ9.eyJqdGkiOi…',
  key_id: 'KEY4c2ee4569fb346e6bcfdfa59de97db13',
  expiration_date: '2026-11-26T06:00:00.000Z',
};
