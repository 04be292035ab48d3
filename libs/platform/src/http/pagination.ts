import { ObjectLiteral, SelectQueryBuilder } from 'typeorm';

import { ValidationFailedException } from '../errors/app.exception';

export const START_KEY_PARAM = 'start_key';

export interface Page<T> {
  items: T[];
  /** Opaque key of the next page; absent on the last page. */
  nextKey?: string;
}

export interface PageLinks {
  self: string;
  next?: string;
}

export const encodeStartKey = (values: (string | number)[]): string =>
  Buffer.from(JSON.stringify(values)).toString('base64url');

/** A cursor value we could have written: a short clean string or a finite number. */
const cursorValue = (v: unknown) =>
  (typeof v === 'number' && Number.isFinite(v)) ||
  (typeof v === 'string' &&
    v.length <= 256 &&
    !v.includes('\u0000') &&
    (v as unknown as { isWellFormed(): boolean }).isWellFormed());

/**
 * Decodes a start_key, refusing (400 naming the field) anything encodeStartKey would not have
 * written: not base64url, not JSON, not a list of two short strings or finite numbers.
 */
export function decodeStartKey(key: string | undefined, field = START_KEY_PARAM): (string | number)[] | undefined {
  if (key === undefined || key === '') return undefined;
  try {
    if (key.length <= 1024 && /^[A-Za-z0-9_-]+={0,2}$/.test(key)) {
      const values: unknown = JSON.parse(Buffer.from(key, 'base64url').toString());
      if (Array.isArray(values) && values.length === 2 && values.every(cursorValue))
        return values as (string | number)[];
    }
  } catch {
    /* falls through */
  }
  throw invalidStartKey(field);
}

const invalidStartKey = (field = START_KEY_PARAM) =>
  new ValidationFailedException([{ field, message: `${field} is not a valid pagination key` }]);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Keyset pagination, newest first, over (createdAt, id): stable under concurrent inserts and
 * O(page) at any depth. The query builder must already carry its tenant filter.
 */
export async function paginate<T extends ObjectLiteral>(
  qb: SelectQueryBuilder<T>,
  options: { startKey?: string; limit: number; createdAtColumn?: string; idColumn?: string },
): Promise<Page<T>> {
  const alias = qb.alias;
  const createdAt = `${alias}.${options.createdAtColumn ?? 'createdAt'}`;
  const id = `${alias}.${options.idColumn ?? 'id'}`;
  const start = decodeStartKey(options.startKey);
  // The key is the (createdAt, id) of a row: a date, and an id of the id column's type.
  if (start) {
    const idType = qb.expressionMap.mainAlias?.metadata?.findColumnWithPropertyName(options.idColumn ?? 'id')?.type;
    if (Number.isNaN(new Date(start[0]).getTime()) || (idType === 'uuid' && !UUID.test(String(start[1]))))
      throw invalidStartKey();
  }
  if (start)
    qb.andWhere(`(${createdAt}, ${id}) < (:pageCreatedAt, :pageId)`, {
      pageCreatedAt: new Date(start[0]),
      pageId: start[1],
    });
  const rows = await qb
    .orderBy(createdAt, 'DESC')
    .addOrderBy(id, 'DESC')
    .take(options.limit + 1)
    .getMany();
  const items = rows.slice(0, options.limit);
  const last = items[items.length - 1] as Record<string, string | number | Date> | undefined;
  const nextKey =
    rows.length > options.limit && last
      ? encodeStartKey([
          new Date(last[options.createdAtColumn ?? 'createdAt']).toISOString(),
          last[options.idColumn ?? 'id'] as string | number,
        ])
      : undefined;
  return { items, nextKey };
}

/** The `self` and `next` links of a list response: the same URL, with start_key moved on. */
export function pageLinks(baseUrl: string, requestUrl: string, nextKey?: string): PageLinks {
  const url = new URL(requestUrl, baseUrl);
  const self = url.toString();
  if (!nextKey) return { self };
  url.searchParams.set(START_KEY_PARAM, nextKey);
  return { self, next: url.toString() };
}
