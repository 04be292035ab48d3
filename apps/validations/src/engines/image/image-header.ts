// What an image is, read from its header and structure before anything decodes it: the format its bytes
// prove, its dimensions and bit depth (so a small file that expands to gigabytes is refused unread), and
// whether it is only that image (a PNG with bytes after its end, or any file carrying HTML or script markup,
// is refused: a browser that sniffs content could run it).

export interface ImageHeader {
  format: 'jpeg' | 'png';
  width: number;
  height: number;
  /** Bits per channel (8 or 16 for PNG; 8 or 12 for JPEG; 1, 2 or 4 for palette or grey PNGs). */
  bitDepth: number;
}

export class ImageStructureError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ImageStructureError';
  }
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** Markup a browser would act on, anywhere in the file (compressed pixel data matches it by chance ~never). */
const ACTIVE_CONTENT = /<(?:!doctype|html|head|body|script|iframe|svg|object|embed|meta|link|style|form|img)[\s>/]/i;

/**
 * The header of a JPEG or PNG, its structure walked to its end (PNG: chunk by chunk to IEND, nothing after it;
 * JPEG: segment by segment to the frame header). Throws ImageStructureError for anything else.
 */
export function readImageHeader(bytes: Buffer): ImageHeader {
  if (ACTIVE_CONTENT.test(bytes.toString('latin1')))
    throw new ImageStructureError('the file carries HTML or script markup: it is not only an image');
  if (bytes.length > 8 && bytes.subarray(0, 8).equals(PNG_SIGNATURE)) return pngHeader(bytes);
  if (bytes.length > 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return jpegHeader(bytes);
  throw new ImageStructureError('the file is neither JPEG nor PNG');
}

/**
 * Pixels the image counts for against a budget: width x height, twice for more than 8 bits per channel
 * (decoders hold 16-bit samples at double the size).
 */
export function budgetPixels(header: ImageHeader): number {
  return header.width * header.height * (header.bitDepth > 8 ? 2 : 1);
}

function pngHeader(bytes: Buffer): ImageHeader {
  let at = 8;
  let header: ImageHeader | undefined;
  for (;;) {
    if (at + 12 > bytes.length) throw new ImageStructureError('the PNG ends before its IEND chunk');
    const length = bytes.readUInt32BE(at);
    const type = bytes.toString('latin1', at + 4, at + 8);
    if (!/^[A-Za-z]{4}$/.test(type) || length > 0x7fffffff || at + 12 + length > bytes.length)
      throw new ImageStructureError('the PNG has a malformed chunk');
    if (!header) {
      if (type !== 'IHDR' || length !== 13) throw new ImageStructureError('the PNG does not start with its header');
      header = {
        format: 'png',
        width: bytes.readUInt32BE(at + 8),
        height: bytes.readUInt32BE(at + 12),
        bitDepth: bytes[at + 16],
      };
    }
    at += 12 + length;
    if (type === 'IEND') break;
  }
  if (at !== bytes.length) throw new ImageStructureError('the PNG has data after its end (IEND)');
  if (!header.width || !header.height) throw new ImageStructureError('the PNG has no pixels');
  return header;
}

function jpegHeader(bytes: Buffer): ImageHeader {
  let at = 2;
  while (at + 4 <= bytes.length) {
    if (bytes[at] !== 0xff) throw new ImageStructureError('the JPEG has a malformed segment');
    const marker = bytes[at + 1];
    if (marker === 0xff) {
      at++; // fill byte
      continue;
    }
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      at += 2;
      continue;
    }
    const length = bytes.readUInt16BE(at + 2);
    if (length < 2 || at + 2 + length > bytes.length) throw new ImageStructureError('the JPEG has a malformed segment');
    // SOF0..SOF15 except DHT (C4), JPG (C8) and DAC (CC): the frame header.
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      if (length < 8) throw new ImageStructureError('the JPEG has a malformed frame header');
      const header: ImageHeader = {
        format: 'jpeg',
        bitDepth: bytes[at + 4],
        height: bytes.readUInt16BE(at + 5),
        width: bytes.readUInt16BE(at + 7),
      };
      if (!header.width || !header.height) throw new ImageStructureError('the JPEG has no pixels');
      return header;
    }
    if (marker === 0xda || marker === 0xd9) break; // scan data or end before any frame header
    at += 2 + length;
  }
  throw new ImageStructureError('the JPEG has no frame header');
}
