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
  userState: 'account.users',
  roleState: 'account.roles',
  apiKeyState: 'identity.api-keys',
  validationCreated: 'validations.validation.created',
  validationFinished: 'validations.validation.finished',
  enrollmentFinished: 'validations.enrollment.finished',
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
  { name: TOPICS.userState, compacted: true, partitions: 1 },
  { name: TOPICS.roleState, compacted: true, partitions: 1 },
  { name: TOPICS.apiKeyState, compacted: true, partitions: 1 },
  { name: TOPICS.validationCreated, compacted: false, partitions: 3 },
  { name: TOPICS.validationFinished, compacted: false, partitions: 3 },
  { name: TOPICS.enrollmentFinished, compacted: false, partitions: 3 },
  { name: TOPICS.processCreated, compacted: false, partitions: 3 },
  { name: TOPICS.processFinished, compacted: false, partitions: 3 },
];
