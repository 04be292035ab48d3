export { JsonLogicSqlError } from './sql-translation.error';
export {
  assertSqlTranslatable,
  parseJsonRule,
  SQL_SUPPORTED_OPERATORS,
  toSql,
  toSqlValue,
  type NamedParams,
  type NamedSqlFragment,
  type PositionalParams,
  type SqlField,
  type SqlFieldMap,
  type SqlFieldType,
  type SqlFragment,
} from './to-sql';
export { accessRulesWhere, type AccessRulesOptions } from './access-rules';
