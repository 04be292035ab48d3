/**
 * A rule (or a part of it) the SQL translation refuses: an operator outside the supported
 * subset, a field outside the whitelist, a malformed rule, or a type coercion PostgreSQL cannot
 * reproduce exactly. `path` locates the offending part (e.g. `and[1].==[0]`).
 */
export class JsonLogicSqlError extends Error {
  constructor(
    message: string,
    readonly path: string = '',
  ) {
    super(path ? `${path}: ${message}` : message);
    this.name = 'JsonLogicSqlError';
  }
}
