import type { S3Client } from '@aws-sdk/client-s3';

/** The SDK's modules, loaded by S3ObjectStorage.open() only (services without S3 storage never load them). */
interface Sdk {
  s3: typeof import('@aws-sdk/client-s3');
  presigner: typeof import('@aws-sdk/s3-request-presigner');
}

export interface S3ObjectStorageOptions {
  bucket: string;
  /** The region requests are signed for. Default: the SDK's (AWS_REGION, the profile). */
  region?: string;
  /** An S3-compatible store (e.g. http://minio:9000). Default: AWS S3 of the region. */
  endpoint?: string;
  /** endpoint/bucket/key instead of bucket.endpoint/key, as MinIO and most S3-compatible stores need. */
  forcePathStyle?: boolean;
  /**
   * Explicit keys. Default: the SDK's provider chain (AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY, web identity
   * tokens of EKS service accounts, ECS task and EC2 instance roles, AWS_PROFILE).
   */
  credentials?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
}

/** Longest validity of a SigV4 presigned URL (7 days). */
const MAX_PRESIGN_SECONDS = 604_800;

/**
 * An object store reached with the AWS SDK v3: AWS S3 or any S3-compatible store. Clients upload
 * straight to it with presigned PUT URLs; the service reads the objects back.
 */
export class S3ObjectStorage {
  readonly client: S3Client;

  /** Loads the AWS SDK and makes the client (no request is sent). */
  static async open(options: S3ObjectStorageOptions): Promise<S3ObjectStorage> {
    const [s3, presigner] = await Promise.all([import('@aws-sdk/client-s3'), import('@aws-sdk/s3-request-presigner')]);
    return new S3ObjectStorage(options, { s3, presigner });
  }

  private constructor(
    readonly options: S3ObjectStorageOptions,
    private readonly sdk: Sdk,
  ) {
    this.client = new sdk.s3.S3Client({
      region: options.region,
      endpoint: options.endpoint,
      forcePathStyle: options.forcePathStyle ?? false,
      credentials: options.credentials,
      // No checksum parameters in presigned URLs: a client PUTs any body to them.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  /** A presigned URL a client PUTs the object's body to, valid for expiresSeconds (1 s to 7 days). */
  presignedPutUrl(key: string, expiresSeconds: number): Promise<string> {
    const expiresIn = Math.max(1, Math.min(MAX_PRESIGN_SECONDS, Math.floor(expiresSeconds)));
    const { s3, presigner } = this.sdk;
    return presigner.getSignedUrl(this.client, new s3.PutObjectCommand({ Bucket: this.options.bucket, Key: key }), {
      expiresIn,
    });
  }

  /** A presigned URL a client GETs the object from. */
  presignedGetUrl(key: string, expiresSeconds: number): Promise<string> {
    const expiresIn = Math.max(1, Math.min(MAX_PRESIGN_SECONDS, Math.floor(expiresSeconds)));
    const { s3, presigner } = this.sdk;
    return presigner.getSignedUrl(this.client, new s3.GetObjectCommand({ Bucket: this.options.bucket, Key: key }), {
      expiresIn,
    });
  }

  /** Stores an object (uploads done by the service itself). */
  async put(key: string, body: Buffer, contentType?: string): Promise<void> {
    await this.client.send(
      new this.sdk.s3.PutObjectCommand({ Bucket: this.options.bucket, Key: key, Body: body, ContentType: contentType }),
    );
  }

  /** The object's content, or null when there is none. */
  async get(key: string): Promise<Buffer | null> {
    const { GetObjectCommand, NoSuchKey, S3ServiceException } = this.sdk.s3;
    try {
      const res = await this.client.send(new GetObjectCommand({ Bucket: this.options.bucket, Key: key }));
      if (!res.Body) return null;
      return Buffer.from(await res.Body.transformToByteArray());
    } catch (err) {
      if (err instanceof NoSuchKey) return null;
      if (err instanceof S3ServiceException && err.$metadata.httpStatusCode === 404) return null;
      throw err;
    }
  }

  /** Closes the client's connections. */
  destroy(): void {
    this.client.destroy();
  }
}
