import type { CustomTypeRecord } from '@kyc/contracts';
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Repository } from 'typeorm';

import { CustomTypeEntity } from './custom-type.entity';
import { CustomTypeErrorCode, CustomTypeException } from './custom-types.exception';

/**
 * The custom check types that exist in the checks service, per tenant, kept from its events.
 * Events may arrive out of order across types: a creation replaces the row only when it is
 * newer, a deletion removes only the type (config_id) it names.
 */
@Injectable()
export class CustomTypesService {
  constructor(@InjectRepository(CustomTypeEntity) private readonly types: Repository<CustomTypeEntity>) {}

  async created(m: EntityManager, t: CustomTypeRecord): Promise<void> {
    await m
      .createQueryBuilder()
      .insert()
      .into(CustomTypeEntity)
      .values({
        tenantId: t.tenant_id,
        country: t.country,
        type: t.type,
        configId: t.config_id,
        createdAt: new Date(t.created_at),
      })
      .orUpdate(['config_id', 'created_at'], ['tenant_id', 'country', 'type'], {
        overwriteCondition: { where: 'custom_types.created_at < EXCLUDED.created_at' },
      })
      .execute();
  }

  async deleted(m: EntityManager, t: CustomTypeRecord): Promise<void> {
    await m.getRepository(CustomTypeEntity).delete({ tenantId: t.tenant_id, configId: t.config_id });
  }

  /** Refuses a `custom_type` that names no custom type of the tenant (in any country), case-insensitively. */
  async assertExists(tenantId: string, name: string): Promise<void> {
    const found = await this.types
      .createQueryBuilder('t')
      .where('t.tenantId = :tenantId AND lower(t.type) = lower(:name)', { tenantId, name })
      .getExists();
    if (!found)
      throw new CustomTypeException(
        CustomTypeErrorCode.CustomTypeNotFound,
        `custom type ${name} does not exist: create it with POST /v1/config of the checks API first`,
        [{ field: 'custom_type', message: `no custom type named ${name}` }],
      );
  }
}
