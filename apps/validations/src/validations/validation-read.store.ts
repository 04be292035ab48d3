import { mapRow, preparedQuery } from '@kyc/platform';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

import { MediaEntity } from '../media/media.entity';
import { ValidationEntity } from './validation.entity';
import { VALIDATION_WITH_MEDIA_SQL } from './validation-read.sql';

/** The media columns' prefix in the statement's rows (no validation column starts with it). */
const MEDIA_PREFIX = 'm_';

/**
 * The read behind GET /v1/validations/{id}, the API's hottest path while the engines work (clients poll
 * it): the validation and its media slots in one prepared statement mapped through the entities' column
 * metadata, instead of two TypeORM queries (the query builder was a third of the event loop's CPU per
 * call). It writes nothing: the validation's changes stay with its use cases, the media with MediaService.
 */
@Injectable()
export class ValidationReadStore {
  constructor(private readonly dataSource: DataSource) {}

  /** The tenant's validation (deleted ones too) with its media slots in creation order, or null. */
  async findWithMedia(
    tenantId: string,
    id: string,
  ): Promise<{ validation: ValidationEntity; media: MediaEntity[] } | null> {
    const rows = await preparedQuery<Record<string, unknown>>(
      this.dataSource,
      'validations.with-media',
      VALIDATION_WITH_MEDIA_SQL,
      [tenantId, id],
    );
    if (!rows.length) return null;
    const mediaRepo = this.dataSource.getRepository(MediaEntity);
    const media = rows
      .filter((row) => row.m_id !== null)
      .map((row) => {
        const slot: Record<string, unknown> = {};
        for (const [key, value] of Object.entries(row))
          if (key.startsWith(MEDIA_PREFIX)) slot[key.slice(MEDIA_PREFIX.length)] = value;
        return mapRow(mediaRepo, slot);
      });
    return { validation: mapRow(this.dataSource.getRepository(ValidationEntity), rows[0]), media };
  }
}
