import { BatchEntity } from './batch.entity';
import { BatchProgress } from './batches.service';

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);

/** A batch on the wire (snake_case): optional parts omitted when absent, the dates null until they happen (as documented). */
export function presentBatch(batch: BatchEntity, progress?: BatchProgress) {
  return {
    batch_id: batch.id,
    service: batch.service,
    country: batch.country,
    type: batch.type,
    ...(batch.endDate ? { end_date: String(batch.endDate).slice(0, 10) } : {}),
    ...(batch.frequency ? { frequency: batch.frequency } : {}),
    columns: batch.columns,
    status: batch.status,
    ...(batch.error ? { error: batch.error } : {}),
    ...(progress ? { progress } : {}),
    ...(batch.reportStatus
      ? {
          report: {
            format: batch.reportFormat,
            status: batch.reportStatus,
            requested_at: iso(batch.reportRequestedAt),
            generated_at: iso(batch.reportGeneratedAt),
          },
        }
      : {}),
    file_upload_expiration: iso(batch.uploadExpiresAt),
    file_uploaded_at: iso(batch.fileUploadedAt),
    creation_date: iso(batch.createdAt),
    update_date: iso(batch.updatedAt),
    started_at: iso(batch.startedAt),
    finished_at: iso(batch.finishedAt),
  };
}
