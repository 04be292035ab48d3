// Runs the integration suites (optionally only those under the given paths) with jest.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const jest = path.join(root, 'node_modules', 'jest', 'bin', 'jest.js');
const args = process.argv.slice(2);
// Suites at a time: jest.integration.config.js (TEST_INTEGRATION_WORKERS, one by default).
const r = spawnSync(process.execPath, [jest, '-c', path.join(root, 'jest.integration.config.js'), ...args], {
  stdio: 'inherit',
  cwd: root,
});
process.exit(r.status ?? 1);
