/** Event types of the engagement service (each is also its Kafka topic). */
export const ENGAGEMENT_EVENT_TYPES = {
  messageSent: 'engagement.message.sent',
  messageStatusChanged: 'engagement.message.status-changed',
  messageReceived: 'engagement.message.received',
  outboundStatusChanged: 'engagement.outbound.status-changed',
  flowStarted: 'engagement.flow.started',
} as const;

export type OutboundStatus =
  'PENDING' | 'APPROVED' | 'REJECTED' | 'FLAGGED' | 'DISABLED' | 'PAUSED' | 'PENDING_DELETION';
export type OutboundQuality = 'HIGH' | 'MEDIUM' | 'LOW' | 'PENDING';
/** Delivery status of a message sent to a user (the provider's, lower case). */
export type MessageStatus = 'accepted' | 'sent' | 'delivered' | 'read' | 'failed';

/** An outbound message left for the provider (`engagement.message.sent`). */
export interface MessageSentEvent {
  message_id: string;
  outbound_id: string;
  line: string;
  /** E.164 phone of the recipient. */
  phone: string;
  account_id?: string;
  flow_id?: string;
  campaign_id?: string;
  provider_message_id: string;
}

/** The provider reported a delivery status (`engagement.message.status-changed`). */
export interface MessageStatusChangedEvent {
  message_id: string;
  status: MessageStatus;
  previous_status: MessageStatus;
  error?: string;
}

/** A user wrote to a line (`engagement.message.received`). */
export interface MessageReceivedEvent {
  message_id: string;
  line: string;
  phone: string;
  text: string;
  provider_message_id: string;
}

/** An outbound template changed status (`engagement.outbound.status-changed`). */
export interface OutboundStatusChangedEvent {
  outbound_id: string;
  status: OutboundStatus;
  previous_status: OutboundStatus;
  quality: OutboundQuality;
  reason?: string;
}

/** A user's message started an inbound flow (`engagement.flow.started`). */
export interface FlowStartedEvent {
  inbound_flow_id: string;
  flow_id: string;
  line: string;
  phone: string;
  /** Set when the flow was started by accepting an outbound message (not by an activation text). */
  message_id?: string;
}
