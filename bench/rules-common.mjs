// Helpers shared by the rules benchmark's parts (bench/rules.mjs).
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { repoRoot, StackError } from '../tools/stack/util.mjs';

const require = createRequire(import.meta.url);
export const benchDir = path.dirname(fileURLToPath(import.meta.url));
export const GOALS = { evalP99Ms: 0.5, compiledSpeedup: 10, eventToActionP99Ms: 500 };

export const dist = (file) => {
  try {
    return require(path.join(repoRoot, 'dist', file));
  } catch (err) {
    throw new StackError(`dist/${file} is missing: run \`npm run build\` first (${err.message})`);
  }
};

export const round = (n, d = 3) => (Number.isFinite(n) ? Number(n.toFixed(d)) : null);
export function percentile(sorted, p) {
  if (!sorted.length) return null;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}
export const stats = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return {
    n: sorted.length,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    max: sorted.at(-1) ?? null,
    avg: sorted.length ? sorted.reduce((a, b) => a + b, 0) / sorted.length : null,
  };
};
