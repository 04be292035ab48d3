import { decodeBase64Body, sniffContentType } from './media-sniffer';

describe('upload bodies', () => {
  it('decodes standard and URL-safe Base64, ignoring whitespace and a data: prefix', () => {
    const bytes = Buffer.from([0xff, 0xd8, 0xff, 0xfe, 0xfb]);
    expect(decodeBase64Body(bytes.toString('base64'))).toEqual(bytes);
    expect(decodeBase64Body(bytes.toString('base64url'))).toEqual(bytes);
    expect(decodeBase64Body(`data:image/jpeg;base64,${bytes.toString('base64')}\n`)).toEqual(bytes);
  });

  it('refuses what is not Base64', () => {
    expect(decodeBase64Body('%%%')).toBeUndefined();
    expect(decodeBase64Body('')).toBeUndefined();
    expect(decodeBase64Body('abcde')).toBeUndefined();
  });

  it('tells the type from the bytes', () => {
    expect(sniffContentType(Buffer.from([0xff, 0xd8, 0xff, 0xe0]))).toBe('image/jpeg');
    expect(sniffContentType(Buffer.from('89504e470d0a1a0a0000', 'hex'))).toBe('image/png');
    expect(sniffContentType(Buffer.from('000000186674797069736f6d', 'hex'))).toBe('video/mp4');
    expect(sniffContentType(Buffer.from('1a45dfa3', 'hex'))).toBe('video/webm');
    expect(sniffContentType(Buffer.from('%PDF-1.7'))).toBeUndefined();
  });
});
