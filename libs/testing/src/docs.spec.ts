import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

import { repoRoot } from './harness';

/** README.md and every page under docs/. */
function pages(): string[] {
  const out = ['README.md'];
  const walk = (dir: string) => {
    for (const entry of readdirSync(path.join(repoRoot, dir), { withFileTypes: true })) {
      const rel = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(rel);
      else if (entry.name.endsWith('.md')) out.push(rel);
    }
  };
  walk('docs');
  return out;
}

/** GitHub's anchor of a heading: lowercased, punctuation dropped, spaces to hyphens. */
const anchorOf = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/`/g, '')
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');

function anchors(file: string): Set<string> {
  const text = readFileSync(path.join(repoRoot, file), 'utf8').replace(/```[\s\S]*?```/g, '');
  return new Set([...text.matchAll(/^#{1,6} (.+)$/gm)].map((m) => anchorOf(m[1])));
}

/** Markdown links [text](target) outside code blocks and code spans, with their line. */
function links(file: string): { target: string; line: number }[] {
  const lines = readFileSync(path.join(repoRoot, file), 'utf8').split('\n');
  const out: { target: string; line: number }[] = [];
  let fenced = false;
  lines.forEach((text, i) => {
    if (text.trimStart().startsWith('```')) fenced = !fenced;
    if (fenced) return;
    for (const m of text.replace(/`[^`]*`/g, '').matchAll(/\[[^\]]*\]\(([^)\s]+)\)/g))
      out.push({ target: m[1], line: i + 1 });
  });
  return out;
}

describe('README.md and docs/', () => {
  it('README.md is a front page under 20,000 bytes', () => {
    expect(statSync(path.join(repoRoot, 'README.md')).size).toBeLessThan(20_000);
  });

  it.each(pages())('every relative link of %s resolves (file and heading)', (file) => {
    const broken: string[] = [];
    for (const { target, line } of links(file)) {
      if (/^[a-z]+:/i.test(target)) continue; // http:, https:, mailto:
      const [rel, anchor] = target.split('#');
      const resolved = rel ? path.normalize(path.join(path.dirname(file), rel)) : file;
      if (resolved.startsWith('..') || !existsSync(path.join(repoRoot, resolved))) {
        broken.push(`${file}:${line}: ${target} (no ${resolved} in the repository)`);
        continue;
      }
      if (anchor && resolved.endsWith('.md') && !anchors(resolved).has(anchor))
        broken.push(`${file}:${line}: ${target} (no heading #${anchor} in ${resolved})`);
    }
    expect(broken).toEqual([]);
  });

  it('nothing points outside the repository (the docs describe the contract themselves)', () => {
    const outside = pages().filter((file) => readFileSync(path.join(repoRoot, file), 'utf8').includes('../shared/'));
    expect(outside).toEqual([]);
  });

  it('the generated parts (configuration, events, permissions) match the code', () => {
    const run = spawnSync(process.execPath, [path.join(repoRoot, 'tools/docs/generate.mjs'), '--check'], {
      encoding: 'utf8',
    });
    expect(`${run.stdout}${run.stderr}`).toContain('docs: generated parts match the code');
    expect(run.status).toBe(0);
  });
});
