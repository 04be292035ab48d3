import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

import { ACTIVITY_TYPES, ACTOR_TYPES, CHAT_STATUSES } from '../chat.entity';

export class ChatContactResponse {
  @ApiProperty({ example: '+573001234567' })
  phone!: string;

  @ApiPropertyOptional({ type: String, example: 'Ana Gómez', nullable: true })
  name!: string | null;
}

export class ChatLastActivityResponse {
  @ApiProperty({ format: 'date-time' })
  date!: string;

  @ApiProperty({ enum: ACTOR_TYPES })
  actor_type!: string;

  @ApiProperty({ enum: ACTIVITY_TYPES })
  activity_type!: string;
}

/** A chat on the wire. */
export class ChatResponse {
  @ApiProperty({ example: 'CHT5b1f0c2e9d8a4b7c8f6e5d4c3b2a1f0e' })
  chat_id!: string;

  @ApiProperty({ description: 'The line (phone with country code)', example: '+573000000001' })
  line!: string;

  @ApiProperty({ example: 'whatsapp' })
  channel!: string;

  @ApiProperty({ description: 'The queue it waits in (its line)', example: '+573000000001' })
  queue!: string;

  @ApiProperty({ type: ChatContactResponse })
  contact!: ChatContactResponse;

  @ApiProperty({ enum: CHAT_STATUSES })
  status!: string;

  @ApiPropertyOptional({ type: String, description: "The agent's e-mail", nullable: true, example: 'ana@acme.com' })
  owner!: string | null;

  @ApiProperty({ description: 'Open and waiting for an agent' })
  enqueued!: boolean;

  @ApiProperty({ type: [String] })
  tags!: string[];

  @ApiProperty({ type: ChatLastActivityResponse })
  last_activity!: ChatLastActivityResponse;

  @ApiPropertyOptional({ type: String, format: 'date-time', nullable: true })
  enqueued_at!: string | null;

  @ApiPropertyOptional({ type: String, format: 'date-time', nullable: true })
  assigned_at!: string | null;

  @ApiPropertyOptional({ type: String, format: 'date-time', nullable: true })
  closed_at!: string | null;

  @ApiProperty({ format: 'date-time' })
  creation_date!: string;

  @ApiProperty({ format: 'date-time' })
  update_date!: string;
}

/** An activity of a chat on the wire. */
export class ChatActivityResponse {
  @ApiProperty({ example: 'ACT0c2e9d8a4b7c8f6e5d4c3b2a1f0e5b1f' })
  activity_id!: string;

  @ApiProperty()
  chat_id!: string;

  @ApiProperty({ enum: ACTOR_TYPES })
  actor_type!: string;

  @ApiPropertyOptional({
    type: String,
    description: "The agent's e-mail, the user's phone, or `provider`",
    nullable: true,
  })
  actor!: string | null;

  @ApiProperty({ enum: ACTIVITY_TYPES })
  activity_type!: string;

  @ApiPropertyOptional({ type: String, nullable: true })
  text!: string | null;

  @ApiPropertyOptional({ type: String, nullable: true })
  message_id!: string | null;

  @ApiPropertyOptional({ type: String, description: 'accepted, sent, delivered, read, failed', nullable: true })
  message_status!: string | null;

  @ApiPropertyOptional({ type: String, enum: CHAT_STATUSES, nullable: true })
  chat_status!: string | null;

  @ApiPropertyOptional({ type: String, description: 'The owner an assignment gave the chat to', nullable: true })
  owner!: string | null;

  @ApiProperty({ format: 'date-time' })
  creation_date!: string;
}

export const CHAT_EXAMPLE = {
  chat_id: 'CHT5b1f0c2e9d8a4b7c8f6e5d4c3b2a1f0e',
  line: '+573000000001',
  channel: 'whatsapp',
  queue: '+573000000001',
  contact: { phone: '+573001234567', name: 'Ana Gómez' },
  status: 'open',
  owner: 'agent@acme.com',
  enqueued: false,
  tags: ['vip'],
  last_activity: { date: '2026-11-25T10:00:05.000Z', actor_type: 'system', activity_type: 'assignment' },
  enqueued_at: null,
  assigned_at: '2026-11-25T10:00:05.000Z',
  closed_at: null,
  creation_date: '2026-11-25T10:00:04.000Z',
  update_date: '2026-11-25T10:00:05.000Z',
};

export const ACTIVITY_EXAMPLE = {
  activity_id: 'ACT0c2e9d8a4b7c8f6e5d4c3b2a1f0e5b1f',
  chat_id: CHAT_EXAMPLE.chat_id,
  actor_type: 'agent',
  actor: 'agent@acme.com',
  activity_type: 'message',
  text: 'Hola Ana, ¿en qué te ayudo?',
  message_id: 'MSG9a0c2e9d8a4b7c8f6e5d4c3b2a1f0e5b',
  message_status: 'delivered',
  chat_status: null,
  owner: null,
  creation_date: '2026-11-25T10:01:00.000Z',
};
