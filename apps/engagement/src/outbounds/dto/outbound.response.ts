import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

export class OutboundButtonResponse {
  @ApiProperty({ enum: ['QUICK_REPLY', 'URL', 'PHONE_NUMBER', 'COPY_CODE'] })
  type!: string;

  @ApiProperty()
  text!: string;

  @ApiPropertyOptional()
  url?: string;

  @ApiPropertyOptional()
  phone_number?: string;
}

/** An outbound message template on the wire. */
export class OutboundResponse {
  @ApiProperty()
  outbound_id!: string;

  @ApiProperty()
  outbound_name!: string;

  @ApiProperty()
  waba_phone_number!: string;

  @ApiProperty({ enum: ['MARKETING', 'UTILITY', 'AUTHENTICATION'] })
  category!: string;

  @ApiProperty()
  language_code!: string;

  @ApiProperty({ enum: ['TEXT', 'IMAGE', 'VIDEO', 'DOCUMENT'] })
  template_type!: string;

  @ApiProperty()
  is_notification!: boolean;

  @ApiPropertyOptional()
  media_id?: string;

  @ApiPropertyOptional()
  content?: string;

  @ApiPropertyOptional()
  header_text?: string;

  @ApiPropertyOptional()
  footer?: string;

  @ApiPropertyOptional({ minimum: 1, maximum: 90 })
  code_expiration_minutes?: number;

  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'object', required: ['value'], properties: { value: { type: 'string' } } },
    description: 'Example value of each variable: `{"name": {"value": "Ana"}}`',
  })
  var!: Record<string, { value: string }>;

  @ApiProperty({ type: [OutboundButtonResponse] })
  buttons!: OutboundButtonResponse[];

  @ApiProperty({ type: [String], description: 'Variables a send supplies as `var.<name>`' })
  variables!: string[];

  @ApiPropertyOptional()
  default_flow_id?: string;

  @ApiProperty({ enum: ['PENDING', 'APPROVED', 'REJECTED', 'FLAGGED', 'PAUSED', 'PENDING_DELETION', 'DISABLED'] })
  status!: string;

  @ApiProperty({ enum: ['HIGH', 'MEDIUM', 'LOW', 'PENDING'] })
  quality!: string;

  @ApiPropertyOptional()
  status_reason?: string;

  @ApiProperty({ description: 'False with 4 or more buttons, or a quick reply mixed with another type' })
  desktop_visible!: boolean;

  @ApiProperty({ format: 'date-time' })
  creation_date!: string;

  @ApiProperty({ format: 'date-time' })
  update_date!: string;
}

export class MediaResponse {
  @ApiProperty()
  media_id!: string;

  @ApiProperty({ enum: ['IMAGE', 'VIDEO', 'DOCUMENT'] })
  media_type!: string;

  @ApiProperty()
  mime_type!: string;

  @ApiProperty()
  size_bytes!: number;

  @ApiProperty({ format: 'date-time' })
  creation_date!: string;
}

export const OUTBOUND_EXAMPLE: OutboundResponse = {
  outbound_id: 'OTB0c1d2e3f4a5b46c7d8e9f0a1b2c3d4e5',
  outbound_name: 'pedido en camino',
  waba_phone_number: '+573000000001',
  category: 'UTILITY',
  language_code: 'es',
  template_type: 'TEXT',
  is_notification: true,
  content: 'Hola {{.name}}, tu pedido {{.order}} está en camino.',
  var: { name: { value: 'Ana' }, order: { value: 'A-1001' } },
  buttons: [{ type: 'URL', text: 'Ver pedido', url: 'https://shop.example.com/orders/{{.order}}' }],
  variables: ['name', 'order'],
  status: 'APPROVED',
  quality: 'HIGH',
  desktop_visible: true,
  creation_date: '2026-11-25T10:00:00.000Z',
  update_date: '2026-11-25T10:00:02.000Z',
};

export const MEDIA_EXAMPLE: MediaResponse = {
  media_id: 'MED7a8b9c0d1e2f43a4b5c6d7e8f9a0b1c2',
  media_type: 'IMAGE',
  mime_type: 'image/png',
  size_bytes: 48213,
  creation_date: '2026-11-25T10:00:00.000Z',
};
