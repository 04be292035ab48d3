import { createRaster, decodeImage, encodeJpeg, encodePng, UnsupportedImageError } from './raster';

describe('raster decoding', () => {
  it('decodes the PNG and JPEG it encodes', () => {
    const r = createRaster(8, 4, [200, 40, 10]);
    expect(decodeImage(encodePng(r))).toEqual(r);
    const jpeg = decodeImage(encodeJpeg(r, 95));
    expect([jpeg.width, jpeg.height]).toEqual([8, 4]);
    expect(Math.abs(jpeg.data[0] - 200)).toBeLessThan(12);
  });

  it('refuses other formats, corrupt files and a PNG header announcing more than 40 megapixels', () => {
    expect(() => decodeImage(Buffer.from('GIF89a...'))).toThrow(UnsupportedImageError);
    expect(() => decodeImage(encodePng(createRaster(4, 4)).subarray(0, 40))).toThrow(UnsupportedImageError);
    const bomb = Buffer.from(encodePng(createRaster(4, 4)));
    bomb.writeUInt32BE(100_000, 16);
    bomb.writeUInt32BE(100_000, 20);
    expect(() => decodeImage(bomb)).toThrow('megapixels');
  });
});
