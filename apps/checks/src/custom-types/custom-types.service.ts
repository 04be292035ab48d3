import { randomUUID } from 'node:crypto';

import type { CustomTypeCreatedPayload, CustomTypeDeletedPayload, CustomTypeRecord } from '@kyc/contracts';
import { BUILT_IN_CHECK_TYPES, CUSTOM_TYPE_EVENT_TYPES, CustomTypeCountry, DataSet, TOPICS } from '@kyc/contracts';
import { Caller, Clock, OutboxService, Page, paginate, ValidationFailedException } from '@kyc/platform';
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { DataSource, QueryFailedError, Repository } from 'typeorm';

import { CustomTypeEntity } from './custom-type.entity';
import { CustomTypeErrorCode, CustomTypeException } from './custom-types.exception';
import { DeleteCustomTypeQuery } from './dto/delete-custom-type.query';
import { SaveCustomTypeDto, weightsOf } from './dto/save-custom-type.dto';

const PAGE_SIZE = 20;
/** Weights must sum to 1 within this tolerance. */
export const WEIGHT_SUM_TOLERANCE = 1e-6;

export const newConfigId = () => `CFG${randomUUID().replace(/-/g, '')}`;

/** Public ScoreConfig: one dataset and its weight. */
export interface ScoreConfig {
  data_set: DataSet;
  weight: number;
}

/** score_configs grouped as the public API returns them: {country: {type: [ScoreConfig]}}. */
export type ScoreConfigs = Partial<Record<CustomTypeCountry, Record<string, ScoreConfig[]>>>;

export function scoreConfigs(types: CustomTypeEntity[]): ScoreConfigs {
  const out: ScoreConfigs = {};
  for (const t of types)
    (out[t.country] ??= {})[t.type] = Object.entries(t.weights).map(([data_set, weight]) => ({
      data_set: data_set as DataSet,
      weight: weight,
    }));
  return out;
}

/**
 * GET /v1/config's score_configs, as the published ScoreConfigsOutput has them: an array of
 * ScoreConfigOutput, one per custom type, its weights under ScoreConfigByCountry with the weight
 * as decimal text (the published ScoreConfig types it as a string).
 */
export function scoreConfigList(types: CustomTypeEntity[]) {
  return types.map((t) => ({
    config_id: t.id,
    country: t.country,
    type: t.type,
    ScoreConfigByCountry: Object.entries(t.weights).map(([data_set, weight]) => ({ data_set, weight: String(weight) })),
  }));
}

/** The custom type as the `checks.custom-type.*` events carry it. */
export const customTypeRecord = (t: CustomTypeEntity): CustomTypeRecord => ({
  config_id: t.id,
  tenant_id: t.tenantId,
  country: t.country,
  type: t.type,
  weights: t.weights,
  created_at: t.createdAt.toISOString(),
});

const isBuiltIn = (type: string) => (BUILT_IN_CHECK_TYPES as readonly string[]).includes(type.toLowerCase());

/**
 * Custom check types. A check of a custom type consults only the datasets its type weighs and
 * scores with these weights; the create-check statement reads the type (and copies its weights
 * onto the check) in the same round trip, so no cache can go stale. Creation and deletion publish
 * `checks.custom-type.created` / `deleted` (the validations service links document validations to
 * existing types by name).
 */
@Injectable()
export class CustomTypesService {
  constructor(
    @InjectRepository(CustomTypeEntity) private readonly types: Repository<CustomTypeEntity>,
    private readonly dataSource: DataSource,
    private readonly outbox: OutboxService,
    private readonly clock: Clock,
  ) {}

  async create(caller: Caller, dto: SaveCustomTypeDto): Promise<CustomTypeEntity> {
    this.assertNotBuiltIn(dto.type, 'created');
    const now = this.clock.now();
    const entity = this.types.create({
      id: newConfigId(),
      tenantId: caller.tenantId,
      country: dto.country,
      type: dto.type,
      weights: this.validWeights(dto),
      createdAt: now,
      updatedAt: now,
    });
    try {
      await this.dataSource.transaction(async (m) => {
        await m.getRepository(CustomTypeEntity).insert(entity);
        await this.outbox.add(m, {
          topic: TOPICS.customTypeCreated,
          type: CUSTOM_TYPE_EVENT_TYPES.created,
          tenantId: caller.tenantId,
          aggregateId: entity.id,
          payload: { custom_type: customTypeRecord(entity) } satisfies CustomTypeCreatedPayload,
        });
      });
    } catch (err) {
      if (err instanceof QueryFailedError && (err as unknown as { code?: string }).code === '23505') {
        throw new CustomTypeException(
          CustomTypeErrorCode.CustomTypeExists,
          `custom type ${dto.type} already exists in ${dto.country}: update it with PUT /v1/config`,
          [{ field: 'type', message: 'already exists' }],
        );
      }
      throw err;
    }
    return entity;
  }

  async update(caller: Caller, dto: SaveCustomTypeDto): Promise<CustomTypeEntity> {
    this.assertNotBuiltIn(dto.type, 'modified');
    const weights = this.validWeights(dto);
    const existing = await this.types.findOneBy({ tenantId: caller.tenantId, country: dto.country, type: dto.type });
    if (!existing)
      throw new CustomTypeException(
        CustomTypeErrorCode.CustomTypeNotFound,
        `custom type ${dto.type} does not exist in ${dto.country}`,
      );
    existing.weights = weights;
    existing.updatedAt = this.clock.now();
    await this.types.update({ id: existing.id, tenantId: caller.tenantId }, { weights, updatedAt: existing.updatedAt });
    return existing;
  }

  list(caller: Caller, startKey?: string): Promise<Page<CustomTypeEntity>> {
    const qb = this.types.createQueryBuilder('t').where('t.tenantId = :tenant', { tenant: caller.tenantId });
    return paginate(qb, { startKey, limit: PAGE_SIZE });
  }

  /** Deletes a custom type and returns the remaining ones of its country. */
  async remove(caller: Caller, query: DeleteCustomTypeQuery): Promise<CustomTypeEntity[]> {
    this.assertNotBuiltIn(query.type, 'deleted');
    await this.dataSource.transaction(async (m) => {
      const where = { tenantId: caller.tenantId, country: query.country, type: query.type };
      const existing = await m.getRepository(CustomTypeEntity).findOneBy(where);
      const { affected } = existing ? await m.getRepository(CustomTypeEntity).delete({ id: existing.id }) : {};
      if (!existing || !affected)
        throw new CustomTypeException(
          CustomTypeErrorCode.CustomTypeNotFound,
          `custom type ${query.type} does not exist in ${query.country}`,
        );
      await this.outbox.add(m, {
        topic: TOPICS.customTypeDeleted,
        type: CUSTOM_TYPE_EVENT_TYPES.deleted,
        tenantId: caller.tenantId,
        aggregateId: existing.id,
        payload: { custom_type: customTypeRecord(existing) } satisfies CustomTypeDeletedPayload,
      });
    });
    return this.types.find({
      where: { tenantId: caller.tenantId, country: query.country },
      order: { createdAt: 'ASC', id: 'ASC' },
    });
  }

  private assertNotBuiltIn(type: string, verb: string) {
    if (isBuiltIn(type))
      throw new CustomTypeException(
        CustomTypeErrorCode.BuiltInType,
        `the built-in types person, vehicle and company cannot be ${verb}`,
        [{ field: 'type', message: 'type cannot be person, vehicle or company' }],
      );
  }

  /** At least one dataset weight, each 0..1 (the DTO checks), summing to 1 within 1e-6. */
  private validWeights(dto: SaveCustomTypeDto): Partial<Record<DataSet, number>> {
    const weights = weightsOf(dto);
    const values: number[] = Object.values(weights);
    if (!values.length)
      throw new ValidationFailedException([
        { field: 'weights', message: 'at least one dataset_<name> weight is required' },
      ]);
    const sum = values.reduce((s, w) => s + w, 0);
    if (Math.abs(sum - 1) > WEIGHT_SUM_TOLERANCE) {
      throw new ValidationFailedException(
        Object.keys(weights).map((d) => ({
          field: `dataset_${d}`,
          message: `the weights must sum to 1; these sum to ${Number(sum.toFixed(6))}`,
        })),
        'The weights of a custom type must sum to 1',
      );
    }
    return weights;
  }
}
