import { createRaster, decodeImage, encodeJpeg, encodePng, UnsupportedImageError } from './raster';

describe('raster decoding', () => {
  it('decodes the PNG and JPEG it encodes (libvips)', async () => {
    const r = createRaster(8, 4, [200, 40, 10]);
    expect(await decodeImage(encodePng(r))).toEqual(r);
    const jpeg = await decodeImage(encodeJpeg(r, 95));
    expect([jpeg.width, jpeg.height]).toEqual([8, 4]);
    expect(Math.abs(jpeg.data[0] - 200)).toBeLessThan(12);
  });

  it('refuses other formats, corrupt files and a PNG header announcing more than 40 megapixels', async () => {
    await expect(decodeImage(Buffer.from('GIF89a...'))).rejects.toThrow(UnsupportedImageError);
    await expect(decodeImage(encodePng(createRaster(4, 4)).subarray(0, 40))).rejects.toThrow(UnsupportedImageError);
    // A JPEG cut short: libvips' premature-end warning is a refusal, not grey rows.
    const photo = encodeJpeg(createRaster(64, 64, [90, 120, 200]), 90);
    await expect(decodeImage(photo.subarray(0, photo.length - 40))).rejects.toThrow(UnsupportedImageError);
    const bomb = Buffer.from(encodePng(createRaster(4, 4)));
    bomb.writeUInt32BE(100_000, 16);
    bomb.writeUInt32BE(100_000, 20);
    await expect(decodeImage(bomb)).rejects.toThrow('megapixels');
  });
});
