import { Caller } from '@kyc/platform';
import { Injectable } from '@nestjs/common';

import { CustomTypesService } from '../../custom-types/custom-types.service';
import { ON_REQUEST_COUNTRIES, ON_REQUEST_DOCUMENT_TYPES } from '../../tenant-features/on-request';
import { TenantFeaturesService } from '../../tenant-features/tenant-features.service';
import { CreateValidationDto } from '../dto/create-validation.dto';
import { ValidationErrorCode, ValidationException } from '../validations.exception';

const onRequest = (list: readonly string[], value: string | undefined): value is string =>
  value !== undefined && list.includes(value);

/**
 * Rules of a document validation that depend on the tenant, checked before anything is stored:
 * "on request" countries and document types need an operator's authorization, and `custom_type`
 * must name a custom type that exists in the checks service.
 */
@Injectable()
export class ValidationAdmission {
  constructor(
    private readonly features: TenantFeaturesService,
    private readonly customTypes: CustomTypesService,
  ) {}

  async check(caller: Caller, dto: CreateValidationDto): Promise<void> {
    if (dto.type !== 'document-validation') return;
    const country = onRequest(ON_REQUEST_COUNTRIES, dto.country) ? dto.country : undefined;
    const documentType = onRequest(ON_REQUEST_DOCUMENT_TYPES, dto.document_type) ? dto.document_type : undefined;
    if (country || documentType) {
      const features = await this.features.get(caller.tenantId);
      if (country && !features.onRequestCountries.includes(country))
        throw new ValidationException(
          ValidationErrorCode.OnRequestNotAuthorized,
          `document validations in ${country} are available on request: ask support to enable the country for this account`,
          [{ field: 'country', message: `country ${country} is not enabled for this account` }],
        );
      if (documentType && !features.onRequestDocumentTypes.includes(documentType))
        throw new ValidationException(
          ValidationErrorCode.OnRequestNotAuthorized,
          `document type ${documentType} is available on request: ask support to enable it for this account`,
          [{ field: 'document_type', message: `document_type ${documentType} is not enabled for this account` }],
        );
    }
    if (dto.custom_type !== undefined) await this.customTypes.assertExists(caller.tenantId, dto.custom_type);
  }
}
