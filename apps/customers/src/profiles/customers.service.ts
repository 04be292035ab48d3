import { JsonLogicSqlError, toSql } from '@kyc/json-logic';
import { Caller, Clock, decodeStartKey, encodeStartKey, Page, paginate } from '@kyc/platform';
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, Repository } from 'typeorm';

import { normalizeDocumentNumber, normalizeEmail, normalizePhone } from './consumers/profile-facts';
import { CustomerErrorCode, CustomerException } from './customers.exception';
import { ListCustomersQuery } from './dto/list-customers.query';
import { ListTransactionsQuery } from './dto/list-transactions.query';
import { QueryCustomersDto } from './dto/query-customers.dto';
import { ProfileEntity } from './profile.entity';
import { ProfileStore } from './profile.store';
import { ProfileIdentifierEntity } from './profile-identifier.entity';
import { ProfileLineEntity } from './profile-line.entity';
import { ProfileMergeEntity } from './profile-merge.entity';
import { SEGMENT_FIELD_MAP } from './segment-variables';
import { TagHistoryEntity } from './tag-history.entity';
import { TransactionEntity } from './transaction.entity';

const PAGE = 20;
const DAY_MS = 86_400_000;

/** Reads of the customer profiles the events built (a merged profile's id answers with its survivor). */
@Injectable()
export class CustomersService {
  constructor(
    @InjectRepository(ProfileEntity) private readonly profiles: Repository<ProfileEntity>,
    @InjectRepository(TransactionEntity) private readonly transactions: Repository<TransactionEntity>,
    @InjectRepository(TagHistoryEntity) private readonly tags: Repository<TagHistoryEntity>,
    @InjectRepository(ProfileLineEntity) private readonly lines: Repository<ProfileLineEntity>,
    @InjectRepository(ProfileIdentifierEntity) private readonly identifiers: Repository<ProfileIdentifierEntity>,
    @InjectRepository(ProfileMergeEntity) private readonly merges: Repository<ProfileMergeEntity>,
    private readonly clock: Clock,
    private readonly store: ProfileStore,
  ) {}

  async list(caller: Caller, query: ListCustomersQuery): Promise<Page<ProfileEntity>> {
    const qb = this.profiles
      .createQueryBuilder('p')
      .where('p.tenantId = :tenantId AND p.mergedInto IS NULL', { tenantId: caller.tenantId });
    const s = query.search;
    if (s !== undefined && query.search_field === 'document_id')
      qb.andWhere('p.documentNumber = :s', { s: normalizeDocumentNumber(s) });
    else if (s !== undefined && query.search_field === 'email')
      qb.andWhere('lower(p.email) = :s', { s: normalizeEmail(s) });
    else if (s !== undefined && query.search_field === 'phone_number')
      qb.andWhere('p.phoneNumber = :s', { s: normalizePhone(s) });
    else if (s !== undefined)
      qb.andWhere(
        `(strpos(lower(coalesce(p.documentNumber, '')), lower(:s)) > 0 OR strpos(lower(coalesce(p.email, '')), lower(:s)) > 0
          OR strpos(lower(coalesce(p.name, '')), lower(:s)) > 0 OR strpos(coalesce(p.phoneNumber, ''), :s) > 0)`,
        { s },
      );
    if (query.single_match) {
      const found = await qb.orderBy('p.createdAt', 'DESC').limit(2).getMany();
      if (!found.length) throw new CustomerException(CustomerErrorCode.CustomerNotFound, 'no customer matches');
      if (found.length > 1)
        throw new CustomerException(
          CustomerErrorCode.MultipleMatches,
          'more than one customer matches; narrow the search',
        );
      return { items: found };
    }
    return paginate(qb, { startKey: query.start_key, limit: query.limit ?? PAGE });
  }

  /** The customers a JSON-Logic rule selects, translated into one SQL WHERE (push-down), in id order. */
  async search(caller: Caller, dto: QueryCustomersDto): Promise<Page<ProfileEntity>> {
    let where: { sql: string; params: unknown[] };
    try {
      where = toSql(dto.query, SEGMENT_FIELD_MAP, { firstParam: 5 });
    } catch (err) {
      if (!(err instanceof JsonLogicSqlError)) throw err;
      throw new CustomerException(CustomerErrorCode.QueryNotSupported, `query: ${err.message}`, [
        { field: err.path ? `query.${err.path}` : 'query', message: err.message },
      ]);
    }
    const after = decodeStartKey(dto.start_key);
    const limit = dto.limit ?? PAGE;
    const since = new Date(this.clock.now().getTime() - 30 * DAY_MS);
    const ids = await this.store.searchIds(caller.tenantId, after ? String(after[1]) : '', since, limit + 1, where);
    const pageIds = ids.slice(0, limit);
    const found = pageIds.length ? await this.profiles.findBy({ tenantId: caller.tenantId, id: In(pageIds) }) : [];
    const byId = new Map(found.map((p) => [p.id, p]));
    const items = pageIds.map((id) => byId.get(id)).filter((p): p is ProfileEntity => !!p);
    return { items, nextKey: ids.length > limit ? encodeStartKey(['q', pageIds[pageIds.length - 1]]) : undefined };
  }

  async get(caller: Caller, id: string): Promise<ProfileEntity> {
    let profile = await this.profiles.findOneBy({ id, tenantId: caller.tenantId });
    for (let hops = 0; profile?.mergedInto && hops < 10; hops++)
      profile = await this.profiles.findOneBy({ id: profile.mergedInto, tenantId: caller.tenantId });
    if (!profile) throw new CustomerException(CustomerErrorCode.CustomerNotFound, `customer ${id} not found`);
    return profile;
  }

  async listTransactions(caller: Caller, id: string, query: ListTransactionsQuery): Promise<Page<TransactionEntity>> {
    const profile = await this.get(caller, id);
    const qb = this.transactions.createQueryBuilder('t').where('t.tenantId = :tenantId AND t.profileId = :profileId', {
      tenantId: caller.tenantId,
      profileId: profile.id,
    });
    if (query.product) qb.andWhere('t.product = :product', { product: query.product });
    return paginate(qb, { startKey: query.start_key, limit: query.limit ?? PAGE });
  }

  async getTransaction(caller: Caller, id: string, transactionId: string): Promise<TransactionEntity> {
    const profile = await this.get(caller, id);
    const trx = await this.transactions.findOneBy({
      id: transactionId,
      tenantId: caller.tenantId,
      profileId: profile.id,
    });
    if (!trx)
      throw new CustomerException(CustomerErrorCode.TransactionNotFound, `transaction ${transactionId} not found`);
    return trx;
  }

  async tagHistory(
    caller: Caller,
    id: string,
    startKey: string | undefined,
    limit = PAGE,
  ): Promise<Page<TagHistoryEntity>> {
    const profile = await this.get(caller, id);
    const qb = this.tags.createQueryBuilder('h').where('h.tenantId = :tenantId AND h.profileId = :profileId', {
      tenantId: caller.tenantId,
      profileId: profile.id,
    });
    return paginate(qb, { startKey, limit });
  }

  async wabaLines(caller: Caller, id: string): Promise<ProfileLineEntity[]> {
    const profile = await this.get(caller, id);
    return this.lines.find({
      where: { tenantId: caller.tenantId, profileId: profile.id },
      order: { lastSeenAt: 'DESC' },
    });
  }

  /** The identifiers identity resolution gave the profile, and the profiles merged into it. */
  async identities(
    caller: Caller,
    id: string,
  ): Promise<{ profile: ProfileEntity; identifiers: ProfileIdentifierEntity[]; merges: ProfileMergeEntity[] }> {
    const profile = await this.get(caller, id);
    const where = { tenantId: caller.tenantId, profileId: profile.id };
    const [identifiers, merges] = await Promise.all([
      this.identifiers.find({ where, order: { createdAt: 'ASC', key: 'ASC' } }),
      this.merges.find({ where, order: { mergedAt: 'ASC', id: 'ASC' } }),
    ]);
    return { profile, identifiers, merges };
  }
}
