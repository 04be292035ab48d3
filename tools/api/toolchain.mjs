// The API proof's tools, installed on first use and kept under .stack/ (never committed):
//   .stack/venv                         Python venv with tools/api/requirements.txt (pinned): schemathesis,
//                                       openapi-spec-validator and the generated Python client's dependencies
//   .stack/cache/openapi-generator-*/   the openapi-generator CLI jar, from Maven Central through `mvn`
//   .stack/cache/m2                     Maven's repository for the Java program's dependencies
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';

import { repoRoot, StackError, tail } from '../stack/util.mjs';

export const OPENAPI_GENERATOR_VERSION = '7.25.0';
export const venvDir = path.join(repoRoot, '.stack', 'venv');
export const cacheDir = path.join(repoRoot, '.stack', 'cache');
export const mavenRepo = path.join(cacheDir, 'm2');
export const venvBin = (name) => path.join(venvDir, 'bin', name);

function run(cmd, args, options = {}) {
  const r = spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, ...options });
  if (r.error) throw new StackError(`${cmd} could not start: ${r.error.message}`);
  if (r.status !== 0)
    throw new StackError(
      `${cmd} ${args.join(' ')} failed (exit ${r.status}):\n${tail(`${r.stdout}\n${r.stderr}`, 30)}`,
    );
  return r.stdout;
}

/** The venv with the pinned Python tools; rebuilt when tools/api/requirements.txt changes. */
export function ensureVenv(log = () => {}) {
  const requirements = path.join(repoRoot, 'tools', 'api', 'requirements.txt');
  const digest = createHash('sha256').update(readFileSync(requirements)).digest('hex');
  const stamp = path.join(venvDir, '.requirements.sha256');
  if (existsSync(stamp) && readFileSync(stamp, 'utf8').trim() === digest) return venvDir;
  log('creating .stack/venv (schemathesis, openapi-spec-validator, the Python client dependencies)');
  const python = process.env.PYTHON ?? 'python3';
  run(python, ['-m', 'venv', '--clear', venvDir]);
  run(venvBin('pip'), ['install', '-q', '--disable-pip-version-check', '-r', requirements], {
    env: { ...process.env, PIP_CACHE_DIR: path.join(cacheDir, 'pip') },
  });
  writeFileSync(stamp, `${digest}\n`);
  return venvDir;
}

/** The openapi-generator CLI jar (org.openapitools:openapi-generator-cli), resolved once with Maven. */
export async function ensureOpenApiGenerator(log = () => {}) {
  const dir = path.join(cacheDir, `openapi-generator-${OPENAPI_GENERATOR_VERSION}`);
  const jar = path.join(dir, `openapi-generator-cli-${OPENAPI_GENERATOR_VERSION}.jar`);
  if (existsSync(jar)) return jar;
  await mkdir(dir, { recursive: true });
  log(`resolving openapi-generator-cli ${OPENAPI_GENERATOR_VERSION} from Maven Central (first use only)`);
  run(
    'mvn',
    [
      '-q',
      '-B',
      `-Dmaven.repo.local=${mavenRepo}`,
      'dependency:copy',
      `-Dartifact=org.openapitools:openapi-generator-cli:${OPENAPI_GENERATOR_VERSION}:jar`,
      `-DoutputDirectory=${dir}`,
    ],
    { cwd: dir },
  );
  return jar;
}

/** Runs openapi-spec-validator over the files; resolves with { file: null | error text }. */
export function validateDocuments(files) {
  const results = {};
  for (const file of files) {
    const r = spawnSync(venvBin('openapi-spec-validator'), [file], { encoding: 'utf8' });
    results[file] = r.status === 0 ? null : tail(`${r.stdout}\n${r.stderr}`, 10);
  }
  return results;
}

export { run };
