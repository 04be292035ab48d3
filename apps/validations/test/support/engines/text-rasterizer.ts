// A small vector rasterizer for test images: glyph outlines from a TrueType font (opentype.js, DejaVu from
// the dejavu-fonts-ttf npm package) filled with anti-aliasing into a Raster. No native canvas needed.

import { readFileSync } from 'node:fs';
import path from 'node:path';

import * as opentype from 'opentype.js';

import type { Raster } from '../../../src/engines/image/raster';

export type Rgb = [number, number, number];
export type FontName = 'sans' | 'sans-bold' | 'mono';

const FONT_FILES: Record<FontName, string> = {
  sans: 'DejaVuSans.ttf',
  'sans-bold': 'DejaVuSans-Bold.ttf',
  mono: 'DejaVuSansMono.ttf',
};

const fonts = new Map<FontName, opentype.Font>();

export function loadFont(name: FontName): opentype.Font {
  let font = fonts.get(name);
  if (!font) {
    const dir = path.join(path.dirname(require.resolve('dejavu-fonts-ttf/package.json')), 'ttf');
    const bytes = readFileSync(path.join(dir, FONT_FILES[name]));
    font = opentype.parse(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
    fonts.set(name, font);
  }
  return font;
}

type Point = [number, number];

/** Flattens an opentype path into closed polygons (curves as short line segments). */
function polygons(commands: opentype.PathCommand[]): Point[][] {
  const out: Point[][] = [];
  let current: Point[] = [];
  let last: Point = [0, 0];
  const steps = 8;
  for (const c of commands) {
    if (c.type === 'M') {
      if (current.length > 1) out.push(current);
      current = [[c.x, c.y]];
      last = [c.x, c.y];
    } else if (c.type === 'L') {
      current.push([c.x, c.y]);
      last = [c.x, c.y];
    } else if (c.type === 'Q') {
      for (let i = 1; i <= steps; i++) {
        const t = i / steps;
        const u = 1 - t;
        current.push([
          u * u * last[0] + 2 * u * t * c.x1 + t * t * c.x,
          u * u * last[1] + 2 * u * t * c.y1 + t * t * c.y,
        ]);
      }
      last = [c.x, c.y];
    } else if (c.type === 'C') {
      for (let i = 1; i <= steps; i++) {
        const t = i / steps;
        const u = 1 - t;
        current.push([
          u * u * u * last[0] + 3 * u * u * t * c.x1 + 3 * u * t * t * c.x2 + t * t * t * c.x,
          u * u * u * last[1] + 3 * u * u * t * c.y1 + 3 * u * t * t * c.y2 + t * t * t * c.y,
        ]);
      }
      last = [c.x, c.y];
    } else if (c.type === 'Z') {
      if (current.length > 1) out.push(current);
      current = [];
    }
  }
  if (current.length > 1) out.push(current);
  return out;
}

/** Fills polygons (non-zero winding) with 4 sub-scanlines per pixel row and exact horizontal coverage. */
export function fillPolygons(raster: Raster, polys: Point[][], color: Rgb): void {
  const SUB = 4;
  let minY = Infinity;
  let maxY = -Infinity;
  let minX = Infinity;
  let maxX = -Infinity;
  for (const poly of polys)
    for (const [x, y] of poly) {
      minY = Math.min(minY, y);
      maxY = Math.max(maxY, y);
      minX = Math.min(minX, x);
      maxX = Math.max(maxX, x);
    }
  if (!Number.isFinite(minY)) return;
  const y0 = Math.max(0, Math.floor(minY));
  const y1 = Math.min(raster.height - 1, Math.ceil(maxY));
  const x0 = Math.max(0, Math.floor(minX));
  const x1 = Math.min(raster.width - 1, Math.ceil(maxX));
  if (y1 < y0 || x1 < x0) return;
  const bw = x1 - x0 + 1;
  const coverage = new Float32Array(bw * (y1 - y0 + 1));
  const crossings: Array<{ x: number; dir: number }> = [];
  for (let py = y0; py <= y1; py++) {
    for (let s = 0; s < SUB; s++) {
      const yc = py + (s + 0.5) / SUB;
      crossings.length = 0;
      for (const poly of polys) {
        for (let i = 0; i < poly.length; i++) {
          const [ax, ay] = poly[i];
          const [bx, by] = poly[(i + 1) % poly.length];
          if (ay === by) continue;
          const lo = Math.min(ay, by);
          const hi = Math.max(ay, by);
          if (yc < lo || yc >= hi) continue;
          crossings.push({ x: ax + ((yc - ay) / (by - ay)) * (bx - ax), dir: by > ay ? 1 : -1 });
        }
      }
      crossings.sort((a, b) => a.x - b.x);
      let winding = 0;
      for (let i = 0; i < crossings.length - 1; i++) {
        winding += crossings[i].dir;
        if (winding === 0) continue;
        const xa = Math.max(x0, crossings[i].x);
        const xb = Math.min(x1 + 1, crossings[i + 1].x);
        for (let px = Math.floor(xa); px < xb; px++) {
          const overlap = Math.min(px + 1, xb) - Math.max(px, xa);
          if (overlap > 0) coverage[(py - y0) * bw + (px - x0)] += overlap / SUB;
        }
      }
    }
  }
  for (let py = y0; py <= y1; py++)
    for (let px = x0; px <= x1; px++) {
      const a = Math.min(1, coverage[(py - y0) * bw + (px - x0)]);
      if (a <= 0) continue;
      const i = (py * raster.width + px) * 4;
      for (let c = 0; c < 3; c++) raster.data[i + c] = Math.round(raster.data[i + c] * (1 - a) + color[c] * a);
    }
}

export interface TextStyle {
  font?: FontName;
  size: number;
  color?: Rgb;
  /** Extra space between letters, in pixels (monospaced MRZ lines are drawn with the font's advance). */
  letterSpacing?: number;
}

/** Draws one line of text with its baseline at y; returns its advance width. */
export function drawText(raster: Raster, text: string, x: number, y: number, style: TextStyle): number {
  const font = loadFont(style.font ?? 'sans');
  const color = style.color ?? [20, 20, 20];
  let cursor = x;
  const scale = style.size / font.unitsPerEm;
  for (const glyph of font.stringToGlyphs(text)) {
    const polys = polygons(glyph.getPath(cursor, y, style.size).commands);
    fillPolygons(raster, polys, color);
    cursor += (glyph.advanceWidth ?? font.unitsPerEm / 2) * scale + (style.letterSpacing ?? 0);
  }
  return cursor - x;
}

export function fillRect(raster: Raster, x: number, y: number, w: number, h: number, color: Rgb): void {
  for (let py = Math.max(0, y); py < Math.min(raster.height, y + h); py++)
    for (let px = Math.max(0, x); px < Math.min(raster.width, x + w); px++) {
      const i = (py * raster.width + px) * 4;
      raster.data[i] = color[0];
      raster.data[i + 1] = color[1];
      raster.data[i + 2] = color[2];
    }
}
