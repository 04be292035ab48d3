/**
 * The on-device image checks of the page's capture module (plain ES5, part of /web/assets/capture.js).
 * They read luminance only, on a copy reduced to ANALYSIS_WIDTH pixels, so one threshold fits every
 * camera and every file: brightness (mean, share of burnt pixels), sharpness (variance of the
 * Laplacian), the document filling the frame (bounding box of the textured cells of an 8×5 grid) and
 * stillness (mean difference with the previous frame, on a 32×20 thumbnail). The thresholds are
 * calibrated on the test images (apps/identity/test/fixtures): the sharp card and selfie pass, a
 * 6-pixel box blur of them is refused as blurry. Pure functions: unit-tested in Node (capture-checks.spec.ts).
 */
export const CAPTURE_CHECKS = String.raw`var KycChecks = (function () {
  'use strict';
  var LIMITS = { dark: { document: 70, face: 35 }, bright: 235, burnt: 0.5, sharp: { document: 100, face: 15 }, flat: 3, fill: 0.55, content: 6, still: 10 };
  var ANALYSIS_WIDTH = 640;

  /** Luminance (0-255) of RGBA pixels. */
  function luminance(rgba, w, h) {
    var out = new Float32Array(w * h);
    for (var i = 0, j = 0; i < out.length; i++, j += 4) out[i] = 0.299 * rgba[j] + 0.587 * rgba[j + 1] + 0.114 * rgba[j + 2];
    return out;
  }

  function brightness(l) {
    var sum = 0, burnt = 0;
    for (var i = 0; i < l.length; i++) { sum += l[i]; if (l[i] > 250) burnt++; }
    return { mean: sum / l.length, burnt: burnt / l.length };
  }

  /** Variance of the 4-neighbour Laplacian, and the mean |Laplacian| of each cell of a cols×rows grid. */
  function laplacian(l, w, h, cols, rows) {
    var sum = 0, sq = 0, n = 0, cells = new Float32Array(cols * rows), counts = new Float32Array(cols * rows);
    for (var y = 1; y < h - 1; y++) {
      var cy = Math.min(rows - 1, Math.floor(y * rows / h));
      for (var x = 1; x < w - 1; x++) {
        var i = y * w + x;
        var v = l[i - 1] + l[i + 1] + l[i - w] + l[i + w] - 4 * l[i];
        sum += v; sq += v * v; n++;
        var c = cy * cols + Math.min(cols - 1, Math.floor(x * cols / w));
        cells[c] += Math.abs(v); counts[c]++;
      }
    }
    for (var k = 0; k < cells.length; k++) cells[k] = counts[k] ? cells[k] / counts[k] : 0;
    var mean = n ? sum / n : 0;
    return { variance: n ? sq / n - mean * mean : 0, cells: cells };
  }

  /** Share of the frame covered by the bounding box of its textured cells (0 when none is). */
  function fill(cells, cols, rows) {
    var max = 0, k;
    for (k = 0; k < cells.length; k++) max = Math.max(max, cells[k]);
    if (max < LIMITS.content) return 0;
    var x0 = cols, x1 = -1, y0 = rows, y1 = -1;
    for (k = 0; k < cells.length; k++) {
      if (cells[k] < Math.max(LIMITS.content, 0.2 * max)) continue;
      var x = k % cols, y = Math.floor(k / cols);
      x0 = Math.min(x0, x); x1 = Math.max(x1, x); y0 = Math.min(y0, y); y1 = Math.max(y1, y);
    }
    return x1 < 0 ? 0 : ((x1 - x0 + 1) * (y1 - y0 + 1)) / (cols * rows);
  }

  /** A 32×20 thumbnail of the luminance, to compare consecutive frames. */
  function thumbnail(l, w, h) {
    var tw = 32, th = 20, out = new Float32Array(tw * th), counts = new Float32Array(tw * th);
    for (var y = 0; y < h; y += 2) for (var x = 0; x < w; x += 2) {
      var k = Math.floor(y * th / h) * tw + Math.floor(x * tw / w);
      out[k] += l[y * w + x]; counts[k]++;
    }
    for (var i = 0; i < out.length; i++) out[i] = counts[i] ? out[i] / counts[i] : 0;
    return out;
  }

  function motion(a, b) {
    if (!a || !b || a.length !== b.length) return 0;
    var d = 0;
    for (var i = 0; i < a.length; i++) d += Math.abs(a[i] - b[i]);
    return d / a.length;
  }

  /**
   * The checks of one image (RGBA pixels, ANALYSIS_WIDTH wide): kind 'document' or 'face'; previous is
   * the thumbnail of the previous frame (camera only). Answers the first advice that applies
   * (dark, bright, place, still, blurry, closer) or 'ok', with the measures.
   */
  function analyse(rgba, w, h, kind, previous) {
    var l = luminance(rgba, w, h);
    var b = brightness(l);
    var lap = laplacian(l, w, h, 8, 5);
    var covered = fill(lap.cells, 8, 5);
    var thumb = thumbnail(l, w, h);
    var moved = motion(previous, thumb);
    var advice = 'ok';
    if (b.mean < LIMITS.dark[kind]) advice = 'dark';
    else if (b.mean > LIMITS.bright || b.burnt > LIMITS.burnt) advice = 'bright';
    else if (kind === 'document' && lap.variance < LIMITS.flat) advice = 'place';
    else if (previous && moved > LIMITS.still) advice = 'still';
    else if (lap.variance < LIMITS.sharp[kind]) advice = 'blurry';
    else if (kind === 'document' && covered < LIMITS.fill) advice = covered === 0 ? 'place' : 'closer';
    return { advice: advice, brightness: b.mean, burnt: b.burnt, sharpness: lap.variance, fill: covered,
             motion: moved, thumbnail: thumb };
  }

  /** The checks a chosen file must pass (no framing, no stillness: light and sharpness). */
  function fileAdvice(result) {
    return result.advice === 'dark' || result.advice === 'bright' || result.advice === 'blurry' || result.advice === 'place'
      ? result.advice : 'ok';
  }

  return { analyse: analyse, fileAdvice: fileAdvice, LIMITS: LIMITS, ANALYSIS_WIDTH: ANALYSIS_WIDTH };
})();
`;
