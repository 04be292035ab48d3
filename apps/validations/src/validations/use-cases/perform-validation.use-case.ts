import { Caller, Clock } from '@kyc/platform';
import { Injectable } from '@nestjs/common';

import { Secrets } from '../../shared/link-signer';
import { ValidationsErrorCode, ValidationsException } from '../../shared/validations.exception';
import { PerformValidationDto } from '../dto/create-validation.dto';
import { ValidationEntity } from '../validation.entity';
import { presentValidation } from '../validation.presenter';
import { ValidationStateService } from '../validation-state.service';

/** POST /v1/validations/{id}: the OTP. A wrong code uses an attempt; the last wrong one fails the validation. */
@Injectable()
export class PerformValidationUseCase {
  constructor(
    private readonly state: ValidationStateService,
    private readonly secrets: Secrets,
    private readonly clock: Clock,
  ) {}

  async execute(caller: Caller, id: string, dto: PerformValidationDto) {
    return this.state.transaction(async (m) => {
      const v = await this.state.lock(m, id, caller.tenantId);
      if (!v || v.deletedAt)
        throw new ValidationsException(ValidationsErrorCode.ValidationNotFound, `validation ${id} not found`);
      if (v.type !== dto.type)
        throw new ValidationsException(ValidationsErrorCode.WrongValidationType, `validation ${id} is a ${v.type}`, [
          { field: 'type', message: `type must be ${v.type}` },
        ]);
      if (v.status !== 'pending')
        throw new ValidationsException(
          ValidationsErrorCode.ValidationNotPending,
          `validation ${id} already ended (${v.status})`,
        );
      if (v.expiresAt.getTime() <= this.clock.now().getTime()) {
        await this.state.finish(m, v, { status: 'expired', reason: 'token_not_submitted' });
      } else if (v.otpHash && this.secrets.otpMatches(v.id, dto.token, v.otpHash)) {
        await m.getRepository(ValidationEntity).update({ id }, { otpHash: null, attemptsLeft: v.attemptsLeft });
        v.otpHash = null;
        await this.state.finish(m, v, { status: 'success' });
      } else {
        const left = Math.max(0, (v.attemptsLeft ?? 1) - 1);
        v.attemptsLeft = left;
        if (left === 0) {
          await m.getRepository(ValidationEntity).update({ id }, { attemptsLeft: 0, otpHash: null });
          v.otpHash = null;
          await this.state.finish(m, v, { status: 'declined', reason: 'max_retries_exceeded' });
        } else {
          v.updatedAt = this.clock.now();
          await m.getRepository(ValidationEntity).update({ id }, { attemptsLeft: left, updatedAt: v.updatedAt });
        }
      }
      return presentValidation(v);
    });
  }
}
