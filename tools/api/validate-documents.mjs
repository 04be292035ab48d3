#!/usr/bin/env node
// Every committed openapi/*.json through openapi-spec-validator (pinned in tools/api/requirements.txt,
// installed into .stack/venv on first use). A document listed under `documents` in
// tools/api/allow-list.yaml is reported and accepted; any other invalid document fails (exit 1).
import { readdirSync } from 'node:fs';
import path from 'node:path';

import { repoRoot } from '../stack/util.mjs';
import { loadAllowList } from './fuzz.mjs';
import { ensureVenv, validateDocuments } from './toolchain.mjs';

ensureVenv(console.log);
const allowList = loadAllowList();
const files = readdirSync(path.join(repoRoot, 'openapi'))
  .filter((f) => f.endsWith('.json'))
  .map((f) => path.join(repoRoot, 'openapi', f));
let failed = 0;
for (const [file, error] of Object.entries(validateDocuments(files))) {
  const allowed = allowList.documents.find((d) => d.file === path.basename(file));
  if (error && !allowed) failed++;
  console.log(
    `${error ? (allowed ? 'invalid (in the allow-list)' : 'INVALID') : 'valid'} ${path.relative(repoRoot, file)}` +
      (error ? `\n${error}` : ''),
  );
}
process.exit(failed ? 1 : 0);
