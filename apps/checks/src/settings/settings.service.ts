import { CHECK_COUNTRIES, CheckCountry, NamesMatchingType } from '@kyc/contracts';
import { Caller, Clock } from '@kyc/platform';
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';

import { defaultMaxDurationMinutes } from '../engine/datasets';
import { CheckSettingsEntity } from './check-settings.entity';
import { parseMaxDuration, UpdateSettingsDto } from './dto/update-settings.dto';

export interface SettingsView {
  /** null: the per-country defaults apply (see max_duration_by_country). */
  max_duration: string | null;
  names_matching_type: NamesMatchingType;
  retries: boolean;
  /** The max_duration a new check of each country gets with these settings. */
  max_duration_by_country: Record<CheckCountry, string>;
  update_date: string | null;
}

const formatMinutes = (m: number) => (m % 60 === 0 ? `${m / 60}h` : `${m}m`);

/**
 * Tenant-level check settings. They apply to checks created afterwards: the create statement copies
 * them onto the check row (so an update never changes a check already running).
 */
@Injectable()
export class SettingsService {
  constructor(
    @InjectRepository(CheckSettingsEntity) private readonly settings: Repository<CheckSettingsEntity>,
    private readonly clock: Clock,
  ) {}

  async get(caller: Caller): Promise<SettingsView> {
    return this.view(await this.settings.findOneBy({ tenantId: caller.tenantId }));
  }

  async update(caller: Caller, dto: UpdateSettingsDto): Promise<SettingsView> {
    const now = this.clock.now();
    const current = await this.settings.findOneBy({ tenantId: caller.tenantId });
    const next: CheckSettingsEntity = {
      tenantId: caller.tenantId,
      maxDuration: dto.max_duration ?? current?.maxDuration ?? null,
      maxDurationMinutes:
        dto.max_duration !== undefined ? parseMaxDuration(dto.max_duration)! : (current?.maxDurationMinutes ?? null),
      namesMatchingType: dto.names_matching_type ?? current?.namesMatchingType ?? 'soft',
      retries: dto.retries ?? current?.retries ?? false,
      createdAt: current?.createdAt ?? now,
      updatedAt: now,
    };
    await this.settings.upsert(next, ['tenantId']);
    return this.view(next);
  }

  private view(row: CheckSettingsEntity | null): SettingsView {
    const retries = row?.retries ?? false;
    return {
      max_duration: row?.maxDuration ?? null,
      names_matching_type: row?.namesMatchingType ?? 'soft',
      retries,
      max_duration_by_country: Object.fromEntries(
        CHECK_COUNTRIES.map((c) => [
          c,
          formatMinutes(row?.maxDurationMinutes ?? defaultMaxDurationMinutes(c, retries)),
        ]),
      ) as Record<CheckCountry, string>,
      update_date: row ? row.updatedAt.toISOString() : null,
    };
  }
}
