// Test identity documents rendered from scratch: a TD1 identity card (front and reverse) and a TD3 passport
// data page, with an MRZ built from the person's data, and the variants the document engine must refuse
// (wrong check digit, photocopy, photo of a screen, edited file). Every person here is fictitious.

import type { ExpectedPersonData } from '../../../src/engines/engine.ports';
import { createRaster, encodeJpeg, encodePng, type Raster } from '../../../src/engines/image/raster';
import { type CorruptCheckDigit, td1Lines, td3Lines, type TestPerson } from './mrz-compose';
import { drawText, fillRect, type Rgb } from './text-rasterizer';

export type { CorruptCheckDigit, TestPerson } from './mrz-compose';

export type ImageEncoding = 'png' | 'jpeg';

/** A fictitious Colombian citizen (documented in docs/services/validations-engines.md). */
export const TEST_PERSON: TestPerson = {
  country: 'CO',
  documentNumber: '1020304050'.slice(0, 9),
  nationalId: '1020304050',
  firstName: 'Maria José',
  lastName: 'Pérez Gómez',
  dateOfBirth: '1990-05-17',
  expirationDate: '2034-05-16',
  sex: 'F',
};

export interface RenderOptions {
  person?: Partial<TestPerson>;
  /** Writes a wrong check digit in this MRZ field. */
  corruptCheckDigit?: CorruptCheckDigit;
  /** The name printed in the visual zone when it must differ from the MRZ (an edited document). */
  visualName?: { firstName: string; lastName: string };
  /** Default png. */
  encoding?: ImageEncoding;
  /** Grayscale, low contrast, as a photocopy. */
  photocopy?: boolean;
  /** The document shown on a screen and photographed: dark bezel around it and a soft blur. */
  photoOfPhoto?: boolean;
  /** JPEG only: an Exif "Software" tag naming an image editor. */
  editedWith?: string;
}

export interface RenderedDocument {
  person: TestPerson;
  /** The account data that matches the person printed on the document. */
  expected: ExpectedPersonData;
  mrz: string[];
}

export interface RenderedIdCard extends RenderedDocument {
  front: Buffer;
  reverse: Buffer;
}

export interface RenderedPassport extends RenderedDocument {
  image: Buffer;
}

const INK: Rgb = [25, 25, 35];
const LABEL: Rgb = [70, 80, 110];

function personOf(options: RenderOptions): TestPerson {
  return { ...TEST_PERSON, ...options.person };
}

export function expectedOf(person: TestPerson): ExpectedPersonData {
  return {
    firstName: person.firstName,
    lastName: person.lastName,
    documentNumber: person.nationalId ?? person.documentNumber,
    dateOfBirth: person.dateOfBirth,
    expirationDate: person.expirationDate,
  };
}

/** A pale security background: a diagonal two-colour gradient and guilloche waves. */
function background(width: number, height: number, from: Rgb, to: Rgb): Raster {
  const r = createRaster(width, height);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const t = (x / width + y / height) / 2;
      const i = (y * width + x) * 4;
      for (let c = 0; c < 3; c++) r.data[i + c] = Math.round(from[c] * (1 - t) + to[c] * t);
    }
  for (let k = 0; k < 6; k++) {
    for (let x = 0; x < width; x++) {
      const y = Math.round(height * (0.15 + k * 0.09) + Math.sin((x / width) * Math.PI * (4 + k)) * 18);
      fillRect(r, x, y, 1, 2, [from[0] - 40, from[1] - 20, to[2] - 10]);
    }
  }
  return r;
}

function portraitBox(r: Raster, x: number, y: number, w: number, h: number): void {
  fillRect(r, x, y, w, h, [205, 210, 220]);
  const cx = x + w / 2;
  for (let py = y; py < y + h; py++)
    for (let px = x; px < x + w; px++) {
      const head = ((px - cx) / (w * 0.22)) ** 2 + ((py - (y + h * 0.38)) / (h * 0.2)) ** 2 <= 1;
      const body = ((px - cx) / (w * 0.42)) ** 2 + ((py - (y + h)) / (h * 0.36)) ** 2 <= 1;
      if (head || body) fillRect(r, px, py, 1, 1, [120, 125, 140]);
    }
}

function field(r: Raster, label: string, value: string, x: number, y: number, size = 30): void {
  drawText(r, label, x, y, { size: Math.round(size * 0.55), color: LABEL });
  drawText(r, value, x, y + size + 4, { font: 'sans-bold', size, color: INK });
}

function mrzBand(r: Raster, lines: string[], top: number, size: number): void {
  fillRect(r, 0, top, r.width, r.height - top, [250, 250, 247]);
  const lineHeight = Math.round(size * 1.45);
  lines.forEach((line, i) =>
    drawText(r, line, 40, top + 30 + size + i * lineHeight, { font: 'mono', size, color: INK }),
  );
}

function isoToDisplay(iso: string): string {
  return `${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(0, 4)}`;
}

/** Grayscale and lower contrast, like a photocopy of the document. */
function asPhotocopy(r: Raster): Raster {
  const out = createRaster(r.width, r.height);
  for (let i = 0; i < r.data.length; i += 4) {
    const g = (r.data[i] * 299 + r.data[i + 1] * 587 + r.data[i + 2] * 114) / 1000;
    const v = Math.round(40 + g * 0.78);
    out.data[i] = out.data[i + 1] = out.data[i + 2] = v;
  }
  return out;
}

/** The document on a screen, photographed: a dark bezel, a soft box blur and a faint pixel grid. */
function asPhotoOfPhoto(r: Raster): Raster {
  const margin = Math.round(r.width * 0.12);
  const w = r.width + 2 * margin;
  const h = r.height + 2 * margin;
  const out = createRaster(w, h, [18, 18, 22]);
  const radius = 2;
  for (let y = 0; y < r.height; y++)
    for (let x = 0; x < r.width; x++) {
      const sums = [0, 0, 0];
      let n = 0;
      for (let dy = -radius; dy <= radius; dy++)
        for (let dx = -radius; dx <= radius; dx++) {
          const sx = Math.min(r.width - 1, Math.max(0, x + dx));
          const sy = Math.min(r.height - 1, Math.max(0, y + dy));
          const i = (sy * r.width + sx) * 4;
          sums[0] += r.data[i];
          sums[1] += r.data[i + 1];
          sums[2] += r.data[i + 2];
          n++;
        }
      const grid = x % 3 === 0 || y % 3 === 0 ? 0.9 : 1;
      const o = ((y + margin) * w + x + margin) * 4;
      for (let c = 0; c < 3; c++) out.data[o + c] = Math.round((sums[c] / n) * grid);
    }
  return out;
}

/** An Exif APP1 segment with one IFD0 entry: Software (tag 0x0131, ASCII). */
function exifSoftwareSegment(software: string): Buffer {
  const value = Buffer.from(`${software}\0`, 'ascii');
  const tiff = Buffer.alloc(8 + 2 + 12 + 4 + value.length);
  tiff.write('II', 0, 'ascii');
  tiff.writeUInt16LE(42, 2);
  tiff.writeUInt32LE(8, 4);
  tiff.writeUInt16LE(1, 8);
  tiff.writeUInt16LE(0x0131, 10);
  tiff.writeUInt16LE(2, 12);
  tiff.writeUInt32LE(value.length, 14);
  tiff.writeUInt32LE(8 + 2 + 12 + 4, 18);
  tiff.writeUInt32LE(0, 22);
  value.copy(tiff, 26);
  const payload = Buffer.concat([Buffer.from('Exif\0\0', 'binary'), tiff]);
  const header = Buffer.alloc(4);
  header.writeUInt16BE(0xffe1, 0);
  header.writeUInt16BE(payload.length + 2, 2);
  return Buffer.concat([header, payload]);
}

function finish(r: Raster, options: RenderOptions): Buffer {
  let img = r;
  if (options.photocopy) img = asPhotocopy(img);
  if (options.photoOfPhoto) img = asPhotoOfPhoto(img);
  if ((options.encoding ?? 'png') === 'png') {
    if (options.editedWith) throw new Error('editedWith needs encoding jpeg');
    return encodePng(img);
  }
  const jpg = encodeJpeg(img, 92);
  if (!options.editedWith) return jpg;
  // Right after SOI (FF D8), before jpeg-js's own JFIF segment.
  return Buffer.concat([jpg.subarray(0, 2), exifSoftwareSegment(options.editedWith), jpg.subarray(2)]);
}

/** A TD1 identity card: the front with the visual zone, the reverse with the three-line MRZ. */
export function renderIdCard(options: RenderOptions = {}): RenderedIdCard {
  const person = personOf(options);
  const mrz = td1Lines(person, options.corruptCheckDigit);
  const W = 1000;
  const H = 630;
  const shown = options.visualName ?? person;

  const front = background(W, H, [226, 236, 248], [236, 246, 226]);
  fillRect(front, 0, 0, W, 70, [30, 70, 140]);
  drawText(front, `REPÚBLICA DE ${person.country} · CÉDULA DE IDENTIDAD`, 30, 48, {
    font: 'sans-bold',
    size: 28,
    color: [255, 255, 255],
  });
  portraitBox(front, 40, 110, 250, 320);
  field(front, 'APELLIDOS / SURNAME', shown.lastName.toUpperCase(), 330, 130);
  field(front, 'NOMBRES / GIVEN NAMES', shown.firstName.toUpperCase(), 330, 220);
  field(front, 'NÚMERO / NUMBER', person.nationalId ?? person.documentNumber, 330, 310);
  field(front, 'NACIMIENTO / DATE OF BIRTH', isoToDisplay(person.dateOfBirth), 330, 400);
  field(front, 'SEXO / SEX', person.sex, 760, 400);
  field(front, 'VENCE / EXPIRES', isoToDisplay(person.expirationDate), 330, 490);

  const reverse = background(W, H, [238, 232, 246], [226, 240, 240]);
  drawText(reverse, 'Documento ficticio para pruebas · Fictitious test document', 40, 60, { size: 22, color: LABEL });
  field(reverse, 'LUGAR DE NACIMIENTO / PLACE OF BIRTH', 'UTOPÍA', 40, 110);
  field(reverse, 'DOCUMENTO / DOCUMENT NO.', person.documentNumber, 40, 200);
  mrzBand(reverse, mrz, 340, 46);

  return {
    person,
    expected: expectedOf(person),
    mrz,
    front: finish(front, options),
    reverse: finish(reverse, options),
  };
}

/** A TD3 passport data page (visual zone and the two-line MRZ on one image). */
export function renderPassport(options: RenderOptions = {}): RenderedPassport {
  const person = personOf(options);
  const mrz = td3Lines(person, options.corruptCheckDigit);
  const W = 1250;
  const H = 880;
  const shown = options.visualName ?? person;
  const page = background(W, H, [240, 230, 236], [226, 236, 248]);
  drawText(page, `PASAPORTE · PASSPORT · ${person.country}`, 40, 60, {
    font: 'sans-bold',
    size: 34,
    color: [120, 30, 60],
  });
  portraitBox(page, 40, 100, 280, 360);
  field(page, 'APELLIDOS / SURNAME', shown.lastName.toUpperCase(), 360, 120);
  field(page, 'NOMBRES / GIVEN NAMES', shown.firstName.toUpperCase(), 360, 210);
  field(page, 'PASAPORTE NO. / PASSPORT NO.', person.documentNumber, 360, 300);
  field(page, 'NACIMIENTO / DATE OF BIRTH', isoToDisplay(person.dateOfBirth), 360, 390);
  field(page, 'SEXO / SEX', person.sex, 820, 390);
  field(page, 'VENCE / DATE OF EXPIRY', isoToDisplay(person.expirationDate), 820, 300);
  mrzBand(page, mrz, 620, 44);
  return { person, expected: expectedOf(person), mrz, image: finish(page, options) };
}

/** The expected (account) data of a person with another name than the one on the document. */
export function mismatchedNameExpectation(person: TestPerson = TEST_PERSON): ExpectedPersonData {
  return { ...expectedOf(person), firstName: 'Carlos Andrés', lastName: 'Rodríguez Silva' };
}
