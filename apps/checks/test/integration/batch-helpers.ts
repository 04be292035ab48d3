import { crc32, deflateRawSync, inflateRawSync } from 'node:zlib';

import * as ExcelJS from 'exceljs';

/** An xlsx file (first worksheet) with these rows, built with exceljs. */
export async function xlsx(rows: (string | number | null)[][]): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('checks');
  for (const row of rows) sheet.addRow(row);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/** The rows of an xlsx file's first worksheet as text. */
export async function readXlsx(content: Buffer): Promise<string[][]> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(content);
  const out: string[][] = [];
  workbook.worksheets[0].eachRow((row) =>
    out.push(
      Array.from((row.values as unknown[]).slice(1), (v) =>
        v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v as string | number),
      ),
    ),
  );
  return out;
}

export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** PUT a file to a file_upload_link (no API key: the link's signature authenticates it). */
export async function upload(link: string, content: Buffer | string, contentType = XLSX_TYPE) {
  const res = await fetch(link, { method: 'PUT', headers: { 'content-type': contentType }, body: content });
  const text = await res.text();
  let body: any = text;
  try {
    body = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  return { status: res.status, body };
}

export interface ZipPart {
  name: string;
  data: Buffer;
}

/** The parts of a zip file in their order (stored or deflated entries; enough for files exceljs writes). */
export function zipParts(zip: Buffer): ZipPart[] {
  const eocd = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  const parts: ZipPart[] = [];
  let at = zip.readUInt32LE(eocd + 16);
  for (let i = 0; i < zip.readUInt16LE(eocd + 10); i++) {
    const nameLength = zip.readUInt16LE(at + 28);
    const name = zip.toString('utf8', at + 46, at + 46 + nameLength);
    const local = zip.readUInt32LE(at + 42);
    const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const raw = zip.subarray(start, start + zip.readUInt32LE(at + 20));
    parts.push({ name, data: zip.readUInt16LE(at + 10) === 8 ? inflateRawSync(raw) : Buffer.from(raw) });
    at += 46 + nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
  }
  return parts;
}

/** A zip file of these parts in this order, each deflated (its header declares its true size). */
export function zipOf(parts: ZipPart[]): Buffer {
  const locals: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const { name, data } of parts) {
    const packed = deflateRawSync(data);
    const fileName = Buffer.from(name);
    const header = Buffer.alloc(30);
    header.writeUInt32LE(0x04034b50, 0);
    header.writeUInt16LE(20, 4);
    header.writeUInt16LE(8, 8);
    header.writeUInt32LE(crc32(data), 14);
    header.writeUInt32LE(packed.length, 18);
    header.writeUInt32LE(data.length, 22);
    header.writeUInt16LE(fileName.length, 26);
    const entry = Buffer.alloc(46);
    entry.writeUInt32LE(0x02014b50, 0);
    entry.writeUInt16LE(20, 4);
    entry.writeUInt16LE(20, 6);
    entry.writeUInt16LE(8, 10);
    entry.writeUInt32LE(crc32(data), 16);
    entry.writeUInt32LE(packed.length, 20);
    entry.writeUInt32LE(data.length, 24);
    entry.writeUInt16LE(fileName.length, 28);
    entry.writeUInt32LE(offset, 42);
    locals.push(header, fileName, packed);
    central.push(entry, fileName);
    offset += header.length + fileName.length + packed.length;
  }
  const directory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(parts.length, 8);
  end.writeUInt16LE(parts.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/** The file with one part's content replaced (the others as they were, in their order). */
export function withPart(zip: Buffer, name: string, data: Buffer | string): Buffer {
  return zipOf(zipParts(zip).map((p) => (p.name === name ? { name, data: Buffer.from(data) } : p)));
}
