import { createHash, createHmac } from 'node:crypto';

export interface S3Location {
  /** e.g. https://s3.us-east-1.amazonaws.com or http://minio:9000 */
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** endpoint/bucket/key instead of bucket.endpoint/key. */
  forcePathStyle?: boolean;
}

const hmac = (key: Buffer | string, data: string) => createHmac('sha256', key).update(data, 'utf8').digest();
const sha256 = (data: string) => createHash('sha256').update(data, 'utf8').digest('hex');
/** RFC 3986 encoding as SigV4 wants it (slashes kept in paths). */
const encode = (s: string, keepSlash = false) =>
  encodeURIComponent(s)
    .replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(keepSlash ? /%2F/g : /$^/, '/');
const amzDate = (d: Date) =>
  d
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');

/**
 * AWS Signature Version 4 query-string (presigned) URLs for S3-compatible storage, with node:crypto
 * only. Unsigned payload, host as the only signed header.
 */
export function presignS3Url(
  loc: S3Location,
  method: 'GET' | 'PUT' | 'HEAD',
  key: string,
  expiresSeconds: number,
  now: Date,
): string {
  const endpoint = new URL(loc.endpoint);
  const host = loc.forcePathStyle ? endpoint.host : `${loc.bucket}.${endpoint.host}`;
  const path = `${loc.forcePathStyle ? `/${encode(loc.bucket)}` : ''}/${encode(key, true)}`;
  const date = amzDate(now);
  const day = date.slice(0, 8);
  const scope = `${day}/${loc.region}/s3/aws4_request`;
  const query: Record<string, string> = {
    'X-Amz-Algorithm': 'AWS4-HMAC-SHA256',
    'X-Amz-Credential': `${loc.accessKeyId}/${scope}`,
    'X-Amz-Date': date,
    'X-Amz-Expires': String(Math.max(1, Math.min(604_800, Math.floor(expiresSeconds)))),
    'X-Amz-SignedHeaders': 'host',
  };
  const canonicalQuery = Object.keys(query)
    .sort()
    .map((k) => `${encode(k)}=${encode(query[k])}`)
    .join('&');
  const canonicalRequest = [method, path, canonicalQuery, `host:${host}\n`, 'host', 'UNSIGNED-PAYLOAD'].join('\n');
  const stringToSign = ['AWS4-HMAC-SHA256', date, scope, sha256(canonicalRequest)].join('\n');
  const signingKey = hmac(hmac(hmac(hmac(`AWS4${loc.secretAccessKey}`, day), loc.region), 's3'), 'aws4_request');
  const signature = createHmac('sha256', signingKey).update(stringToSign, 'utf8').digest('hex');
  return `${endpoint.protocol}//${host}${path}?${canonicalQuery}&X-Amz-Signature=${signature}`;
}
