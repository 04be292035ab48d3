// Runs the integration suites (optionally only those under the given paths) with jest.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const jest = path.join(root, 'node_modules', 'jest', 'bin', 'jest.js');
const r = spawnSync(
  process.execPath,
  [jest, '-c', path.join(root, 'jest.integration.config.js'), ...process.argv.slice(2)],
  { stdio: 'inherit', cwd: root },
);
process.exit(r.status ?? 1);
