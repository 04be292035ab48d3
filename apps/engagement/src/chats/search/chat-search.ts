import { decodeStartKey, encodeStartKey, Page, ValidationFailedException } from '@kyc/platform';
import { Repository } from 'typeorm';

import { ChatEntity } from '../chat.entity';
import { SearchChatsQuery } from '../dto/search-chats.query';

const PAGE = 20;

/** The key of a page of activities: the last activity's sequence number. */
export const encodeSeqKey = (seq: string) => encodeStartKey(['seq', Number(seq)]);
export function decodeSeqKey(key: string | undefined): number | undefined {
  const values = decodeStartKey(key);
  if (!values) return undefined;
  if (values[0] !== 'seq' || !Number.isSafeInteger(values[1]))
    throw new ValidationFailedException([{ field: 'start_key', message: 'start_key is not a valid pagination key' }]);
  return values[1] as number;
}

/**
 * Chat search, most recent activity first, keyset-paged over (last_activity_at, id). Every filter
 * is a bound parameter; the tenant filter leads every index used.
 */
export async function searchChats(
  repo: Repository<ChatEntity>,
  tenantId: string,
  q: SearchChatsQuery,
): Promise<Page<ChatEntity>> {
  if (q.last_activity_from && q.last_activity_to && new Date(q.last_activity_from) > new Date(q.last_activity_to))
    throw new ValidationFailedException([
      { field: 'last_activity_to', message: 'last_activity_to must not be before last_activity_from' },
    ]);
  const qb = repo.createQueryBuilder('c').where('c.tenantId = :tenantId', { tenantId });
  if (q.search) {
    const digits = q.search.replace(/\D/g, '');
    qb.andWhere(
      digits.length >= 3
        ? `(c.contactName ILIKE :name ESCAPE '\\' OR c.contactPhone LIKE :phone)`
        : `c.contactName ILIKE :name ESCAPE '\\'`,
      { name: `%${q.search.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`, phone: `%${digits}%` },
    );
  }
  if (q.only_enqueued) qb.andWhere(`c.status = 'open' AND c.owner IS NULL`);
  if (q.last_activity_from)
    qb.andWhere('c.lastActivityAt BETWEEN :from AND :to', {
      from: new Date(q.last_activity_from),
      to: new Date(q.last_activity_to!),
    });
  if (q.actor_type) qb.andWhere('c.lastActorType = :actorType', { actorType: q.actor_type });
  if (q.activity_type) qb.andWhere('c.lastActivityType = :activityType', { activityType: q.activity_type });
  if (q.owner) qb.andWhere('c.owner = :owner', { owner: q.owner.toLowerCase() });
  if (q.status === 'UNASSIGNED') qb.andWhere(`c.status = 'open' AND c.owner IS NULL`);
  else if (q.status) qb.andWhere('c.status = :status', { status: q.status });
  if (q.tags?.length) qb.andWhere('c.tags && :tags', { tags: q.tags });
  const start = decodeStartKey(q.start_key);
  if (start) {
    if (Number.isNaN(new Date(start[0]).getTime()) || typeof start[1] !== 'string')
      throw new ValidationFailedException([{ field: 'start_key', message: 'start_key is not a valid pagination key' }]);
    qb.andWhere('(c.lastActivityAt, c.id) < (:at, :id)', { at: new Date(start[0]), id: start[1] });
  }
  const limit = q.limit ?? PAGE;
  const rows = await qb
    .orderBy('c.lastActivityAt', 'DESC')
    .addOrderBy('c.id', 'DESC')
    .take(limit + 1)
    .getMany();
  const items = rows.slice(0, limit);
  const last = items[items.length - 1];
  return {
    items,
    nextKey: rows.length > limit && last ? encodeStartKey([last.lastActivityAt.toISOString(), last.id]) : undefined,
  };
}
