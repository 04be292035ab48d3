import { Clock, newId, Page, paginate } from '@kyc/platform';
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';

import { CreateFlowDto } from './dto/flow.dto';
import { FlowEntity, FlowStep, VALIDATOR_STEP_TYPES } from './flow.entity';
import { FlowErrorCode, FlowException } from './flows.exception';

export const FLOWS_PAGE_SIZE = 20;
export const DEFAULT_FLOW_TIMEOUT_SECONDS = 3600;

/** Flow definitions: the steps a process runs. */
@Injectable()
export class FlowsService {
  constructor(
    @InjectRepository(FlowEntity) private readonly flows: Repository<FlowEntity>,
    private readonly clock: Clock,
  ) {}

  async create(tenantId: string, dto: CreateFlowDto): Promise<FlowEntity> {
    const now = this.clock.now();
    const flow = this.flows.create({
      id: newId('IDF'),
      tenantId,
      createdAt: now,
      ...this.definition(dto, now),
    });
    await this.flows.save(flow);
    return flow;
  }

  async update(tenantId: string, id: string, dto: CreateFlowDto): Promise<FlowEntity> {
    const flow = await this.get(tenantId, id);
    Object.assign(flow, this.definition(dto, this.clock.now()));
    await this.flows.save(flow);
    return flow;
  }

  async get(tenantId: string, id: string): Promise<FlowEntity> {
    const flow = await this.flows.findOneBy({ tenantId, id });
    if (!flow) throw new FlowException(FlowErrorCode.FlowNotFound, `flow ${id} not found`);
    return flow;
  }

  list(tenantId: string, startKey?: string): Promise<Page<FlowEntity>> {
    const qb = this.flows.createQueryBuilder('f').where('f.tenantId = :tenantId', { tenantId });
    return paginate(qb, { startKey, limit: FLOWS_PAGE_SIZE });
  }

  async remove(tenantId: string, id: string): Promise<FlowEntity> {
    const flow = await this.get(tenantId, id);
    await this.flows.delete({ tenantId, id });
    return flow;
  }

  private definition(dto: CreateFlowDto, now: Date) {
    const steps: FlowStep[] = dto.steps.map((s, i) => {
      if (s.type === 'form' && s.validator_settings !== undefined)
        throw new FlowException(FlowErrorCode.FlowInvalid, 'form steps take no validator_settings', [
          { field: `steps.${i}.validator_settings`, message: 'form steps take no validator_settings' },
        ]);
      if (s.type !== 'form' && s.fields !== undefined)
        throw new FlowException(FlowErrorCode.FlowInvalid, 'only form steps have fields', [
          { field: `steps.${i}.fields`, message: 'only form steps have fields' },
        ]);
      return {
        step_id: `step-${i + 1}`,
        type: s.type,
        ...(s.fields
          ? { fields: s.fields.map((f) => ({ name: f.name, label: f.label, required: f.required ?? true })) }
          : {}),
        ...(VALIDATOR_STEP_TYPES.includes(s.type) && s.validator_settings
          ? { validator_settings: s.validator_settings }
          : {}),
      };
    });
    return {
      name: dto.name,
      steps,
      redirectUrl: dto.redirect_url ?? null,
      timeoutSeconds: dto.timeout_seconds ?? DEFAULT_FLOW_TIMEOUT_SECONDS,
      updatedAt: now,
    };
  }
}
