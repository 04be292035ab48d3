import { ProfileEntity } from './profile.entity';
import { ProfileIdentifierEntity } from './profile-identifier.entity';
import { ProfileMergeEntity } from './profile-merge.entity';
import { TagHistoryEntity } from './tag-history.entity';
import { TransactionEntity } from './transaction.entity';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** The basic info of a profile (`basic_info=true`). */
export const presentBasicInfo = (p: ProfileEntity) => ({
  id: p.id,
  name: p.name,
  country: p.country,
  phone: p.phoneNumber,
  email: p.email,
  document_number: p.documentNumber,
  document_type: p.documentType,
  birthday: p.birthday,
  document_issue_date: p.documentIssueDate,
  gender: p.gender,
});

/** A customer profile with its tags and the summary the segments read. */
export const presentCustomer = (p: ProfileEntity) => ({
  customer_id: p.id,
  basic_info: presentBasicInfo(p),
  first_name: p.firstName,
  last_name: p.lastName,
  tags: p.tags,
  summary: {
    transactions_count: p.transactionsCount,
    checks_count: p.checksCount,
    latest_check_score: p.latestCheckScore,
    latest_check_status: p.latestCheckStatus,
    validations_count: p.validationsCount,
    failed_validations_count: p.failedValidationsCount,
    latest_validation_status: p.latestValidationStatus,
    processes_count: p.processesCount,
    latest_process_status: p.latestProcessStatus,
    chats_count: p.chatsCount,
    first_transaction_date: iso(p.firstTransactionAt),
    last_transaction_date: iso(p.lastTransactionAt),
  },
  creation_date: p.createdAt.toISOString(),
  update_date: p.updatedAt.toISOString(),
});

export const presentTransaction = (t: TransactionEntity) => ({
  transaction_id: t.id,
  customer_id: t.profileId,
  product: t.product,
  source_id: t.sourceId,
  event_type: t.eventType,
  status: t.status,
  score: t.score,
  occurred_at: t.occurredAt.toISOString(),
  data: t.data,
  creation_date: t.createdAt.toISOString(),
  update_date: t.updatedAt.toISOString(),
});

export const presentTagChange = (t: TagHistoryEntity) => ({
  tag: t.tag,
  action: t.action,
  source: t.source,
  occurred_at: t.occurredAt.toISOString(),
  creation_date: t.createdAt.toISOString(),
});

/** An identifier of the profile: its kind and value (`CO:national-id:1020304050` for a document). */
export const presentIdentity = (i: ProfileIdentifierEntity) => ({
  kind: i.kind,
  value: i.key.slice(i.kind.length + 1),
  first_seen_at: i.createdAt.toISOString(),
});

export const presentMerge = (m: ProfileMergeEntity) => ({
  merged_customer_id: m.mergedProfileId,
  identifier: m.identifier,
  merged_at: m.mergedAt.toISOString(),
});

export const customerPath = (id: string) => `/v1/customers/${id}`;
