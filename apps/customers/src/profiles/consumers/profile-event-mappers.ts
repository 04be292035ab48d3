import { CheckFinishedPayload, EventEnvelope, TOPICS } from '@kyc/contracts';

import { ProfileFact } from './profile-facts';

/**
 * Payloads of the services whose contracts are not in libs/contracts yet (validations, identity,
 * engagement): the fields this service reads, all optional, so a producer adding fields (or
 * leaving some out) never breaks folding.
 */
interface ValidationFinishedPayload {
  validation_id?: string;
  enrollment_id?: string;
  account_id?: string;
  type?: string;
  validation_type?: string;
  validation_status?: string;
  status?: string;
  document_number?: string;
  country?: string;
  document_type?: string;
  phone_number?: string;
  email?: string;
  first_name?: string;
  last_name?: string;
  date_of_birth?: string;
  issue_date?: string;
  gender?: string;
  creation_date?: string;
  validation?: ValidationFinishedPayload;
  enrollment?: ValidationFinishedPayload;
}

interface ProcessPayload {
  process_id?: string;
  account_id?: string;
  flow_id?: string;
  status?: string;
  document_number?: string;
  country?: string;
  document_type?: string;
  phone_number?: string;
  email?: string;
  first_name?: string;
  last_name?: string;
  name?: string;
  process?: ProcessPayload;
}

interface ChatPayload {
  chat_id?: string;
  status?: string;
  phone_number?: string;
  user_phone_number?: string;
  contact_phone_number?: string;
  name?: string;
  contact_name?: string;
  email?: string;
  waba_phone_number?: string;
  tags?: string[];
  chat?: ChatPayload;
}

/** Maps one event to the transaction it makes on a profile (null: the event concerns no person). */
export type ProfileEventMapper = (event: EventEnvelope<unknown>) => Omit<ProfileFact, 'tenantId'> | null;

const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v.trim() : null);
const at = (event: EventEnvelope<unknown>, ...candidates: unknown[]): Date => {
  for (const c of [...candidates, event.occurred_at]) {
    const d = typeof c === 'string' ? new Date(c) : null;
    if (d && !Number.isNaN(d.getTime())) return d;
  }
  return new Date(0);
};

/** Person identifiers of a check, by the inputs of its type (the document kinds of the checks API). */
const CHECK_DOCUMENT_INPUTS = [
  ['national_id', 'national-id'],
  ['foreign_id', 'foreign-id'],
  ['passport', 'passport'],
  ['pep', 'pep'],
  ['ptp', 'ptp'],
] as const;

const checkFinished: ProfileEventMapper = (event) => {
  const check = (event.payload as CheckFinishedPayload | undefined)?.check;
  if (!check?.check_id) return null;
  const inputs = check.inputs ?? {};
  const doc = CHECK_DOCUMENT_INPUTS.find(([input]) => str(inputs[input]));
  const first = str(inputs.first_name);
  const last = str(inputs.last_name);
  return {
    product: 'check',
    sourceId: check.check_id,
    eventType: event.type,
    occurredAt: at(event, check.update_date),
    status: check.status ?? null,
    score: typeof check.score === 'number' && check.score >= 0 ? check.score : null,
    identifiers: {
      document: doc
        ? { number: str(inputs[doc[0]])!, country: check.country, type: str(inputs.document_type) ?? doc[1] }
        : undefined,
      phone: str(inputs.phone_number),
      email: str(inputs.email),
    },
    basicInfo: {
      first_name: first,
      last_name: last,
      name: [first, last].filter(Boolean).join(' ') || null,
      country: check.country && check.country !== 'ALL' ? check.country : null,
      birthday: str(inputs.date_of_birth) ?? str(check.summary?.date_of_birth),
      document_issue_date: str(inputs.issue_date),
      gender: str(inputs.gender) ?? str(check.summary?.gender),
    },
    data: {
      check_id: check.check_id,
      type: check.type,
      country: check.country,
      status: check.status,
      score: check.score,
      creation_date: check.creation_date,
    },
  };
};

const validationFinished =
  (kind: 'validation' | 'enrollment'): ProfileEventMapper =>
  (event) => {
    const payload = event.payload as ValidationFinishedPayload | undefined;
    const p = payload?.[kind] ?? payload;
    const id = kind === 'validation' ? str(p?.validation_id) : str(p?.enrollment_id);
    if (!p || !id) return null;
    const first = str(p.first_name);
    const last = str(p.last_name);
    const number = str(p.document_number);
    return {
      product: 'validation',
      sourceId: id,
      eventType: event.type,
      occurredAt: at(event),
      status: str(p.validation_status) ?? str(p.status),
      identifiers: {
        document: number ? { number, country: str(p.country), type: str(p.document_type) } : undefined,
        phone: str(p.phone_number),
        email: str(p.email),
      },
      basicInfo: {
        first_name: first,
        last_name: last,
        name: [first, last].filter(Boolean).join(' ') || null,
        country: str(p.country)?.toUpperCase() ?? null,
        birthday: str(p.date_of_birth),
        document_issue_date: str(p.issue_date),
        gender: str(p.gender),
      },
      data: {
        [kind === 'validation' ? 'validation_id' : 'enrollment_id']: id,
        account_id: p.account_id,
        type: p.type ?? p.validation_type,
        validation_status: p.validation_status ?? p.status,
        creation_date: p.creation_date,
      },
    };
  };

const processEvent: ProfileEventMapper = (event) => {
  const payload = event.payload as ProcessPayload | undefined;
  const p = payload?.process ?? payload;
  const id = str(p?.process_id);
  if (!p || !id) return null;
  const number = str(p.document_number);
  const first = str(p.first_name);
  const last = str(p.last_name);
  return {
    product: 'process',
    sourceId: id,
    eventType: event.type,
    occurredAt: at(event),
    status: str(p.status),
    identifiers: {
      document: number ? { number, country: str(p.country), type: str(p.document_type) } : undefined,
      phone: str(p.phone_number),
      email: str(p.email),
    },
    basicInfo: {
      first_name: first,
      last_name: last,
      name: str(p.name) ?? ([first, last].filter(Boolean).join(' ') || null),
      country: str(p.country)?.toUpperCase() ?? null,
    },
    data: { process_id: id, account_id: p.account_id, flow_id: p.flow_id, status: p.status },
  };
};

const chatEvent: ProfileEventMapper = (event) => {
  const payload = event.payload as ChatPayload | undefined;
  const p = payload?.chat ?? payload;
  const id = str(p?.chat_id);
  if (!p || !id) return null;
  return {
    product: 'engagement-chat',
    sourceId: id,
    eventType: event.type,
    occurredAt: at(event),
    status: str(p.status) ?? event.type.split('.').pop() ?? null,
    identifiers: {
      phone: str(p.user_phone_number) ?? str(p.contact_phone_number) ?? str(p.phone_number),
      email: str(p.email),
    },
    basicInfo: { name: str(p.contact_name) ?? str(p.name) },
    tags: Array.isArray(p.tags) ? p.tags.filter((t): t is string => typeof t === 'string' && t !== '') : undefined,
    wabaPhoneNumber: str(p.waba_phone_number),
    data: { chat_id: id, status: p.status, waba_phone_number: p.waba_phone_number, tags: p.tags },
  };
};

/**
 * Topic → mapper. Every event becomes a transaction on a profile through the same code path
 * (ProfileFoldingStore); adding a topic is one line here. The consumer subscribes to the
 * topics of this table that exist in libs/contracts (TOPICS), so a service's topic is consumed
 * from the day its constant lands.
 */
export const PROFILE_EVENT_MAPPERS: Readonly<Record<string, ProfileEventMapper>> = {
  [TOPICS.checkFinished]: checkFinished,
  'validations.validation.finished': validationFinished('validation'),
  'validations.enrollment.finished': validationFinished('enrollment'),
  'identity.process.created': processEvent,
  'identity.process.finished': processEvent,
  'engagement.chat.opened': chatEvent,
  'engagement.chat.assigned': chatEvent,
  'engagement.chat.closed': chatEvent,
  'engagement.message.received': chatEvent,
};

const KNOWN_TOPICS = new Set<string>(Object.values(TOPICS));

/** The mapped topics that exist (declared in libs/contracts, so created on Kafka). */
export const PROFILE_TOPICS: string[] = Object.keys(PROFILE_EVENT_MAPPERS).filter((t) => KNOWN_TOPICS.has(t));
