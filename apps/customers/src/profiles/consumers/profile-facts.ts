import type { TransactionProduct } from '../transaction.entity';

/** The identifiers of the person an event concerns (any of them may be absent). */
export interface FactIdentifiers {
  document?: { number: string; country?: string | null; type?: string | null };
  phone?: string | null;
  email?: string | null;
}

export interface FactBasicInfo {
  name?: string | null;
  first_name?: string | null;
  last_name?: string | null;
  country?: string | null;
  birthday?: string | null;
  document_issue_date?: string | null;
  gender?: string | null;
}

/** What any service's event says about a person: one transaction on their profile. */
export interface ProfileFact {
  tenantId: string;
  product: TransactionProduct;
  /** The record of the producing service (check_id, validation_id, process_id, chat_id, ...). */
  sourceId: string;
  eventType: string;
  occurredAt: Date;
  status: string | null;
  score?: number | null;
  identifiers: FactIdentifiers;
  basicInfo: FactBasicInfo;
  tags?: string[];
  /** The messaging-app line (business phone number) of a chat. */
  wabaPhoneNumber?: string | null;
  /** What the transaction shows (a summary of the event's payload). */
  data: Record<string, unknown>;
}

const DOCUMENT_TYPES: Record<string, string> = {
  national_id: 'national-id',
  'national-id': 'national-id',
  cc: 'national-id',
  dni: 'national-id',
  cpf: 'national-id',
  curp: 'national-id',
  rut: 'national-id',
  foreign_id: 'foreign-id',
  'foreign-id': 'foreign-id',
  ce: 'foreign-id',
  passport: 'passport',
  pep: 'pep',
  ptp: 'ptp',
  driver_license: 'driver-license',
  'driver-license': 'driver-license',
};

/** One spelling per document type (the checks inputs say national_id, the validators national-id). */
export const normalizeDocumentType = (type: string | null | undefined): string =>
  type ? (DOCUMENT_TYPES[type.trim().toLowerCase()] ?? type.trim().toLowerCase()) : 'national-id';

export const normalizeDocumentNumber = (n: string) => n.replace(/[\s.-]/g, '').toUpperCase();
export const normalizePhone = (p: string) => {
  const digits = p.replace(/[^\d+]/g, '');
  return digits.startsWith('+') ? digits : `+${digits}`;
};
export const normalizeEmail = (e: string) => e.trim().toLowerCase();

/** The identity-resolution keys of a fact: `document:<country>:<type>:<number>`, `phone:<e164>`, `email:<address>`. */
export function identifierKeys(ids: FactIdentifiers): { key: string; kind: 'document' | 'phone' | 'email' }[] {
  const keys: { key: string; kind: 'document' | 'phone' | 'email' }[] = [];
  if (ids.document?.number) {
    const country = (ids.document.country ?? '').toUpperCase();
    const type = normalizeDocumentType(ids.document.type);
    keys.push({ key: `document:${country}:${type}:${normalizeDocumentNumber(ids.document.number)}`, kind: 'document' });
  }
  if (ids.phone) keys.push({ key: `phone:${normalizePhone(ids.phone)}`, kind: 'phone' });
  if (ids.email) keys.push({ key: `email:${normalizeEmail(ids.email)}`, kind: 'email' });
  return keys;
}
