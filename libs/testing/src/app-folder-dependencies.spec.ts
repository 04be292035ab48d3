import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import ts from 'typescript';

/**
 * Dependencies inside an app run one way: no folder of apps/<app>/src (a resource or area such as
 * checks/, engine/, collectors/) imports from another folder of the same app that imports from it
 * (type-only imports and re-exports count too; specs are left out). Two folders that need each
 * other are one area, or share something that belongs in a third, lower folder.
 */
const root = path.resolve(__dirname, '../../..');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sources(full);
    return full.endsWith('.ts') && !full.endsWith('.spec.ts') ? [full] : [];
  });
}

/** The folders of one app that import each other, as `a <-> b` (a before b), with an example import each way. */
function twoWayFolders(src: string): Map<string, string[]> {
  const folderOf = (file: string) => {
    const parts = path.relative(src, file).split(path.sep);
    return parts.length > 1 ? parts[0] : '(root)';
  };
  const edges = new Map<string, string>();
  for (const file of sources(src)) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    for (const { fileName } of importedFiles) {
      if (!fileName.startsWith('.')) continue;
      const target = path.resolve(path.dirname(file), fileName);
      if (!target.startsWith(src + path.sep)) continue;
      const [from, to] = [folderOf(file), folderOf(target)];
      if (from !== to && !edges.has(`${from} -> ${to}`))
        edges.set(`${from} -> ${to}`, `${path.relative(src, file)} imports ${fileName}`);
    }
  }
  const pairs = new Map<string, string[]>();
  for (const [edge, example] of edges) {
    const [from, to] = edge.split(' -> ');
    const back = edges.get(`${to} -> ${from}`);
    if (from < to && back) pairs.set(`${from} <-> ${to}`, [example, back]);
  }
  return pairs;
}

describe('folders of an app depend on each other one way', () => {
  const apps = readdirSync(path.join(root, 'apps'))
    .filter((app) => existsSync(path.join(root, 'apps', app, 'src')))
    .sort();

  it('covers the seven services', () => {
    expect(apps).toEqual(
      expect.arrayContaining(['account', 'checks', 'customers', 'engagement', 'identity', 'pass', 'validations']),
    );
  });

  it.each(apps)('no two folders of %s import each other', (app) => {
    const pairs = twoWayFolders(path.join(root, 'apps', app, 'src'));
    expect([...pairs.entries()].map(([p, e]) => `${p}: ${e.join('; ')}`)).toEqual([]);
  });

  it('sees folders that import each other, also through type-only imports and re-exports', () => {
    const src = mkdtempSync(path.join(os.tmpdir(), 'folders-'));
    try {
      const write = (file: string, text: string) => {
        mkdirSync(path.dirname(path.join(src, file)), { recursive: true });
        writeFileSync(path.join(src, file), text);
      };
      write('a/a.ts', "import type { B } from '../b/b';\nexport type A = B;\n");
      write('b/b.ts', "export type B = string;\nexport * from '../c/c';\n");
      write('c/c.ts', "import { x } from '../b/nested/x';\nexport const c = x;\n");
      write('b/nested/x.ts', 'export const x = 1;\n');
      write('a/a.spec.ts', "import '../c/c';\n");
      write('c/uses-a.spec.ts', "import '../a/a';\n");
      expect([...twoWayFolders(src).keys()]).toEqual(['b <-> c']);
    } finally {
      rmSync(src, { recursive: true, force: true });
    }
  });
});
