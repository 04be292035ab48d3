import type { MediaSlot } from './media.entity';

/** The content type a file's first bytes prove (JPEG, PNG, MP4/QuickTime, WebM), or undefined. */
export function sniffContentType(data: Buffer): string | undefined {
  if (data.length >= 3 && data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) return 'image/jpeg';
  if (data.length >= 8 && data.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
    return 'image/png';
  if (data.length >= 12 && data.toString('latin1', 4, 8) === 'ftyp')
    return data.toString('latin1', 8, 10) === 'qt' ? 'video/quicktime' : 'video/mp4';
  if (data.length >= 4 && data.readUInt32BE(0) === 0x1a45dfa3) return 'video/webm';
  return undefined;
}

/** Content types each slot accepts. */
export const SLOT_CONTENT_TYPES: Record<MediaSlot, readonly string[]> = {
  front: ['image/jpeg', 'image/png'],
  reverse: ['image/jpeg', 'image/png'],
  face_photo: ['image/jpeg', 'image/png'],
  video: ['video/mp4', 'video/quicktime', 'video/webm'],
};

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const BASE64URL = /^[A-Za-z0-9_-]*$/;

/**
 * Decodes a Base64 body strictly (standard or URL alphabet, whitespace and an optional
 * `data:<type>;base64,` prefix ignored); undefined when it is not Base64.
 */
export function decodeBase64Body(body: string): Buffer | undefined {
  const text = body.replace(/^data:[\w/+.-]+;base64,/, '').replace(/\s+/g, '');
  if (!text.length) return undefined;
  if (BASE64.test(text) && text.length % 4 === 0) return Buffer.from(text, 'base64');
  if (BASE64URL.test(text) && text.length % 4 !== 1) return Buffer.from(text, 'base64url');
  return undefined;
}
