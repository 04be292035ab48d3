// The repository paths the docs, the Dockerfile and the compose file mention, checked to exist
// (`node tools/docs/generate.mjs --check` fails naming each one that is gone).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { root } from './reference.mjs';

const PAGES_DIR = 'docs';
const FILES = ['README.md', 'Dockerfile', 'docker-compose.yml', 'deploy/README.md'];
/** A path of the repository: a top-level folder of it, then a name; ends on a name character. */
const PATH = /(?<![\w./-])(?:apps|libs|tools|deploy|docs|bench|openapi|\.ci)\/[\w.\-/]*[\w\-/]/g;

function markdownPages(dir) {
  return readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? markdownPages(path.join(dir, e.name)) : e.name.endsWith('.md') ? [path.join(dir, e.name)] : [],
  );
}

/** Folders .gitignore names (`bench/results/`): what a run writes there is not in the repository. */
function ignoredFolders() {
  return readFileSync(path.join(root, '.gitignore'), 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l.endsWith('/') && !l.startsWith('#') && !l.includes('*'));
}

/**
 * `file: path` for each mentioned path that does not exist. A name followed by a placeholder
 * (`apps/<svc>/…`, `apps/*`, `${…}`) is a pattern, not a path; inside a fenced code block and on
 * a kubectl line only file names count (`kubectl … deploy/identity` names a Kubernetes object).
 */
export function deadRepoPaths() {
  const ignored = ignoredFolders();
  const dead = [];
  for (const file of [...FILES, ...markdownPages(PAGES_DIR)]) {
    if (!existsSync(path.join(root, file))) continue;
    let fenced = false;
    for (const line of readFileSync(path.join(root, file), 'utf8').split('\n')) {
      if (line.trimStart().startsWith('```')) fenced = !fenced;
      for (const m of line.matchAll(PATH)) {
        const next = line[m.index + m[0].length];
        if (next === '<' || next === '*' || next === '{' || next === '$') continue;
        const p = m[0].replace(/\/$/, '');
        if ((fenced || line.includes('kubectl')) && !/\.\w+$/.test(p)) continue;
        if (ignored.some((folder) => `${p}/`.startsWith(folder))) continue;
        if (!existsSync(path.join(root, p))) dead.push(`${file}: ${p}`);
      }
    }
  }
  return [...new Set(dead)];
}
