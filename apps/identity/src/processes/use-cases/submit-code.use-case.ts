import { Caller } from '@kyc/platform';
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';

import { StepInputDto } from '../dto/process.dto';
import { ProcessEntity } from '../process.entity';
import { ProcessStore, VALIDATION_TYPE_OF_STEP } from '../process.store';
import { ProcessErrorCode, ProcessException } from '../processes.exception';
import { CODE, requireInputFor } from '../step-inputs';
import { ValidationRefused, ValidationsClient } from '../validations.client';

/**
 * The code of an e-mail or phone step (`expected_inputs` `code` of POST /v1/processes/{id}, handed
 * on by SubmitStepUseCase): it goes to the step's validation in the validations service, outside
 * any transaction; the step records the answer (accepted, or rejected with the attempts left).
 * The step advances on validations.validation.finished, as every validator step does (a last wrong
 * code fails the validation, and so the process). The codes are the validations service's, that
 * is the platform's one-time codes: attempts are counted there per code and per account, and a
 * locked-out person gets 429 `too_many_attempts` here too.
 */
@Injectable()
export class SubmitCodeUseCase {
  constructor(
    @InjectRepository(ProcessEntity) private readonly processes: Repository<ProcessEntity>,
    private readonly store: ProcessStore,
    private readonly validations: ValidationsClient,
  ) {}

  async execute(caller: Caller, id: string, dto: StepInputDto): Promise<ProcessEntity> {
    const p = await this.processes.findOneBy({ tenantId: caller.tenantId, id });
    if (!p || p.deletedAt || !this.store.visibleTo(caller, p))
      throw new ProcessException(ProcessErrorCode.ProcessNotFound, `process ${id} not found`);
    if (p.status !== 'pending')
      throw new ProcessException(ProcessErrorCode.ProcessFinished, `process ${id} is already ${p.status}`);
    const step = p.steps[p.currentStep];
    requireInputFor(step, dto);
    const others = (dto.expected_inputs ?? []).filter((i) => i.name !== 'code').map((i) => i.name);
    const code = dto.expected_inputs!.find((i) => i.name === 'code')!.value.trim();
    if (others.length || !CODE.test(code))
      throw new ProcessException(ProcessErrorCode.WrongStep, 'the expected inputs do not match the step', [
        ...(CODE.test(code) ? [] : [{ field: 'expected_inputs.code', message: 'code must be the 6 digits received' }]),
        ...others.map((k) => ({ field: `expected_inputs.${k}`, message: `${k} is not an input of this step` })),
      ]);
    let outcome: { validation_status: string; attempts_left?: number };
    try {
      outcome = await this.validations.submitCode(
        p.tenantId,
        p.userId,
        step.validation_id!,
        VALIDATION_TYPE_OF_STEP[step.type]!,
        code,
      );
    } catch (err) {
      if (!(err instanceof ValidationRefused)) throw err;
      // The platform's one-time codes locked the person out: told as validations words it, with the wait.
      if (err.status === 429)
        throw new ProcessException(
          ProcessErrorCode.TooManyAttempts,
          (err.body as { message?: string } | null)?.message ?? 'too many attempts: try again later',
        ).retryAfter(err.retryAfterSeconds ?? 60);
      // The validation ended meanwhile (expired, or finished): its event moves the process.
      throw new ProcessException(ProcessErrorCode.WrongStep, 'the code can no longer be checked', [
        { field: 'expected_inputs.code', message: 'the verification of this step already ended' },
      ]);
    }
    // The validation's finished event may reach this service before the answer above does and move the
    // process on (a right last code finishes it): the code was checked, so the answer is the process as
    // it now is, not a conflict.
    return this.store.mutate(caller, id, false, async (m, locked) => {
      if (locked.status !== 'pending') return;
      const s = locked.steps.find((x) => x.validation_id === step.validation_id);
      if (s && s.status === 'awaiting_validation') {
        s.code_status = outcome.validation_status === 'success' ? 'accepted' : 'rejected';
        if (outcome.attempts_left !== undefined) s.attempts_left = outcome.attempts_left;
      }
      await this.store.settle(m, locked);
    });
  }
}
