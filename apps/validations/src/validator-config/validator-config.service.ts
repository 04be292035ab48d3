import { CONFIGURABLE_VALIDATORS, ConfigurableValidator, DOCUMENT_SWITCHES, ValidationType } from '@kyc/contracts';
import { Caller, Clock, FieldError, ValidationFailedException } from '@kyc/platform';
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';

import { TenantFeaturesService } from '../tenant-features/tenant-features.service';
import { DOCUMENT_CONFIG_FIELDS, ResetConfigQuery, SETTING_FIELDS, UpdateConfigDto } from './dto/update-config.dto';
import { ValidatorConfigEntity } from './validator-config.entity';
import { ValidatorConfigErrorCode, ValidatorConfigException } from './validator-config.exception';
import {
  documentSwitches,
  EffectiveSettings,
  effectiveSettings,
  RESETTABLE,
  VALIDATOR_FIELDS,
  validatorOf,
  ValidatorSettings,
} from './validator-settings';

/** The country a document version belongs to (passport: any). */
const versionCountry = (version: string) => (version === 'passport' ? undefined : version.slice(0, 2).toUpperCase());

/**
 * Validator configuration of a tenant: defaults overridden field by field (PUT), reset per type
 * (DELETE), and the settings a validation runs with (a flow's validator block wins over them).
 */
@Injectable()
export class ValidatorConfigService {
  constructor(
    @InjectRepository(ValidatorConfigEntity) private readonly configs: Repository<ValidatorConfigEntity>,
    private readonly features: TenantFeaturesService,
    private readonly clock: Clock,
  ) {}

  /** Checks a settings object against one validator's fields and bounds; returns the offending fields. */
  checkSettings(validator: ConfigurableValidator, settings: ValidatorSettings, prefix = ''): FieldError[] {
    const { defaults, bounds } = VALIDATOR_FIELDS[validator];
    const errors: FieldError[] = [];
    for (const [field, value] of Object.entries(settings)) {
      if (value === undefined) continue;
      if (!(field in defaults)) {
        errors.push({ field: `${prefix}${field}`, message: `${field} does not apply to ${validator}` });
        continue;
      }
      const bound = bounds[field as keyof ValidatorSettings];
      if (bound && typeof value === 'number' && (value < bound.min || value > bound.max))
        errors.push({
          field: `${prefix}${field}`,
          message: `${field} must be from ${bound.min} to ${bound.max} for ${validator}`,
        });
    }
    return errors;
  }

  async update(caller: Caller, dto: UpdateConfigDto): Promise<EffectiveSettings> {
    const validator = dto.validator;
    const changes: ValidatorSettings = {};
    for (const field of SETTING_FIELDS)
      if (dto[field] !== undefined) (changes as Record<string, unknown>)[field] = dto[field];
    const errors = this.checkSettings(validator, changes);
    const documentFields = DOCUMENT_CONFIG_FIELDS.filter((f) => dto[f] !== undefined);
    if (documentFields.length && validator !== 'document-validation')
      errors.push(...documentFields.map((f) => ({ field: f, message: `${f} applies to document-validation only` })));
    const switches = DOCUMENT_SWITCHES.filter((s) => dto[s] !== undefined);
    if (validator === 'document-validation' && documentFields.length) {
      if (!dto.country) errors.push({ field: 'country', message: 'country is required to change document_config' });
      if (switches.length && !dto.document_type)
        errors.push({ field: 'document_type', message: 'document_type is required when changing a validation method' });
      for (const version of dto.document_version ?? []) {
        const country = versionCountry(version);
        if (country && dto.country && country !== dto.country)
          errors.push({ field: 'document_version', message: `${version} is not a document version of ${dto.country}` });
      }
    }
    if (errors.length) throw new ValidationFailedException(errors);
    if (validator === 'face-recognition' && changes.use_manual_review === 'enabled') {
      const features = await this.features.get(caller.tenantId);
      if (!features.faceManualReview)
        throw new ValidatorConfigException(
          ValidatorConfigErrorCode.FaceManualReviewNotActivated,
          'use_manual_review for face-recognition needs activation by an operator',
        );
    }
    const current = await this.stored(caller.tenantId, validator);
    const next: ValidatorSettings = { ...current, ...changes };
    if (validator === 'document-validation' && dto.country) {
      const documentConfig = { ...(next.document_config ?? {}) };
      const entry = { ...(documentConfig[dto.country] ?? {}) };
      if (dto.document_version) entry.document_version = [...new Set(dto.document_version)];
      if (dto.document_type && switches.length) {
        const types = { ...(entry.types ?? {}) };
        const typeEntry = { ...(types[dto.document_type] ?? {}) };
        for (const s of switches) typeEntry[s] = dto[s];
        types[dto.document_type] = typeEntry;
        entry.types = types;
      }
      documentConfig[dto.country] = entry;
      next.document_config = documentConfig;
    }
    await this.save(caller.tenantId, validator, next);
    return effectiveSettings(validator, next);
  }

  async reset(caller: Caller, query: ResetConfigQuery): Promise<EffectiveSettings> {
    const { validator, type, name } = query;
    const allowed = RESETTABLE[validator];
    if (type !== undefined && !(allowed as readonly string[]).includes(type))
      throw new ValidationFailedException([
        { field: 'type', message: `type must be one of ${allowed.join(', ')} for ${validator}` },
      ]);
    if (name !== undefined && type !== 'document_config')
      throw new ValidationFailedException([{ field: 'name', message: 'name applies to type=document_config only' }]);
    const current = await this.stored(caller.tenantId, validator);
    let next: ValidatorSettings = {};
    if (type) {
      next = { ...current };
      if (type === 'document_config' && name) {
        const documentConfig = { ...(next.document_config ?? {}) };
        delete documentConfig[name];
        next.document_config = documentConfig;
      } else delete next[type as keyof ValidatorSettings];
    }
    await this.save(caller.tenantId, validator, next);
    return effectiveSettings(validator, next);
  }

  async all(caller: Caller): Promise<Record<ConfigurableValidator, EffectiveSettings>> {
    const rows = await this.configs.findBy({ tenantId: caller.tenantId });
    const byValidator = new Map(rows.map((r) => [r.validator, r.settings as ValidatorSettings]));
    return Object.fromEntries(
      CONFIGURABLE_VALIDATORS.map((v) => [v, effectiveSettings(v, byValidator.get(v))]),
    ) as Record<ConfigurableValidator, EffectiveSettings>;
  }

  async effective(tenantId: string, type: ValidationType, flow?: ValidatorSettings): Promise<EffectiveSettings> {
    const validator = validatorOf(type);
    return effectiveSettings(validator, await this.stored(tenantId, validator), flow);
  }

  /** The document_config in force for a tenant (document-selection, infographic). */
  async documentConfig(tenantId: string): Promise<ValidatorSettings['document_config']> {
    return (await this.stored(tenantId, 'document-validation')).document_config ?? {};
  }

  switches = documentSwitches;

  private async stored(tenantId: string, validator: ConfigurableValidator): Promise<ValidatorSettings> {
    return ((await this.configs.findOneBy({ tenantId, validator }))?.settings ?? {}) as ValidatorSettings;
  }

  private async save(tenantId: string, validator: ConfigurableValidator, settings: ValidatorSettings): Promise<void> {
    await this.configs.upsert(
      { tenantId, validator, settings: settings as ValidatorConfigEntity['settings'], updatedAt: this.clock.now() },
      ['tenantId', 'validator'],
    );
  }
}
