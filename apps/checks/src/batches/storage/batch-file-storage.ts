import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';

import { ChecksConfig } from '../../config/checks.config';
import { UploadLinkSigner } from '../batch-upload-link';
import { presignS3Url, S3Location } from './s3-presigner';

export interface BatchFileRef {
  id: string;
  tenantId: string;
}

/** Where a batch's xlsx file is uploaded to and read from. */
export abstract class BatchFileStorage {
  abstract readonly kind: 'local' | 's3';
  /** The link the client PUTs the file to, valid until expiresAt. */
  abstract uploadLink(batch: BatchFileRef, expiresAt: Date, serviceBaseUrl: string, now: Date): string;
  /** Stores a file received by the service itself (local storage only). */
  abstract save(manager: EntityManager, batch: BatchFileRef, content: Buffer, now: Date): Promise<void>;
  /** The uploaded file, or null when none is there. */
  abstract read(manager: EntityManager, batch: BatchFileRef, now: Date): Promise<Buffer | null>;
}

/**
 * The default: the link points at the service itself (PUT /v1/batches/{id}/file, signed with
 * CHECKS_UPLOAD_SIGNING_KEY), and the file is kept in the service's database (batch_files).
 */
@Injectable()
export class LocalBatchFileStorage extends BatchFileStorage {
  readonly kind = 'local' as const;
  readonly signer: UploadLinkSigner;

  constructor(config: ChecksConfig) {
    super();
    this.signer = new UploadLinkSigner(config.uploadSigningKey);
  }

  uploadLink(batch: BatchFileRef, expiresAt: Date, serviceBaseUrl: string): string {
    const expires = Math.floor(expiresAt.getTime() / 1000);
    return `${serviceBaseUrl}/v1/batches/${batch.id}/file?expires=${expires}&signature=${this.signer.sign(batch.id, expiresAt)}`;
  }

  async save(manager: EntityManager, batch: BatchFileRef, content: Buffer, now: Date): Promise<void> {
    await manager.query(`INSERT INTO batch_files (batch_id, tenant_id, content, created_at) VALUES ($1, $2, $3, $4)`, [
      batch.id,
      batch.tenantId,
      content,
      now,
    ]);
  }

  async read(manager: EntityManager, batch: BatchFileRef): Promise<Buffer | null> {
    const rows = await manager.query(`SELECT content FROM batch_files WHERE batch_id = $1 AND tenant_id = $2`, [
      batch.id,
      batch.tenantId,
    ]);
    return rows[0]?.content ?? null;
  }
}

/**
 * S3-compatible storage (CHECKS_BATCH_STORAGE=s3): the upload link is a presigned PUT URL (SigV4)
 * of `batches/<tenant>/<batch>.xlsx`; the service reads the object with a presigned GET at start.
 * First-file-only is enforced by the service at start (it reads the object once); S3 itself
 * accepts overwrites until the link expires.
 */
export class S3BatchFileStorage extends BatchFileStorage {
  readonly kind = 's3' as const;

  constructor(private readonly location: S3Location) {
    super();
  }

  private key = (batch: BatchFileRef) => `batches/${batch.tenantId}/${batch.id}.xlsx`;

  uploadLink(batch: BatchFileRef, expiresAt: Date, _serviceBaseUrl: string, now: Date): string {
    return presignS3Url(this.location, 'PUT', this.key(batch), (expiresAt.getTime() - now.getTime()) / 1000, now);
  }

  save(): Promise<void> {
    throw new Error('S3 batch storage receives files directly from clients');
  }

  async read(_manager: EntityManager, batch: BatchFileRef, now: Date): Promise<Buffer | null> {
    const res = await fetch(presignS3Url(this.location, 'GET', this.key(batch), 300, now));
    if (res.status === 404 || res.status === 403) return null;
    if (!res.ok) throw new Error(`S3 GET of the batch file answered ${res.status}`);
    return Buffer.from(await res.arrayBuffer());
  }
}

export function batchFileStorageFactory(config: ChecksConfig): BatchFileStorage {
  if (config.CHECKS_BATCH_STORAGE !== 's3') return new LocalBatchFileStorage(config);
  const {
    CHECKS_S3_ENDPOINT,
    CHECKS_S3_BUCKET,
    CHECKS_S3_REGION,
    CHECKS_S3_ACCESS_KEY_ID,
    CHECKS_S3_SECRET_ACCESS_KEY,
  } = config;
  if (
    !CHECKS_S3_ENDPOINT ||
    !CHECKS_S3_BUCKET ||
    !CHECKS_S3_REGION ||
    !CHECKS_S3_ACCESS_KEY_ID ||
    !CHECKS_S3_SECRET_ACCESS_KEY
  ) {
    throw new Error(
      'CHECKS_BATCH_STORAGE=s3 needs CHECKS_S3_ENDPOINT, CHECKS_S3_BUCKET, CHECKS_S3_REGION, CHECKS_S3_ACCESS_KEY_ID and CHECKS_S3_SECRET_ACCESS_KEY',
    );
  }
  return new S3BatchFileStorage({
    endpoint: CHECKS_S3_ENDPOINT,
    bucket: CHECKS_S3_BUCKET,
    region: CHECKS_S3_REGION,
    accessKeyId: CHECKS_S3_ACCESS_KEY_ID,
    secretAccessKey: CHECKS_S3_SECRET_ACCESS_KEY,
    forcePathStyle: config.CHECKS_S3_FORCE_PATH_STYLE,
  });
}
