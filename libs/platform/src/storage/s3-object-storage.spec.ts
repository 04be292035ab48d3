import { S3ObjectStorage } from './s3-object-storage';

describe('S3ObjectStorage (AWS SDK v3)', () => {
  const credentials = {
    accessKeyId: 'AKIAIOSFODNN7EXAMPLE',
    secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
  };

  it('presigns a path-style PUT URL of the key on an S3-compatible endpoint', async () => {
    const storage = await S3ObjectStorage.open({
      bucket: 'batches',
      region: 'us-east-1',
      endpoint: 'http://127.0.0.1:9000',
      forcePathStyle: true,
      credentials,
    });
    const url = new URL(await storage.presignedPutUrl('batches/t1/B1.xlsx', 1_800.7));
    expect(url.host).toBe('127.0.0.1:9000');
    expect(url.pathname).toBe('/batches/batches/t1/B1.xlsx');
    expect(url.searchParams.get('X-Amz-Algorithm')).toBe('AWS4-HMAC-SHA256');
    expect(url.searchParams.get('X-Amz-Expires')).toBe('1800');
    expect(url.searchParams.get('X-Amz-Credential')).toMatch(
      /^AKIAIOSFODNN7EXAMPLE\/\d{8}\/us-east-1\/s3\/aws4_request$/,
    );
    expect(url.searchParams.get('X-Amz-Signature')).toMatch(/^[0-9a-f]{64}$/);
    // No checksum of an empty body is signed into the link: the client PUTs the file's bytes.
    expect([...url.searchParams.keys()].filter((k) => /checksum/i.test(k))).toEqual([]);
    storage.destroy();
  });

  it('uses virtual-hosted AWS URLs by default and signs the method (GET differs from PUT)', async () => {
    const storage = await S3ObjectStorage.open({ bucket: 'examplebucket', region: 'eu-west-1', credentials });
    const put = new URL(await storage.presignedPutUrl('a/b.xlsx', 60));
    const get = new URL(await storage.presignedGetUrl('a/b.xlsx', 60));
    expect(put.host).toBe('examplebucket.s3.eu-west-1.amazonaws.com');
    expect(put.pathname).toBe('/a/b.xlsx');
    expect(put.searchParams.get('X-Amz-Signature')).not.toBe(get.searchParams.get('X-Amz-Signature'));
    storage.destroy();
  });

  it('bounds the validity to what SigV4 allows (1 s to 7 days)', async () => {
    const storage = await S3ObjectStorage.open({ bucket: 'b', region: 'us-east-1', credentials });
    expect(new URL(await storage.presignedPutUrl('k', 0)).searchParams.get('X-Amz-Expires')).toBe('1');
    expect(new URL(await storage.presignedPutUrl('k', 10 ** 9)).searchParams.get('X-Amz-Expires')).toBe('604800');
    storage.destroy();
  });
});
