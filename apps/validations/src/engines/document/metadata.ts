// The software that last wrote an image, from its metadata: JPEG Exif IFD0 Software (0x0131), XMP
// CreatorTool, a Photoshop APP13 segment; PNG tEXt/iTXt "Software". Only names of image editors count:
// cameras and phones write their firmware there too.

import type { ImageFormat } from '../image/raster';

const EDITORS = [
  'photoshop',
  'adobe',
  'gimp',
  'paint.net',
  'affinity',
  'pixelmator',
  'canva',
  'snapseed',
  'lightroom',
  'picsart',
  'facetune',
  'krita',
  'paintshop',
  'corel',
  'photopea',
  'inkscape',
];

/** The editor's name (as written in the file) when the metadata names a known image editor. */
export function editingSoftware(bytes: Buffer, format: ImageFormat): string | undefined {
  const names = format === 'jpeg' ? jpegSoftware(bytes) : pngSoftware(bytes);
  return names.find((name) => EDITORS.some((e) => name.toLowerCase().includes(e)));
}

function jpegSoftware(bytes: Buffer): string[] {
  const found: string[] = [];
  let offset = 2;
  while (offset + 4 <= bytes.length && bytes[offset] === 0xff) {
    const marker = bytes[offset + 1];
    if (marker === 0xda || marker === 0xd9) break; // start of scan: no more metadata
    const length = bytes.readUInt16BE(offset + 2);
    const segment = bytes.subarray(offset + 4, Math.min(bytes.length, offset + 2 + length));
    if (marker === 0xe1 && segment.subarray(0, 6).toString('binary') === 'Exif\0\0') {
      const software = exifSoftware(segment.subarray(6));
      if (software) found.push(software);
    } else if (marker === 0xe1) {
      const xmp = /CreatorTool(?:>|=")([^<"]+)/.exec(segment.toString('utf8'));
      if (xmp) found.push(xmp[1]);
    } else if (marker === 0xed && segment.subarray(0, 13).toString('binary') === 'Photoshop 3.0') {
      found.push('Photoshop');
    }
    offset += 2 + length;
  }
  return found;
}

function exifSoftware(tiff: Buffer): string | undefined {
  if (tiff.length < 8) return undefined;
  const little = tiff.toString('binary', 0, 2) === 'II';
  const u16 = (o: number) => (little ? tiff.readUInt16LE(o) : tiff.readUInt16BE(o));
  const u32 = (o: number) => (little ? tiff.readUInt32LE(o) : tiff.readUInt32BE(o));
  const ifd = u32(4);
  if (ifd + 2 > tiff.length) return undefined;
  const count = u16(ifd);
  for (let i = 0; i < count; i++) {
    const entry = ifd + 2 + i * 12;
    if (entry + 12 > tiff.length) return undefined;
    if (u16(entry) !== 0x0131 || u16(entry + 2) !== 2) continue;
    const length = u32(entry + 4);
    const at = length <= 4 ? entry + 8 : u32(entry + 8);
    if (at + length > tiff.length) return undefined;
    return tiff.toString('latin1', at, at + length).replace(/\0+$/, '');
  }
  return undefined;
}

function pngSoftware(bytes: Buffer): string[] {
  const found: string[] = [];
  let offset = 8;
  while (offset + 12 <= bytes.length) {
    const length = bytes.readUInt32BE(offset);
    const type = bytes.toString('ascii', offset + 4, offset + 8);
    if (type === 'IEND') break;
    if (type === 'tEXt' || type === 'iTXt') {
      const data = bytes.subarray(offset + 8, Math.min(bytes.length, offset + 8 + length));
      const nul = data.indexOf(0);
      const keyword = data.toString('latin1', 0, nul);
      if (keyword === 'Software') found.push(data.toString('utf8', nul + 1).replace(/\0/g, ' '));
      if (keyword === 'XML:com.adobe.xmp') {
        const xmp = /CreatorTool(?:>|=")([^<"]+)/.exec(data.toString('utf8'));
        if (xmp) found.push(xmp[1]);
      }
    }
    offset += 12 + length;
  }
  return found;
}
