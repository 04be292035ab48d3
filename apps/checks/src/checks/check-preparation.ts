import { createHash } from 'node:crypto';

import { CHECK_COUNTRIES, countryPermission } from '@kyc/contracts';
import { Caller, canonicalJson, FieldError, ValidationFailedException } from '@kyc/platform';

import { CheckEntity } from '../engine/check.entity';
import type { NewCheck } from '../engine/check.store';
import { newCheckId } from './check-id';
import { isBuiltInType, parseCheckInputs } from './check-inputs';
import { CheckErrorCode, CheckException } from './checks.exception';
import { CreateCheckDto } from './dto/create-check.dto';

export interface CreateCheckOptions {
  /** The check this one repeats (continuous checks): shown as previous_check. */
  previousCheckId?: string;
  /** Rules engine: depth of the check in a create_check chain, and the execution that asked for it. */
  ruleDepth?: number;
  requestedByExecution?: string;
}

/** A new check (not stored) with what its store needs to know, and the body it came from. */
export interface PreparedCheck extends NewCheck {
  dto: CreateCheckDto;
}

export const unknownType = (dto: CreateCheckDto) =>
  new CheckException(
    CheckErrorCode.UnknownCheckType,
    `type ${dto.type} is neither person, vehicle, company nor a custom type of ${dto.country}`,
    [
      {
        field: 'type',
        message: `type must be person, vehicle, company or the name of a custom type of ${dto.country}`,
      },
    ],
  );

/** user_authorized must be true when given, and is required from API key version 1 on. */
function consentError(caller: Caller, given: boolean | undefined, errors: FieldError[]): FieldError | undefined {
  if (errors.some((e) => e.field === 'user_authorized')) return undefined;
  if (given === false || (given === undefined && caller.keyVersion >= 1))
    return { field: 'user_authorized', message: 'user_authorized must be true: the person must authorize the check' };
  return undefined;
}

/**
 * The rules of creation that need no database (inputs, country permission, consent; 400/403
 * listing every offending field) and the new check they give (not stored).
 */
export function prepareCheck(
  caller: Caller,
  body: Record<string, unknown>,
  options: CreateCheckOptions,
  now: Date,
): PreparedCheck {
  const { dto, inputs, region, errors } = parseCheckInputs(body ?? {}, now);
  if ((CHECK_COUNTRIES as readonly string[]).includes(dto.country) && !errors.some((e) => e.field === 'country')) {
    const perm = countryPermission(dto.country);
    caller.requireAny(...(perm ? [perm] : []), 'checks.country_all');
  }
  const consent = consentError(caller, dto.user_authorized, errors);
  if (consent && !errors.length)
    throw new CheckException(
      CheckErrorCode.UserNotAuthorized,
      'The person must authorize the check: user_authorized must be true',
      [consent],
    );
  if (consent) errors.push(consent);
  if (errors.length) throw new ValidationFailedException(errors);

  const inputHash = createHash('sha256')
    .update(
      canonicalJson({
        country: dto.country,
        type: dto.type,
        inputs,
        custom_input: dto.custom_input ?? null,
        report_id: dto.report_id ?? null,
      }),
    )
    .digest('hex');
  // A plain assignment (the entity has only columns): Repository.create's relation-aware copy is
  // a visible share of the POST path's CPU.
  const check = Object.assign(new CheckEntity(), {
    id: newCheckId(now.getTime()),
    tenantId: caller.tenantId,
    country: dto.country,
    type: dto.type,
    status: 'not_started',
    inputs,
    inputHash,
    customInput: dto.custom_input ?? null,
    reportId: dto.report_id ?? null,
    userAuthorized: dto.user_authorized === true,
    score: -1,
    idScore: -1,
    homonymScore: -1,
    region,
    previousCheck: options.previousCheckId ?? null,
    weights: null,
    settings: null,
    result: null,
    createdBy: caller.userId,
    createdAt: now,
    updatedAt: now,
    startedAt: null,
    deadlineAt: null,
    finishedAt: null,
    ruleDepth: options.ruleDepth ?? 0,
    requestedByExecution: options.requestedByExecution ?? null,
  });
  return { check, dto, builtIn: isBuiltInType(dto.type), force: dto.force_creation === true };
}
