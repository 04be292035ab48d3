// Runs the integration suites (optionally only those under the given paths) with jest.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const jest = path.join(root, 'node_modules', 'jest', 'bin', 'jest.js');
const args = process.argv.slice(2);
// A whole run takes two suites at a time (jest.integration.config.js); a run of given paths, one.
const workers = process.env.TEST_INTEGRATION_WORKERS || (args.some((a) => !a.startsWith('-')) ? '1' : '2');
const r = spawnSync(process.execPath, [jest, '-c', path.join(root, 'jest.integration.config.js'), ...args], {
  stdio: 'inherit',
  cwd: root,
  env: { ...process.env, TEST_INTEGRATION_WORKERS: workers },
});
process.exit(r.status ?? 1);
