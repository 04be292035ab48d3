// The entries of a zip file (an xlsx is one), read from its central directory, each inflated as a stream that
// stops at a size limit: what an entry expands to is measured while it is read, never trusted from its header.

import { Readable } from 'node:stream';
import { createInflateRaw } from 'node:zlib';

import { SpreadsheetError } from './spreadsheet-limits';

export interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  size: number;
  localHeaderOffset: number;
}

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
const NOT_XLSX = 'the file is not a readable xlsx spreadsheet';

/** The entries of the central directory by name; a file that is not a plain zip (or is zip64) is refused. */
export function zipEntries(zip: Buffer, maxEntries: number): Map<string, ZipEntry> {
  let eocd = -1;
  for (let i = zip.length - 22; i >= Math.max(0, zip.length - 22 - 0xffff); i--)
    if (zip.readUInt32LE(i) === EOCD) {
      eocd = i;
      break;
    }
  if (eocd < 0) throw new SpreadsheetError(NOT_XLSX);
  const count = zip.readUInt16LE(eocd + 10);
  let offset = zip.readUInt32LE(eocd + 16);
  if (count > maxEntries) throw new SpreadsheetError(`the file has more than ${maxEntries} parts`);
  const entries = new Map<string, ZipEntry>();
  for (let i = 0; i < count; i++) {
    if (offset + 46 > zip.length || zip.readUInt32LE(offset) !== CENTRAL) throw new SpreadsheetError(NOT_XLSX);
    const nameLength = zip.readUInt16LE(offset + 28);
    const entry: ZipEntry = {
      method: zip.readUInt16LE(offset + 10),
      compressedSize: zip.readUInt32LE(offset + 20),
      size: zip.readUInt32LE(offset + 24),
      localHeaderOffset: zip.readUInt32LE(offset + 42),
      name: zip.toString('utf8', offset + 46, offset + 46 + nameLength),
    };
    if ([entry.compressedSize, entry.size, entry.localHeaderOffset].includes(0xffffffff))
      throw new SpreadsheetError(NOT_XLSX); // zip64: never needed by a batch file
    entries.set(entry.name.replace(/^\//, ''), entry);
    offset += 46 + nameLength + zip.readUInt16LE(offset + 30) + zip.readUInt16LE(offset + 32);
  }
  return entries;
}

/**
 * The entry's uncompressed content as chunks; throws SpreadsheetError as soon as more than maxBytes came out
 * (whatever the header declares), and for a method other than stored or deflated.
 */
export async function* entryChunks(zip: Buffer, entry: ZipEntry, maxBytes: number): AsyncGenerator<Buffer> {
  const at = entry.localHeaderOffset;
  if (at + 30 > zip.length || zip.readUInt32LE(at) !== LOCAL) throw new SpreadsheetError(NOT_XLSX);
  const start = at + 30 + zip.readUInt16LE(at + 26) + zip.readUInt16LE(at + 28);
  const data = zip.subarray(start, start + entry.compressedSize);
  const tooLarge = () =>
    new SpreadsheetError(`the part ${entry.name} expands to more than ${maxBytes} bytes (the limit of one part)`);
  if (entry.size > maxBytes) throw tooLarge();
  if (entry.method === 0) {
    if (data.length > maxBytes) throw tooLarge();
    yield data;
    return;
  }
  if (entry.method !== 8) throw new SpreadsheetError(NOT_XLSX);
  const inflate = Readable.from([data], { objectMode: false }).pipe(createInflateRaw({ chunkSize: 64 * 1024 }));
  let total = 0;
  try {
    for await (const chunk of inflate as AsyncIterable<Buffer>) {
      total += chunk.length;
      if (total > maxBytes) throw tooLarge();
      yield chunk;
    }
  } catch (err) {
    if (err instanceof SpreadsheetError) throw err;
    throw new SpreadsheetError(NOT_XLSX);
  } finally {
    inflate.destroy();
  }
}
