import { S3ObjectStorage } from '@kyc/platform';
import { Injectable, OnModuleDestroy } from '@nestjs/common';
import { EntityManager } from 'typeorm';

import { ChecksConfig } from '../../config/checks.config';
import { BatchStore } from '../batch.store';
import { UploadLinkSigner } from '../batch-upload-link';

export interface BatchFileRef {
  id: string;
  tenantId: string;
}

/** Where a batch's xlsx file is uploaded to and read from. */
export abstract class BatchFileStorage {
  abstract readonly kind: 'local' | 's3';
  /** The link the client PUTs the file to, valid until expiresAt. */
  abstract uploadLink(batch: BatchFileRef, expiresAt: Date, serviceBaseUrl: string, now: Date): Promise<string>;
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

  constructor(
    config: ChecksConfig,
    private readonly store: BatchStore,
  ) {
    super();
    this.signer = new UploadLinkSigner(config.uploadSigningKey);
  }

  uploadLink(batch: BatchFileRef, expiresAt: Date, serviceBaseUrl: string): Promise<string> {
    const expires = Math.floor(expiresAt.getTime() / 1000);
    return Promise.resolve(
      `${serviceBaseUrl}/v1/batches/${batch.id}/file?expires=${expires}&signature=${this.signer.sign(batch.id, expiresAt)}`,
    );
  }

  async save(manager: EntityManager, batch: BatchFileRef, content: Buffer, now: Date): Promise<void> {
    await this.store.saveFile(manager, batch.id, batch.tenantId, content, now);
  }

  read(manager: EntityManager, batch: BatchFileRef): Promise<Buffer | null> {
    return this.store.readFile(manager, batch.id, batch.tenantId);
  }
}

/**
 * S3-compatible storage (CHECKS_BATCH_STORAGE=s3), through the AWS SDK: the upload link is a presigned
 * PUT URL of `batches/<tenant>/<batch>.xlsx`; the worker reads the object at start. First-file-only is
 * enforced by the service at start (it reads the object once); S3 itself accepts overwrites until the
 * link expires.
 */
export class S3BatchFileStorage extends BatchFileStorage implements OnModuleDestroy {
  readonly kind = 's3' as const;

  constructor(private readonly objects: S3ObjectStorage) {
    super();
  }

  private key = (batch: BatchFileRef) => `batches/${batch.tenantId}/${batch.id}.xlsx`;

  uploadLink(batch: BatchFileRef, expiresAt: Date, _serviceBaseUrl: string, now: Date): Promise<string> {
    return this.objects.presignedPutUrl(this.key(batch), (expiresAt.getTime() - now.getTime()) / 1000);
  }

  save(): Promise<void> {
    throw new Error('S3 batch storage receives files directly from clients');
  }

  read(_manager: EntityManager, batch: BatchFileRef): Promise<Buffer | null> {
    return this.objects.get(this.key(batch));
  }

  onModuleDestroy(): void {
    this.objects.destroy();
  }
}

/**
 * The storage CHECKS_BATCH_STORAGE names. S3 credentials: CHECKS_S3_ACCESS_KEY_ID and
 * CHECKS_S3_SECRET_ACCESS_KEY when both are set, else the AWS SDK's default provider chain.
 */
export async function batchFileStorageFactory(config: ChecksConfig, store: BatchStore): Promise<BatchFileStorage> {
  if (config.CHECKS_BATCH_STORAGE !== 's3') return new LocalBatchFileStorage(config, store);
  const { CHECKS_S3_BUCKET, CHECKS_S3_ACCESS_KEY_ID, CHECKS_S3_SECRET_ACCESS_KEY } = config;
  if (!CHECKS_S3_BUCKET) throw new Error('CHECKS_BATCH_STORAGE=s3 needs CHECKS_S3_BUCKET');
  if (!CHECKS_S3_ACCESS_KEY_ID !== !CHECKS_S3_SECRET_ACCESS_KEY)
    throw new Error(
      'set both CHECKS_S3_ACCESS_KEY_ID and CHECKS_S3_SECRET_ACCESS_KEY, or neither (the AWS default credential chain)',
    );
  const objects = await S3ObjectStorage.open({
    bucket: CHECKS_S3_BUCKET,
    region: config.CHECKS_S3_REGION || undefined,
    endpoint: config.CHECKS_S3_ENDPOINT || undefined,
    forcePathStyle: config.CHECKS_S3_FORCE_PATH_STYLE,
    credentials:
      CHECKS_S3_ACCESS_KEY_ID && CHECKS_S3_SECRET_ACCESS_KEY
        ? { accessKeyId: CHECKS_S3_ACCESS_KEY_ID, secretAccessKey: CHECKS_S3_SECRET_ACCESS_KEY }
        : undefined,
  });
  return new S3BatchFileStorage(objects);
}
