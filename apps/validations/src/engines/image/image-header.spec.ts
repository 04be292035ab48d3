import { crc32 } from 'node:zlib';

import { budgetPixels, ImageStructureError, readImageHeader } from './image-header';
import { createRaster, decodeImage, encodeJpeg, encodePng, UnsupportedImageError } from './raster';

const chunk = (type: string, data: Buffer) => {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
};
const png = (width: number, height: number, bitDepth: number, ...rest: Buffer[]) => {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = bitDepth;
  ihdr[9] = 6;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    ...rest,
    chunk('IEND', Buffer.alloc(0)),
  ]);
};

describe('image header', () => {
  it('reads dimensions and bit depth of real PNG and JPEG files', () => {
    const raster = createRaster(30, 20);
    expect(readImageHeader(encodePng(raster))).toEqual({ format: 'png', width: 30, height: 20, bitDepth: 8 });
    expect(readImageHeader(encodeJpeg(raster))).toEqual({ format: 'jpeg', width: 30, height: 20, bitDepth: 8 });
  });

  it('counts more than 8 bits per channel twice', () => {
    expect(budgetPixels(readImageHeader(png(8000, 5000, 16)))).toBe(80_000_000);
  });

  it('refuses a PNG with bytes after IEND and any file with HTML markup', () => {
    expect(() => readImageHeader(Buffer.concat([png(1, 1, 8), Buffer.from('x')]))).toThrow(ImageStructureError);
    expect(() => readImageHeader(png(1, 1, 8, chunk('tEXt', Buffer.from('c\0<script>alert(1)</script>'))))).toThrow(
      /markup/,
    );
  });

  it('lets the engines refuse a 40 MP 16-bit PNG from its header, before any decoder allocates', async () => {
    const bomb = png(8000, 5000, 16, chunk('IDAT', Buffer.alloc(100, 1)));
    await expect(decodeImage(bomb)).rejects.toThrow(UnsupportedImageError);
    await expect(decodeImage(bomb)).rejects.toThrow(/megapixels/);
  });
});
