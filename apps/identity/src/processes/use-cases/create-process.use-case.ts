import { Caller, Clock, newId } from '@kyc/platform';
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';

import { ApiKeysService } from '../../api-keys/api-keys.service';
import { FlowsService } from '../../flows/flows.service';
import { ProcessEntity } from '../process.entity';
import { ProcessStore, toProcessStep } from '../process.store';
import { ProcessErrorCode, ProcessException } from '../processes.exception';

/**
 * POST /v1/processes (and the end user's page): the caller's temporary web key, bound to a flow,
 * starts its one process.
 */
@Injectable()
export class CreateProcessUseCase {
  constructor(
    @InjectRepository(ProcessEntity) private readonly processes: Repository<ProcessEntity>,
    private readonly clock: Clock,
    private readonly flows: FlowsService,
    private readonly apiKeys: ApiKeysService,
    private readonly store: ProcessStore,
  ) {}

  async execute(caller: Caller): Promise<ProcessEntity> {
    if (caller.keyType === 'backend' || caller.grant !== 'digital-identity' || !caller.flowId)
      throw new ProcessException(
        ProcessErrorCode.WebKeyRequired,
        'a process is created with a temporary web key of the digital-identity grant bound to a flow',
      );
    const flow = await this.flows.get(caller.tenantId, caller.flowId);
    const key = await this.apiKeys.get(caller.tenantId, caller.keyId);
    const now = this.clock.now();
    const process = this.processes.create({
      id: newId('IDP'),
      tenantId: caller.tenantId,
      flowId: flow.id,
      keyId: caller.keyId,
      userId: caller.userId,
      accountId: key.accountId ?? newId('ACC'),
      status: 'pending',
      failureStatus: null,
      declinedReason: null,
      expiredReason: null,
      currentStep: 0,
      steps: flow.steps.map((s) => toProcessStep(s)),
      variables: {},
      phoneNumber: key.phones?.[0] ?? null,
      deviceInfo: null,
      overrideStatus: null,
      overrideStatusHistory: [],
      timeoutAttempts: 0,
      deadline: new Date(now.getTime() + flow.timeoutSeconds * 1000),
      finishedAt: null,
      createdAt: now,
      updatedAt: now,
      deletedAt: null,
    });
    try {
      await this.store.insert(process);
    } catch (err) {
      if ((err as { code?: string }).code === '23505')
        throw new ProcessException(
          ProcessErrorCode.KeyAlreadyUsed,
          'this key already started a process: one key, one process',
        );
      throw err;
    }
    return process;
  }
}
