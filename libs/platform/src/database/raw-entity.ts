import { ObjectLiteral, Repository } from 'typeorm';

/**
 * Reads one row by plain column equality with a single SQL statement and maps it onto the entity
 * by its column metadata, skipping TypeORM's query builder (a measurable share of CPU on hot read
 * paths such as GET /v1/checks/{id}). `where` keys are entity property names.
 */
export async function findOneRaw<T extends ObjectLiteral>(repo: Repository<T>, where: Partial<Record<keyof T & string, unknown>>): Promise<T | null> {
  const meta = repo.metadata;
  const params: unknown[] = [];
  const conditions = Object.entries(where).map(([property, value]) => {
    const column = meta.findColumnWithPropertyName(property);
    if (!column) throw new Error(`${meta.name} has no column ${property}`);
    params.push(value);
    return `"${column.databaseName}" = $${params.length}`;
  });
  const table = [meta.schema, meta.tableName].filter(Boolean).map((part) => `"${part}"`).join('.');
  const rows = await repo.query(`SELECT * FROM ${table} WHERE ${conditions.join(' AND ')} LIMIT 1`, params);
  return rows.length ? mapRow(repo, rows[0]) : null;
}

/** Maps a raw `SELECT *` row (database column names) onto a new entity instance. */
export function mapRow<T extends ObjectLiteral>(repo: Repository<T>, row: Record<string, unknown>): T {
  const entity = repo.create();
  for (const column of repo.metadata.columns) {
    if (column.databaseName in row) (entity as Record<string, unknown>)[column.propertyName] = row[column.databaseName];
  }
  return entity;
}
