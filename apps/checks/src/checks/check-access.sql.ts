import { accessRulesWhere, SqlFieldMap } from '@kyc/json-logic';
import type { Caller } from '@kyc/platform';
import type { Logger } from '@nestjs/common';
import type { SelectQueryBuilder } from 'typeorm';

import type { CheckEntity } from '../engine/check.entity';

const input = (name: string) => `c.inputs->>'${name}'`;

/** The SQL of each check field role access rules may read (CHECK_ACCESS_RULE_FIELDS), over the alias `c`. */
export const CHECK_ACCESS_RULE_SQL: SqlFieldMap = {
  check_id: 'c.id',
  country: 'c.country',
  type: 'c.type',
  status: 'c.status',
  score: { sql: 'c.score', type: 'number' },
  id_score: { sql: 'c.idScore', type: 'number' },
  homonym_score: { sql: 'c.homonymScore', type: 'number' },
  custom_input: 'c.customInput',
  report_id: 'c.reportId',
  user_authorized: { sql: 'c.userAuthorized', type: 'boolean' },
  created_by: 'c.createdBy',
  creation_date: `to_char(c.createdAt AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`,
  national_id: input('national_id'),
  first_name: input('first_name'),
  last_name: input('last_name'),
  license_plate: input('license_plate'),
  tax_id: input('tax_id'),
  company_name: input('company_name'),
};

/**
 * The caller's role access rules (JSON-Logic, every rule must hold) as SQL next to the tenant
 * filter of a query over checks `c` (values bound as named parameters). A rule that does not
 * translate denies everything rather than being skipped.
 */
export function readableBy(
  caller: Caller,
  qb: SelectQueryBuilder<CheckEntity>,
  logger: Logger,
): SelectQueryBuilder<CheckEntity> {
  if (!caller.accessRules.length) return qb;
  const where = accessRulesWhere(caller.accessRules, CHECK_ACCESS_RULE_SQL, {
    namedPrefix: 'ar',
    onRefused: (err) =>
      logger.warn({
        msg: 'role access rule refused: it denies every check',
        tenant_id: caller.tenantId,
        role: caller.role,
        error: err.message,
      }),
  });
  return qb.andWhere(`(${where.sql})`, where.params);
}
