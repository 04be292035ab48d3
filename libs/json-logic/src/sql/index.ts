export { type AccessRulesOptions,accessRulesWhere } from './access-rules';
export { JsonLogicSqlError } from './sql-translation.error';
export {
  assertSqlTranslatable,
  type NamedParams,
  type NamedSqlFragment,
  parseJsonRule,
  type PositionalParams,
  SQL_SUPPORTED_OPERATORS,
  type SqlField,
  type SqlFieldMap,
  type SqlFieldType,
  type SqlFragment,
  toSql,
  toSqlValue,
} from './to-sql';
