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
import * as SQL from './profile-folding.sql';

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

    const owners: { profile_id: string; created_at: Date }[] = await sql(m, SQL.PROFILES_OF_IDENTIFIERS, [
      fact.tenantId,
      keys.map((k) => k.key),
    ]);
    let profileId: string;
    let created = false;
    const merged: string[] = [];
    if (!owners.length) {
      profileId = newId('CUS');
      created = true;
      await sql(m, SQL.INSERT_PROFILE, [profileId, fact.tenantId, now]);
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
    await sql(m, SQL.INSERT_IDENTIFIERS, [
      fact.tenantId,
      profileId,
      now,
      keys.map((k) => k.key),
      keys.map((k) => k.kind),
    ]);

    const [trx]: { id: string }[] = await sql(m, SQL.UPSERT_TRANSACTION, [
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
    ]);

    if (fact.tags?.length) await this.addTags(m, fact.tenantId, profileId, fact, now);
    if (fact.wabaPhoneNumber)
      await sql(m, SQL.UPSERT_PROFILE_LINE, [fact.tenantId, profileId, fact.wabaPhoneNumber, fact.occurredAt]);
    await this.updateProfile(m, profileId, fact, now);
    // A contact with the profile's phone number links to it.
    const phones = keys.filter((k) => k.kind === 'phone').map((k) => k.key.slice('phone:'.length));
    if (phones.length)
      await sql(m, SQL.LINK_CONTACTS, [
        fact.tenantId,
        profileId,
        keys.filter((k) => k.kind === 'phone').map((k) => k.key.slice('phone:'.length)),
      ]);
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
    await sql(m, SQL.updateProfile(columns), [profileId, fact.occurredAt, now, ...columns.map((c) => values[c])]);
  }

  private async addTags(m: EntityManager, tenantId: string, profileId: string, fact: ProfileFact, now: Date) {
    const added: { tag: string }[] = await sql(m, SQL.ADD_TAGS, [profileId, fact.tags]);
    for (const { tag } of added)
      await sql(m, SQL.TAG_ADDED, [newId('TAG'), tenantId, profileId, tag, fact.eventType, fact.occurredAt, now]);
  }

  /** Moves everything of `from` to `into` and records the merge; `from` stays, marked merged_into. */
  private async merge(m: EntityManager, tenantId: string, into: string, from: string, keys: string[], now: Date) {
    const [shared]: { key: string }[] = await sql(m, SQL.SHARED_IDENTIFIER, [tenantId, from, keys]);
    for (const table of ['profile_identifiers', 'transactions', 'tag_history', 'contacts'])
      await sql(m, SQL.moveRows(table), [into, tenantId, from]);
    await sql(m, SQL.MERGE_PROFILE_LINES, [into, from]);
    await sql(m, SQL.DELETE_PROFILE_LINES, [from]);
    await sql(m, SQL.FILL_FROM_MERGED, [into, from, now]);
    await sql(m, SQL.MARK_MERGED, [into, from, now]);
    await sql(m, SQL.REPOINT_MERGED, [into, from]);
    await sql(m, SQL.INSERT_MERGE, [newId('MRG'), tenantId, into, from, shared?.key ?? keys[0], now]);
  }
}
