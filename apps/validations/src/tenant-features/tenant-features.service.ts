import { Clock } from '@kyc/platform';
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';

import { UpdateFeaturesDto } from './dto/update-features.dto';
import { TenantFeaturesEntity } from './tenant-features.entity';

/** Features a platform operator turns on for a tenant. */
@Injectable()
export class TenantFeaturesService {
  constructor(
    @InjectRepository(TenantFeaturesEntity) private readonly features: Repository<TenantFeaturesEntity>,
    private readonly clock: Clock,
  ) {}

  async get(tenantId: string): Promise<TenantFeaturesEntity> {
    return (
      (await this.features.findOneBy({ tenantId })) ??
      this.features.create({
        tenantId,
        confirmationNoneAuthorizedAt: null,
        faceManualReview: false,
        onRequestCountries: [],
        onRequestDocumentTypes: [],
        updatedAt: new Date(0),
      })
    );
  }

  async update(tenantId: string, dto: UpdateFeaturesDto): Promise<TenantFeaturesEntity> {
    const current = await this.get(tenantId);
    const now = this.clock.now();
    if (dto.confirmation_none === true) current.confirmationNoneAuthorizedAt ??= now;
    if (dto.confirmation_none === false) current.confirmationNoneAuthorizedAt = null;
    if (dto.face_manual_review !== undefined) current.faceManualReview = dto.face_manual_review;
    if (dto.on_request_countries) current.onRequestCountries = [...new Set(dto.on_request_countries)];
    if (dto.on_request_document_types) current.onRequestDocumentTypes = [...new Set(dto.on_request_document_types)];
    current.updatedAt = now;
    await this.features.save(current);
    return current;
  }
}

export const presentFeatures = (f: TenantFeaturesEntity) => ({
  tenant_id: f.tenantId,
  confirmation_none: f.confirmationNoneAuthorizedAt !== null,
  confirmation_none_authorized_at: f.confirmationNoneAuthorizedAt?.toISOString(),
  face_manual_review: f.faceManualReview,
  on_request_countries: f.onRequestCountries,
  on_request_document_types: f.onRequestDocumentTypes,
});
