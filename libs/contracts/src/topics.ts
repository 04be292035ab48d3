import type { ApiKeyState, RoleState, UserState } from './account/access.events';
import type { CheckRequestedPayload } from './account/rules.events';
import type { CheckCreatedPayload, CheckFinishedPayload, RuleCheckCreatedPayload } from './checks/check.events';
import type { CustomTypeCreatedPayload, CustomTypeDeletedPayload } from './checks/custom-type.events';
import type { AgentCapacityChangedEvent, AgentStatusChangedEvent } from './engagement/agent.events';
import type { ChatAssignedEvent, ChatClosedEvent, ChatOpenedEvent } from './engagement/chat.events';
import type {
  FlowStartedEvent,
  MessageReceivedEvent,
  MessageSentEvent,
  MessageStatusChangedEvent,
  OutboundStatusChangedEvent,
} from './engagement/engagement.events';
import type { ProcessCreatedPayload, ProcessFinishedPayload } from './identity/process.events';
import type {
  EnrollmentFinishedPayload,
  ValidationCreatedPayload,
  ValidationFinishedPayload,
} from './validations/validation.events';

/**
 * Kafka topics. Event topics carry domain events (`<svc>.<resource>.<past-tense>`);
 * state topics are log-compacted and keyed by record id, so a new consumer that reads them
 * from the beginning rebuilds the current state (used by every service's access cache).
 */
export const TOPICS = {
  checkCreated: 'checks.check.created',
  checkFinished: 'checks.check.finished',
  /** Reply of the checks service to account.check.requested: the check a rule's action asked for exists. */
  ruleCheckCreated: 'checks.rule-check.created',
  /** Command from the rules engine (account) to the checks service: create a check for a tenant. */
  checkRequested: 'account.check.requested',
  /** A tenant's custom check type was created / deleted (validations keeps the names it may link to). */
  customTypeCreated: 'checks.custom-type.created',
  customTypeDeleted: 'checks.custom-type.deleted',
  userState: 'account.users',
  roleState: 'account.roles',
  apiKeyState: 'identity.api-keys',
  validationCreated: 'validations.validation.created',
  validationFinished: 'validations.validation.finished',
  enrollmentFinished: 'validations.enrollment.finished',
  engagementMessageSent: 'engagement.message.sent',
  engagementMessageStatusChanged: 'engagement.message.status-changed',
  engagementMessageReceived: 'engagement.message.received',
  engagementOutboundStatusChanged: 'engagement.outbound.status-changed',
  engagementFlowStarted: 'engagement.flow.started',
  engagementChatOpened: 'engagement.chat.opened',
  engagementChatAssigned: 'engagement.chat.assigned',
  engagementChatClosed: 'engagement.chat.closed',
  /** An agent went online or offline or changed her queues (the managers' page and her own inbox follow it). */
  engagementAgentStatusChanged: 'engagement.agent.status-changed',
  /** A manager changed an agent's capacity, the tenant's default capacity, or capacity limits on/off. */
  engagementAgentCapacityChanged: 'engagement.agent.capacity-changed',
  processCreated: 'identity.process.created',
  processFinished: 'identity.process.finished',
} as const;

export type Topic = (typeof TOPICS)[keyof typeof TOPICS];

export interface TopicSpec {
  name: Topic;
  compacted: boolean;
  partitions: number;
}

export const TOPIC_SPECS: TopicSpec[] = [
  { name: TOPICS.checkCreated, compacted: false, partitions: 3 },
  { name: TOPICS.checkFinished, compacted: false, partitions: 3 },
  { name: TOPICS.ruleCheckCreated, compacted: false, partitions: 3 },
  { name: TOPICS.checkRequested, compacted: false, partitions: 3 },
  { name: TOPICS.customTypeCreated, compacted: false, partitions: 3 },
  { name: TOPICS.customTypeDeleted, compacted: false, partitions: 3 },
  { name: TOPICS.userState, compacted: true, partitions: 1 },
  { name: TOPICS.roleState, compacted: true, partitions: 1 },
  { name: TOPICS.apiKeyState, compacted: true, partitions: 1 },
  { name: TOPICS.validationCreated, compacted: false, partitions: 3 },
  { name: TOPICS.validationFinished, compacted: false, partitions: 3 },
  { name: TOPICS.enrollmentFinished, compacted: false, partitions: 3 },
  { name: TOPICS.engagementMessageSent, compacted: false, partitions: 3 },
  { name: TOPICS.engagementMessageStatusChanged, compacted: false, partitions: 3 },
  { name: TOPICS.engagementMessageReceived, compacted: false, partitions: 3 },
  { name: TOPICS.engagementOutboundStatusChanged, compacted: false, partitions: 3 },
  { name: TOPICS.engagementFlowStarted, compacted: false, partitions: 3 },
  { name: TOPICS.engagementChatOpened, compacted: false, partitions: 3 },
  { name: TOPICS.engagementChatAssigned, compacted: false, partitions: 3 },
  { name: TOPICS.engagementChatClosed, compacted: false, partitions: 3 },
  { name: TOPICS.engagementAgentStatusChanged, compacted: false, partitions: 3 },
  { name: TOPICS.engagementAgentCapacityChanged, compacted: false, partitions: 3 },
  { name: TOPICS.processCreated, compacted: false, partitions: 3 },
  { name: TOPICS.processFinished, compacted: false, partitions: 3 },
];

/**
 * The payload (the envelope's `payload`) each topic carries. docs/events.md is generated from this
 * map, TOPICS and TOPIC_SPECS (`npm run docs`); a topic without an entry fails that generation.
 */
export interface TopicPayloads {
  [TOPICS.checkCreated]: CheckCreatedPayload;
  [TOPICS.checkFinished]: CheckFinishedPayload;
  [TOPICS.ruleCheckCreated]: RuleCheckCreatedPayload;
  [TOPICS.checkRequested]: CheckRequestedPayload;
  [TOPICS.customTypeCreated]: CustomTypeCreatedPayload;
  [TOPICS.customTypeDeleted]: CustomTypeDeletedPayload;
  [TOPICS.userState]: UserState;
  [TOPICS.roleState]: RoleState;
  [TOPICS.apiKeyState]: ApiKeyState;
  [TOPICS.validationCreated]: ValidationCreatedPayload;
  [TOPICS.validationFinished]: ValidationFinishedPayload;
  [TOPICS.enrollmentFinished]: EnrollmentFinishedPayload;
  [TOPICS.engagementMessageSent]: MessageSentEvent;
  [TOPICS.engagementMessageStatusChanged]: MessageStatusChangedEvent;
  [TOPICS.engagementMessageReceived]: MessageReceivedEvent;
  [TOPICS.engagementOutboundStatusChanged]: OutboundStatusChangedEvent;
  [TOPICS.engagementFlowStarted]: FlowStartedEvent;
  [TOPICS.engagementChatOpened]: ChatOpenedEvent;
  [TOPICS.engagementChatAssigned]: ChatAssignedEvent;
  [TOPICS.engagementChatClosed]: ChatClosedEvent;
  [TOPICS.engagementAgentStatusChanged]: AgentStatusChangedEvent;
  [TOPICS.engagementAgentCapacityChanged]: AgentCapacityChangedEvent;
  [TOPICS.processCreated]: ProcessCreatedPayload;
  [TOPICS.processFinished]: ProcessFinishedPayload;
}
