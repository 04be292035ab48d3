import { AuthGuard, Caller } from '@kyc/platform';
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';

import { ApiKeysService } from '../api-keys/api-keys.service';
import { FlowsService } from '../flows/flows.service';
import { ProcessEntity } from '../processes/process.entity';
import { ProcessErrorCode, ProcessException } from '../processes/processes.exception';
import { CreateProcessUseCase } from '../processes/use-cases/create-process.use-case';
import { PAGE_MESSAGES, PageLanguage } from './i18n/messages';
import { pageState } from './page-state';
import { PageModel } from './templates/page.template';

/** What the page answers: its HTTP status and the model its template renders. */
export interface RenderedPage {
  status: number;
  model: PageModel;
}

/**
 * The end user's page: the link carries the process's temporary web key. The first visit starts the
 * key's process (one key, one process); every later visit shows the process where it is.
 */
@Injectable()
export class WebPageService {
  constructor(
    @InjectRepository(ProcessEntity) private readonly processes: Repository<ProcessEntity>,
    private readonly guard: AuthGuard,
    private readonly createProcess: CreateProcessUseCase,
    private readonly flows: FlowsService,
    private readonly apiKeys: ApiKeysService,
  ) {}

  async page(token: string, lang: PageLanguage): Promise<RenderedPage> {
    const m = PAGE_MESSAGES[lang];
    const invalid: RenderedPage = {
      status: 401,
      model: {
        lang,
        messages: m,
        state: { kind: 'invalid-link', heading: m.invalidLink.heading, text: m.invalidLink.text },
      },
    };
    let caller: Caller;
    try {
      caller = await this.guard.callerOf(token);
    } catch {
      return invalid;
    }
    if (caller.keyType === 'backend' || caller.grant !== 'digital-identity' || !caller.flowId) return invalid;
    const process = await this.processOf(caller);
    if (process.deletedAt) return invalid;
    const [flow, key] = await Promise.all([
      this.flows.get(process.tenantId, process.flowId).catch(() => null),
      this.apiKeys.get(process.tenantId, process.keyId).catch(() => null),
    ]);
    const state = pageState(process, flow, key, m);
    const total = process.steps.length;
    return {
      status: 200,
      model: {
        lang,
        messages: m,
        state,
        processId: process.id,
        key: token,
        updatedAt: process.updatedAt.toISOString(),
        sendDeviceInfo: state.kind !== 'result' && !process.deviceInfo,
        ...(state.kind !== 'result' && total
          ? { progress: m.stepOf(Math.min(process.currentStep + 1, total), total) }
          : {}),
      },
    };
  }

  /** The key's process, started on the first visit (two first visits at once: the loser reads the winner's). */
  private async processOf(caller: Caller): Promise<ProcessEntity> {
    const existing = await this.processes.findOneBy({ tenantId: caller.tenantId, keyId: caller.keyId });
    if (existing) return existing;
    try {
      return await this.createProcess.execute(caller);
    } catch (err) {
      if (!(err instanceof ProcessException) || err.errorCode !== String(ProcessErrorCode.KeyAlreadyUsed)) throw err;
      return this.processes.findOneByOrFail({ tenantId: caller.tenantId, keyId: caller.keyId });
    }
  }
}
