// Compiles apps/*/src and libs/*/src to dist/ with SWC (decorator metadata on, path aliases
// rewritten to relative paths), so every service starts as plain `node dist/apps/<svc>/src/main.js`.
// Also apps/*/test/support (test helpers the benchmark loads from dist/, e.g. validations' document
// renderers), when present: the image's build context has no test folders (.dockerignore);
// then builds the console's single-page application (apps/console/web) with Vite into
// dist/apps/console/web, reusing the last build of the same sources (node_modules/.cache/console-web).
import { createHash } from 'node:crypto';
import { cp, readdir, mkdir, writeFile, readFile, stat, rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { transformFile } from '@swc/core';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outDir = path.join(root, 'dist');
const tsconfig = JSON.parse(await readFile(path.join(root, 'tsconfig.base.json'), 'utf8'));

async function* walk(dir) {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(full);
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') && !entry.name.endsWith('.d.ts'))
      yield full;
  }
}

async function sources() {
  const files = [];
  for (const group of ['apps', 'libs']) {
    for (const project of await readdir(path.join(root, group))) {
      for (const dir of ['src', 'test/support']) {
        const src = path.join(root, group, project, dir);
        if (!(await stat(src).catch(() => null))) continue;
        for await (const file of walk(src)) files.push(file);
      }
    }
  }
  return files;
}

const swcOptions = {
  jsc: {
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
    target: 'es2022',
    keepClassNames: true,
    baseUrl: root,
    paths: tsconfig.compilerOptions.paths,
  },
  module: { type: 'commonjs' },
  sourceMaps: true,
};

const started = Date.now();
await rm(outDir, { recursive: true, force: true });
const files = await sources();
let next = 0;
async function worker() {
  while (next < files.length) {
    const file = files[next++];
    const rel = path.relative(root, file).replace(/\.ts$/, '.js');
    const target = path.join(outDir, rel);
    const { code, map } = await transformFile(file, {
      ...swcOptions,
      filename: file,
      sourceFileName: path.relative(path.dirname(target), file),
    });
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, `${code}\n//# sourceMappingURL=${path.basename(target)}.map\n`);
    if (map) await writeFile(`${target}.map`, map);
  }
}
await Promise.all(Array.from({ length: 8 }, worker));
console.log(`build: ${files.length} files compiled to dist/ in ${Date.now() - started} ms`);

/** Every file the page's build reads from the repository (its sources, the typed client), hashed with the lockfile. */
async function webSourcesHash() {
  const hash = createHash('sha256');
  const inputs = [];
  async function collect(dir) {
    for (const entry of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) await collect(full);
      else inputs.push(full);
    }
  }
  await collect(path.join(root, 'apps/console/web'));
  await collect(path.join(root, 'libs/client/src'));
  inputs.push(path.join(root, 'package-lock.json'));
  for (const file of inputs.sort())
    hash
      .update(path.relative(root, file))
      .update('\0')
      .update(await readFile(file));
  return hash.digest('hex').slice(0, 24);
}

const webStarted = Date.now();
const webOut = path.join(outDir, 'apps/console/web');
const webCache = path.join(root, 'node_modules/.cache/console-web', await webSourcesHash());
if (await stat(path.join(webCache, 'index.html')).catch(() => null)) {
  await cp(webCache, webOut, { recursive: true });
  console.log(`build: console page reused from the cache in ${Date.now() - webStarted} ms`);
} else {
  const { build } = await import('vite');
  const { default: config } = await import('../apps/console/web/vite.config.mjs');
  await build({ ...config, configFile: false });
  await rm(webCache, { recursive: true, force: true });
  await cp(webOut, webCache, { recursive: true }).catch(() => undefined);
  console.log(`build: console page built with Vite in ${Date.now() - webStarted} ms`);
}
