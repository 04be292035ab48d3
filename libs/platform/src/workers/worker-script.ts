// Where a worker thread's script is. Built (dist/, plain `node`): the compiled .js in the folder given. From
// TypeScript sources (jest, ts tooling): that folder's sources are compiled once per process with SWC into
// node_modules/.cache/<cacheName>/, so the worker runs the same code as the tests without a build. A worker
// folder imports only node modules, packages and files of its own folder (the cache holds that folder alone).

import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, renameSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const compiled = new Map<string, Promise<string>>();

/**
 * The script of a worker given by its folder (`__dirname` of a module beside it, or a parent) and its path
 * relative to that folder without extension (e.g. 'face/face.worker').
 */
export async function workerScript(folder: string, relative: string, cacheName: string): Promise<string> {
  const built = path.join(folder, `${relative}.js`);
  if (existsSync(built)) return built;
  let out = compiled.get(folder);
  if (!out) compiled.set(folder, (out = compileFolder(folder, cacheName)));
  return path.join(await out, `${relative}.js`);
}

async function compileFolder(folder: string, cacheName: string): Promise<string> {
  const swc = await import('@swc/core');
  const root = findRoot(folder);
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
      const full = path.join(dir, e.name);
      if (e.isDirectory()) return walk(full);
      return e.name.endsWith('.ts') && !e.name.endsWith('.spec.ts') && !e.name.endsWith('.d.ts') ? [full] : [];
    });
  const files = walk(folder);
  // One output folder per version of the sources (paths, sizes, mtimes): processes share it, edits get a new one.
  const version = createHash('sha1');
  for (const f of files) version.update(`${f}:${statSync(f).size}:${statSync(f).mtimeMs}\n`);
  const out = path.join(root, 'node_modules', '.cache', cacheName, version.digest('hex').slice(0, 12));
  if (existsSync(path.join(out, '.complete'))) return out;
  for (const file of files) {
    const { code } = await swc.transformFile(file, {
      jsc: {
        parser: { syntax: 'typescript', decorators: true },
        transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
        target: 'es2022',
        keepClassNames: true,
      },
      module: { type: 'commonjs' },
    });
    const target = path.join(out, path.relative(folder, file).replace(/\.ts$/, '.js'));
    mkdirSync(path.dirname(target), { recursive: true });
    const temp = `${target}.${process.pid}.tmp`;
    writeFileSync(temp, code);
    renameSync(temp, target);
  }
  writeFileSync(path.join(out, '.complete'), '');
  return out;
}

function findRoot(dir: string): string {
  let current = dir;
  while (!existsSync(path.join(current, 'node_modules')) && path.dirname(current) !== current)
    current = path.dirname(current);
  return current;
}
