import { Clock, lockForTransaction, newId, rawQuery } from '@kyc/platform';
import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';

import {
  FactBasicInfo,
  identifierKeys,
  normalizeDocumentNumber,
  normalizeDocumentType,
  normalizeEmail,
  normalizePhone,
  ProfileFact,
} from './consumers/profile-facts';

export interface FoldResult {
  profileId: string;
  transactionId: string;
  created: boolean;
  merged: string[];
}

const BASIC_INFO_COLUMNS: [keyof FactBasicInfo, string][] = [
  ['name', 'name'],
  ['first_name', 'first_name'],
  ['last_name', 'last_name'],
  ['country', 'country'],
  ['birthday', 'birthday'],
  ['document_issue_date', 'document_issue_date'],
  ['gender', 'gender'],
];

/** Runs a statement in the given transaction (or alone, on the data source's manager) through the platform's raw-query API. */
const sql = (m: EntityManager, text: string, values: unknown[]): Promise<never[]> =>
  rawQuery<never>(m.connection, text, values, m);

/**
 * Folds one fact (any service's event) into the profile of the person it concerns, in the
 * caller's transaction (the consumer's inbox transaction):
 * 1. the fact's identifiers (document with country and type, phone, e-mail) are locked (advisory
 *    locks in key order, so concurrent partitions never create two profiles for one person);
 * 2. no profile holds them: a new profile; one does: that one; several do: identity resolution
 *    merges them into the oldest, moving identifiers, transactions, tags, lines and contacts, and
 *    records each merge;
 * 3. the transaction is upserted by its source record: a later event of the same record updates
 *    it, an older one (out of order) leaves it as it is;
 * 4. basic info: a newer event overwrites, an older one only fills what is missing;
 * 5. counters and latest results are recomputed from the profile's transactions, so the order in
 *    which events arrive does not change the result.
 */
@Injectable()
export class ProfileFoldingStore {
  constructor(private readonly clock: Clock) {}

  async fold(m: EntityManager, fact: ProfileFact): Promise<FoldResult | null> {
    const keys = identifierKeys(fact.identifiers);
    if (!keys.length) return null;
    const now = this.clock.now();
    await lockForTransaction(m, ...keys.map((k) => `profile-identifier|${fact.tenantId}|${k.key}`));

    const owners: { profile_id: string; created_at: Date }[] = await sql(
      m,
      `SELECT DISTINCT i.profile_id, p.created_at FROM profile_identifiers i JOIN profiles p ON p.id = i.profile_id
        WHERE i.tenant_id = $1 AND i.key = ANY($2::text[]) ORDER BY p.created_at, i.profile_id`,
      [fact.tenantId, keys.map((k) => k.key)],
    );
    let profileId: string;
    let created = false;
    const merged: string[] = [];
    if (!owners.length) {
      profileId = newId('CUS');
      created = true;
      await sql(m, `INSERT INTO profiles (id, tenant_id, created_at, updated_at) VALUES ($1, $2, $3, $3)`, [
        profileId,
        fact.tenantId,
        now,
      ]);
    } else {
      profileId = owners[0].profile_id;
      for (const other of owners.slice(1)) {
        await this.merge(
          m,
          fact.tenantId,
          profileId,
          other.profile_id,
          keys.map((k) => k.key),
          now,
        );
        merged.push(other.profile_id);
      }
    }
    await sql(
      m,
      `INSERT INTO profile_identifiers (tenant_id, key, kind, profile_id, created_at)
       SELECT $1, k.key, k.kind, $2, $3 FROM unnest($4::text[], $5::text[]) AS k(key, kind)
       ON CONFLICT (tenant_id, key) DO NOTHING`,
      [fact.tenantId, profileId, now, keys.map((k) => k.key), keys.map((k) => k.kind)],
    );

    const [trx]: { id: string }[] = await sql(
      m,
      `INSERT INTO transactions (id, tenant_id, profile_id, product, source_id, event_type, status, score, occurred_at, data, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10::jsonb, $11, $11)
       ON CONFLICT (tenant_id, product, source_id) DO UPDATE SET
         profile_id = EXCLUDED.profile_id,
         event_type = CASE WHEN EXCLUDED.occurred_at >= transactions.occurred_at THEN EXCLUDED.event_type ELSE transactions.event_type END,
         status = CASE WHEN EXCLUDED.occurred_at >= transactions.occurred_at THEN EXCLUDED.status ELSE transactions.status END,
         score = CASE WHEN EXCLUDED.occurred_at >= transactions.occurred_at THEN COALESCE(EXCLUDED.score, transactions.score) ELSE transactions.score END,
         data = CASE WHEN EXCLUDED.occurred_at >= transactions.occurred_at THEN transactions.data || EXCLUDED.data ELSE EXCLUDED.data || transactions.data END,
         occurred_at = GREATEST(EXCLUDED.occurred_at, transactions.occurred_at),
         updated_at = EXCLUDED.updated_at
       RETURNING id`,
      [
        newId('TRX'),
        fact.tenantId,
        profileId,
        fact.product,
        fact.sourceId,
        fact.eventType,
        fact.status,
        fact.score ?? null,
        fact.occurredAt,
        JSON.stringify(fact.data),
        now,
      ],
    );

    if (fact.tags?.length) await this.addTags(m, fact.tenantId, profileId, fact, now);
    if (fact.wabaPhoneNumber)
      await sql(
        m,
        `INSERT INTO profile_lines (tenant_id, profile_id, waba_phone_number, first_seen_at, last_seen_at) VALUES ($1, $2, $3, $4, $4)
         ON CONFLICT (profile_id, waba_phone_number) DO UPDATE SET
           first_seen_at = LEAST(profile_lines.first_seen_at, EXCLUDED.first_seen_at),
           last_seen_at = GREATEST(profile_lines.last_seen_at, EXCLUDED.last_seen_at)`,
        [fact.tenantId, profileId, fact.wabaPhoneNumber, fact.occurredAt],
      );
    await this.updateProfile(m, profileId, fact, now);
    // A contact with the profile's phone number links to it.
    const phones = keys.filter((k) => k.kind === 'phone').map((k) => k.key.slice('phone:'.length));
    if (phones.length)
      await sql(
        m,
        `UPDATE contacts SET profile_id = $2 WHERE tenant_id = $1 AND phone_number = ANY($3::text[]) AND profile_id IS DISTINCT FROM $2`,
        [fact.tenantId, profileId, keys.filter((k) => k.kind === 'phone').map((k) => k.key.slice('phone:'.length))],
      );
    return { profileId, transactionId: trx.id, created, merged };
  }

  /** Basic info (newer wins, older fills gaps) and the aggregates recomputed from the transactions, in one statement. */
  private async updateProfile(m: EntityManager, profileId: string, fact: ProfileFact, now: Date): Promise<void> {
    const ids = fact.identifiers;
    const values: Record<string, string | null> = {
      ...Object.fromEntries(BASIC_INFO_COLUMNS.map(([field, column]) => [column, fact.basicInfo[field] ?? null])),
      phone_number: ids.phone ? normalizePhone(ids.phone) : null,
      email: ids.email ? normalizeEmail(ids.email) : null,
      document_number: ids.document?.number ? normalizeDocumentNumber(ids.document.number) : null,
      document_type: ids.document?.number ? normalizeDocumentType(ids.document.type) : null,
    };
    if (values.country === null && ids.document?.country) values.country = ids.document.country.toUpperCase();
    const columns = Object.keys(values);
    // $1 profile, $2 occurred_at, $3 now; then one parameter per column.
    const sets = columns.map(
      (c, i) =>
        `${c} = CASE WHEN $${i + 4}::text IS NULL THEN p.${c} WHEN p.${c} IS NULL OR p.info_updated_at IS NULL OR $2 >= p.info_updated_at THEN $${i + 4}::text ELSE p.${c} END`,
    );
    await sql(
      m,
      `UPDATE profiles p SET ${sets.join(', ')},
         info_updated_at = GREATEST(p.info_updated_at, $2), updated_at = $3, ${AGGREGATE_SETS}
       FROM (${AGGREGATES}) a
       WHERE p.id = $1`,
      [profileId, fact.occurredAt, now, ...columns.map((c) => values[c])],
    );
  }

  private async addTags(m: EntityManager, tenantId: string, profileId: string, fact: ProfileFact, now: Date) {
    const added: { tag: string }[] = await sql(
      m,
      `WITH current_tags AS (SELECT tags FROM profiles WHERE id = $1),
       new_tags AS (
         SELECT DISTINCT t AS tag FROM unnest($2::text[]) AS t, current_tags c WHERE NOT t = ANY(c.tags)
       ), updated AS (
         UPDATE profiles SET tags = tags || ARRAY(SELECT tag FROM new_tags ORDER BY tag) WHERE id = $1 AND EXISTS (SELECT 1 FROM new_tags)
       )
       SELECT tag FROM new_tags ORDER BY tag`,
      [profileId, fact.tags],
    );
    for (const { tag } of added)
      await sql(
        m,
        `INSERT INTO tag_history (id, tenant_id, profile_id, tag, action, source, occurred_at, created_at) VALUES ($1, $2, $3, $4, 'added', $5, $6, $7)`,
        [newId('TAG'), tenantId, profileId, tag, fact.eventType, fact.occurredAt, now],
      );
  }

  /** Moves everything of `from` to `into` and records the merge; `from` stays, marked merged_into. */
  private async merge(m: EntityManager, tenantId: string, into: string, from: string, keys: string[], now: Date) {
    const [shared]: { key: string }[] = await sql(
      m,
      `SELECT key FROM profile_identifiers WHERE tenant_id = $1 AND profile_id = $2 AND key = ANY($3::text[]) ORDER BY key LIMIT 1`,
      [tenantId, from, keys],
    );
    for (const table of ['profile_identifiers', 'transactions', 'tag_history', 'contacts'])
      await sql(m, `UPDATE ${table} SET profile_id = $1 WHERE tenant_id = $2 AND profile_id = $3`, [
        into,
        tenantId,
        from,
      ]);
    await sql(
      m,
      `INSERT INTO profile_lines (tenant_id, profile_id, waba_phone_number, first_seen_at, last_seen_at)
       SELECT tenant_id, $1, waba_phone_number, first_seen_at, last_seen_at FROM profile_lines WHERE profile_id = $2
       ON CONFLICT (profile_id, waba_phone_number) DO UPDATE SET
         first_seen_at = LEAST(profile_lines.first_seen_at, EXCLUDED.first_seen_at),
         last_seen_at = GREATEST(profile_lines.last_seen_at, EXCLUDED.last_seen_at)`,
      [into, from],
    );
    await sql(m, `DELETE FROM profile_lines WHERE profile_id = $1`, [from]);
    // Basic info the survivor lacks comes from the merged profile; tags are united.
    await sql(
      m,
      `UPDATE profiles p SET
         ${[
           'name',
           'first_name',
           'last_name',
           'country',
           'phone_number',
           'email',
           'document_number',
           'document_type',
           'birthday',
           'document_issue_date',
           'gender',
         ]
           .map((c) => `${c} = COALESCE(p.${c}, o.${c})`)
           .join(', ')},
         tags = p.tags || ARRAY(SELECT t FROM unnest(o.tags) t WHERE NOT t = ANY(p.tags)),
         updated_at = $3
       FROM profiles o WHERE p.id = $1 AND o.id = $2`,
      [into, from, now],
    );
    await sql(m, `UPDATE profiles SET merged_into = $1, updated_at = $3 WHERE id = $2`, [into, from, now]);
    await sql(m, `UPDATE profiles SET merged_into = $1 WHERE merged_into = $2`, [into, from]);
    await sql(
      m,
      `INSERT INTO profile_merges (id, tenant_id, profile_id, merged_profile_id, identifier, merged_at) VALUES ($1, $2, $3, $4, $5, $6)`,
      [newId('MRG'), tenantId, into, from, shared?.key ?? keys[0], now],
    );
  }
}

/**
 * Counters and latest results of a profile from its transactions ("latest" by occurred_at, so a
 * late event does not replace a newer result); `$1` is the profile id.
 */
const AGGREGATES = `
  SELECT count(*)::int AS transactions_count,
         count(*) FILTER (WHERE product = 'check')::int AS checks_count,
         (array_agg(score ORDER BY occurred_at DESC, id DESC) FILTER (WHERE product = 'check' AND score IS NOT NULL))[1] AS latest_check_score,
         (array_agg(status ORDER BY occurred_at DESC, id DESC) FILTER (WHERE product = 'check'))[1] AS latest_check_status,
         count(*) FILTER (WHERE product = 'validation')::int AS validations_count,
         count(*) FILTER (WHERE product = 'validation' AND status = 'failure')::int AS failed_validations_count,
         (array_agg(status ORDER BY occurred_at DESC, id DESC) FILTER (WHERE product = 'validation'))[1] AS latest_validation_status,
         count(*) FILTER (WHERE product = 'process')::int AS processes_count,
         (array_agg(status ORDER BY occurred_at DESC, id DESC) FILTER (WHERE product = 'process'))[1] AS latest_process_status,
         count(*) FILTER (WHERE product = 'engagement-chat')::int AS chats_count,
         min(occurred_at) AS first_at, max(occurred_at) AS last_at
    FROM transactions WHERE profile_id = $1`;

const AGGREGATE_SETS = `
  transactions_count = a.transactions_count, checks_count = a.checks_count,
  latest_check_score = a.latest_check_score, latest_check_status = a.latest_check_status,
  validations_count = a.validations_count, failed_validations_count = a.failed_validations_count,
  latest_validation_status = a.latest_validation_status, processes_count = a.processes_count,
  latest_process_status = a.latest_process_status, chats_count = a.chats_count,
  first_transaction_at = a.first_at, last_transaction_at = a.last_at`;
