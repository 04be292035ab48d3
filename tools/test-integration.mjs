// Runs the integration suites (optionally only those under the given paths) with jest.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const jest = path.join(root, 'node_modules', 'jest', 'bin', 'jest.js');
const args = process.argv.slice(2);
const env = { ...process.env };
// A run of given paths takes one suite at a time (a whole run, as many as jest.integration.config.js says).
if (!env.TEST_INTEGRATION_WORKERS && args.some((a) => !a.startsWith('-'))) env.TEST_INTEGRATION_WORKERS = '1';
const r = spawnSync(process.execPath, [jest, '-c', path.join(root, 'jest.integration.config.js'), ...args], {
  stdio: 'inherit',
  cwd: root,
  env,
});
process.exit(r.status ?? 1);
