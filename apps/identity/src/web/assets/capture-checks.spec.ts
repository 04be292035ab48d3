import path from 'node:path';
import { runInNewContext, Script } from 'node:vm';
import { gzipSync } from 'node:zlib';

import { boxBlur as blur, darken, decodeFixture, Raster } from '../../../test/integration/support/fake-camera';
import { CAPTURE_CHECKS } from './capture-checks';
import { CAPTURE_SCRIPT } from './capture-script';
import { PAGE_SCRIPT } from './page-script';
import { PAGE_STYLE } from './page-style';

interface Result {
  advice: string;
  thumbnail: Float32Array;
}
interface Checks {
  analyse(rgba: Uint8Array, w: number, h: number, kind: string, previous?: Float32Array | null): Result;
  fileAdvice(r: Result): string;
  ANALYSIS_WIDTH: number;
}
// The browser's script, evaluated as it is served.
const checks = runInNewContext(`${CAPTURE_CHECKS}; KycChecks`) as Checks;

const fixture = (name: string): Raster => decodeFixture(path.resolve(__dirname, '../../../test/fixtures', name));

/** What the page's canvas does: a region reduced (bilinear) to the analysis width, never enlarged. */
function region(img: Raster, box = { x: 0, y: 0, w: 1, h: 1 }): Raster {
  const sw = box.w * img.width;
  const sh = box.h * img.height;
  const w = Math.round(Math.min(checks.ANALYSIS_WIDTH, sw));
  const h = Math.round((sh * w) / sw);
  const out = new Uint8Array(w * h * 4);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const sx = box.x * img.width + (x * sw) / w;
      const sy = box.y * img.height + (y * sh) / h;
      const x0 = Math.floor(sx);
      const y0 = Math.floor(sy);
      const x1 = Math.min(x0 + 1, img.width - 1);
      const y1 = Math.min(y0 + 1, img.height - 1);
      const fx = sx - x0;
      const fy = sy - y0;
      for (let c = 0; c < 4; c++) {
        const at = (xx: number, yy: number) => img.data[(yy * img.width + xx) * 4 + c];
        out[(y * w + x) * 4 + c] =
          at(x0, y0) * (1 - fx) * (1 - fy) +
          at(x1, y0) * fx * (1 - fy) +
          at(x0, y1) * (1 - fx) * fy +
          at(x1, y1) * fx * fy;
      }
    }
  return { width: w, height: h, data: out };
}

const FACE_BOX = { x: 0.2, y: 0.15, w: 0.6, h: 0.7 };
const advice = (img: Raster, kind: 'document' | 'face', previous?: Float32Array) => {
  const r = region(img, kind === 'face' ? FACE_BOX : undefined);
  return checks.analyse(r.data, r.width, r.height, kind, previous);
};

describe('the capture checks (capture.js, run on the device)', () => {
  // Reduced first, as the page does (blur radii scaled alike: 4 px here is 6 px on the 1000 px card).
  const card = region(fixture('id-card-front.jpg'));
  const reverse = region(fixture('id-card-reverse.jpg'));
  const selfies = [fixture('selfie-match.jpg'), fixture('selfie-other.jpg')];

  it('pass the sharp document sides and selfies of the test images', () => {
    for (const img of [card, reverse]) expect(advice(img, 'document').advice).toBe('ok');
    for (const img of selfies) expect(advice(img, 'face').advice).toBe('ok');
  });

  it('refuse a blurred image as blurry, a dark one as dark', () => {
    for (const img of [card, reverse]) {
      expect(advice(blur(img, 4), 'document').advice).toBe('blurry');
      expect(advice(darken(img, 0.2), 'document').advice).toBe('dark');
    }
    for (const img of selfies) {
      expect(advice(blur(img, 3), 'face').advice).toBe('blurry');
      expect(advice(darken(img, 0.2), 'face').advice).toBe('dark');
    }
  });

  it('ask to move closer when the document fills a small part of the frame', () => {
    const small = region(card, { x: 0, y: 0, w: 1, h: 1 });
    const w = small.width * 2;
    const h = small.height * 2;
    const wide = { width: w, height: h, data: new Uint8Array(w * h * 4).fill(200) };
    for (let y = 0; y < small.height; y++)
      wide.data.set(
        small.data.subarray(y * small.width * 4, (y + 1) * small.width * 4),
        ((y + Math.floor(h / 4)) * w + Math.floor(w / 4)) * 4,
      );
    expect(advice(wide, 'document').advice).toBe('closer');
  });

  it('ask to hold still when the frame moved since the previous one', () => {
    const before = advice(card, 'document');
    const shifted = { ...card, data: new Uint8Array(card.data.length) };
    shifted.data.set(card.data.subarray(60 * 4 * card.width)); // the card 60 rows higher
    expect(advice(shifted, 'document', before.thumbnail).advice).toBe('still');
    expect(advice(card, 'document', before.thumbnail).advice).toBe('ok');
  });

  it('a chosen file is judged on light and sharpness only', () => {
    expect(checks.fileAdvice({ advice: 'still' } as Result)).toBe('ok');
    expect(checks.fileAdvice({ advice: 'closer' } as Result)).toBe('ok');
    expect(checks.fileAdvice({ advice: 'blurry' } as Result)).toBe('blurry');
  });

  it('the served scripts are valid JavaScript, in ES5 syntax (no arrows, let, const, templates, spreads)', () => {
    for (const script of [CAPTURE_SCRIPT, PAGE_SCRIPT]) {
      expect(() => new Script(script)).not.toThrow();
      expect(script).not.toMatch(/=>|\blet\b|\bconst\b|`|\.\.\./);
    }
  });

  it('the page stays small: its scripts and style under 150 KB compressed (they are about 8 KB)', () => {
    const size = [CAPTURE_SCRIPT, PAGE_SCRIPT, PAGE_STYLE].reduce((n, text) => n + gzipSync(text).length, 0);
    expect(size).toBeLessThan(150 * 1024);
  });
});
