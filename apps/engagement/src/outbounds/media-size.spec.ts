import { base64DecodedLength } from './outbounds.service';

describe('base64DecodedLength', () => {
  it.each([0, 1, 2, 3, 4, 5, 9, 1000, 5 * 1024 * 1024 + 1])('is the decoded size of %i bytes', (bytes) => {
    const text = Buffer.alloc(bytes, 7).toString('base64');
    expect(base64DecodedLength(text)).toBe(Buffer.from(text, 'base64').length);
  });
});
