import { Caller, Clock, CodeCheck, OneTimeCodeService, waitInWords } from '@kyc/platform';
import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';

import { Secrets } from '../../shared/link-signer';
import { PerformValidationDto } from '../dto/create-validation.dto';
import { ValidationEntity } from '../validation.entity';
import { presentValidation } from '../validation.presenter';
import { ValidationStateService } from '../validation-state.service';
import { ValidationErrorCode, ValidationException } from '../validations.exception';

/**
 * POST /v1/validations/{id}: the OTP. The guess goes to the platform's one-time codes, which count it
 * per code (the validation's attempts) and per account before comparing, outside the validation's
 * transaction so that a count is never rolled back; the validation then records the outcome under
 * its row lock. A wrong code uses an attempt; the last wrong one fails the validation. An account
 * past its wrong guesses is locked out: 429 `too_many_attempts` with the wait in words.
 */
@Injectable()
export class PerformValidationUseCase {
  constructor(
    private readonly state: ValidationStateService,
    private readonly codes: OneTimeCodeService,
    private readonly secrets: Secrets,
    private readonly clock: Clock,
  ) {}

  async execute(caller: Caller, id: string, dto: PerformValidationDto) {
    const expired = await this.state.transaction(async (m) => {
      const v = await this.pending(m, caller, id, dto);
      if (v.expiresAt.getTime() > this.clock.now().getTime()) return undefined;
      await this.state.finish(m, v, { status: 'expired', reason: 'token_not_submitted' });
      return presentValidation(v);
    });
    if (expired) return expired;

    const check = await this.codes.verify(this.secrets.otp, id, dto.token);
    const answer = await this.state.transaction(async (m) => {
      const v = await this.pending(m, caller, id, dto);
      await this.record(m, v, check);
      return presentValidation(v);
    });
    if (check.outcome === 'locked' && answer.validation_status === 'pending')
      throw new ValidationException(
        ValidationErrorCode.TooManyAttempts,
        `too many attempts: try again in ${waitInWords(check.retryAfterSeconds)}`,
      ).retryAfter(check.retryAfterSeconds);
    return answer;
  }

  /** The validation, locked, of the caller's tenant, of the dto's type and still pending. */
  private async pending(m: EntityManager, caller: Caller, id: string, dto: PerformValidationDto) {
    const v = await this.state.lock(m, id, caller.tenantId);
    if (!v || v.deletedAt)
      throw new ValidationException(ValidationErrorCode.ValidationNotFound, `validation ${id} not found`);
    if (v.type !== dto.type)
      throw new ValidationException(ValidationErrorCode.WrongValidationType, `validation ${id} is a ${v.type}`, [
        { field: 'type', message: `type must be ${v.type}` },
      ]);
    if (v.status !== 'pending')
      throw new ValidationException(
        ValidationErrorCode.ValidationNotPending,
        `validation ${id} already ended (${v.status})`,
      );
    return v;
  }

  /** What the guess did to the validation (attempts_left only goes down, whatever order guesses end in). */
  private async record(m: EntityManager, v: ValidationEntity, check: CodeCheck): Promise<void> {
    if (check.outcome === 'accepted') return void (await this.state.finish(m, v, { status: 'success' }));
    let left: number | undefined;
    if (check.outcome === 'wrong' || (check.outcome === 'locked' && check.attemptsLeft !== undefined))
      left = check.attemptsLeft;
    else if (check.outcome === 'unavailable')
      if (check.reason === 'attempts_used') left = 0;
      else if (check.reason === 'expired' || check.reason === 'none')
        return void (await this.state.finish(m, v, { status: 'expired', reason: 'token_not_submitted' }));
    if (left === undefined) return;
    v.attemptsLeft = Math.min(v.attemptsLeft ?? left, left);
    v.updatedAt = this.clock.now();
    await m
      .getRepository(ValidationEntity)
      .update({ id: v.id }, { attemptsLeft: v.attemptsLeft, updatedAt: v.updatedAt });
    if (v.attemptsLeft === 0) await this.state.finish(m, v, { status: 'declined', reason: 'max_retries_exceeded' });
  }
}
