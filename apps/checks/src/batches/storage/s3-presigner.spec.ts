import { presignS3Url } from './s3-presigner';

describe('presignS3Url (AWS SigV4 query-string authentication)', () => {
  // The documented example of the S3 API reference, "Authenticating Requests: Using Query
  // Parameters (AWS Signature Version 4)": GET examplebucket/test.txt, 24 hours, 2013-05-24.
  const example = {
    endpoint: 'https://s3.amazonaws.com',
    bucket: 'examplebucket',
    region: 'us-east-1',
    accessKeyId: 'AKIAIOSFODNN7EXAMPLE',
    secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
  };

  it('gives the signature of the documented AWS test vector', () => {
    const url = presignS3Url(example, 'GET', 'test.txt', 86_400, new Date('2013-05-24T00:00:00Z'));
    expect(url).toBe(
      'https://examplebucket.s3.amazonaws.com/test.txt?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIAIOSFODNN7EXAMPLE%2F20130524%2Fus-east-1%2Fs3%2Faws4_request' +
        '&X-Amz-Date=20130524T000000Z&X-Amz-Expires=86400&X-Amz-SignedHeaders=host&X-Amz-Signature=aeeed9bbccd4d02ee5c0109b86d86835f995330da4c265957d157751f604d404',
    );
  });

  it('signs the method: a PUT link differs from a GET link', () => {
    const at = new Date('2013-05-24T00:00:00Z');
    expect(presignS3Url(example, 'PUT', 'test.txt', 86_400, at)).not.toBe(
      presignS3Url(example, 'GET', 'test.txt', 86_400, at),
    );
  });

  it('puts the bucket in the path for path-style endpoints (MinIO) and keeps slashes of the key', () => {
    const url = new URL(
      presignS3Url(
        { ...example, endpoint: 'http://127.0.0.1:9000', forcePathStyle: true },
        'PUT',
        'batches/t1/B1.xlsx',
        1_800,
        new Date(),
      ),
    );
    expect(url.host).toBe('127.0.0.1:9000');
    expect(url.pathname).toBe('/examplebucket/batches/t1/B1.xlsx');
    expect(url.searchParams.get('X-Amz-Expires')).toBe('1800');
  });
});
