import { Column, Entity, PrimaryColumn } from 'typeorm';

export const CHAT_STATUSES = ['open', 'closed'] as const;
export type ChatStatus = (typeof CHAT_STATUSES)[number];
export const ACTOR_TYPES = ['user', 'agent', 'system', 'bot'] as const;
export type ActorType = (typeof ACTOR_TYPES)[number];
export const ACTIVITY_TYPES = ['message', 'assignment', 'status_change', 'note'] as const;
export type ActivityType = (typeof ACTIVITY_TYPES)[number];

/** A conversation of a user with a line, worked by an agent. */
@Entity({ name: 'chats' })
export class ChatEntity {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column({ name: 'tenant_id', type: 'text' })
  tenantId!: string;

  @Column({ name: 'line_id', type: 'text' })
  lineId!: string;

  @Column({ name: 'line_phone', type: 'text' })
  linePhone!: string;

  /** The queue it waits in: its line's phone. */
  @Column({ type: 'text' })
  queue!: string;

  @Column({ name: 'contact_phone', type: 'text' })
  contactPhone!: string;

  @Column({ name: 'contact_name', type: 'text', nullable: true })
  contactName!: string | null;

  @Column({ type: 'text' })
  status!: ChatStatus;

  /** The agent's e-mail. */
  @Column({ type: 'text', nullable: true })
  owner!: string | null;

  @Column({ type: 'text', array: true })
  tags!: string[];

  @Column({ name: 'enqueued_at', type: 'timestamptz', nullable: true })
  enqueuedAt!: Date | null;

  @Column({ name: 'assigned_at', type: 'timestamptz', nullable: true })
  assignedAt!: Date | null;

  @Column({ name: 'closed_at', type: 'timestamptz', nullable: true })
  closedAt!: Date | null;

  /** Opens the provider's 24-hour customer-service window. */
  @Column({ name: 'last_user_message_at', type: 'timestamptz', nullable: true })
  lastUserMessageAt!: Date | null;

  @Column({ name: 'last_activity_at', type: 'timestamptz' })
  lastActivityAt!: Date;

  @Column({ name: 'last_actor_type', type: 'text' })
  lastActorType!: ActorType;

  @Column({ name: 'last_activity_type', type: 'text' })
  lastActivityType!: ActivityType;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}

/** One thing that happened in a chat: a message, an assignment, a status change (of the chat or of a message), a note. */
@Entity({ name: 'chat_activities' })
export class ChatActivityEntity {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column({ type: 'bigint', insert: false, update: false })
  seq!: string;

  @Column({ name: 'tenant_id', type: 'text' })
  tenantId!: string;

  @Column({ name: 'chat_id', type: 'text' })
  chatId!: string;

  @Column({ name: 'actor_type', type: 'text' })
  actorType!: ActorType;

  /** The agent's e-mail, the user's phone, or the system part that acted. */
  @Column({ type: 'text', nullable: true })
  actor!: string | null;

  @Column({ name: 'activity_type', type: 'text' })
  activityType!: ActivityType;

  @Column({ type: 'text', nullable: true })
  text!: string | null;

  @Column({ name: 'message_id', type: 'text', nullable: true })
  messageId!: string | null;

  /** A message's delivery status (accepted, sent, delivered, read, failed). */
  @Column({ name: 'message_status', type: 'text', nullable: true })
  messageStatus!: string | null;

  @Column({ name: 'chat_status', type: 'text', nullable: true })
  chatStatus!: string | null;

  @Column({ type: 'text', nullable: true })
  owner!: string | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
