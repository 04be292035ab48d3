// `npm run docs`: rewrites the generated parts of docs/configuration.md, docs/events.md,
// docs/security.md and README.md's topic map (between `<!-- generated:<name>:start -->` and
// `<!-- generated:<name>:end -->`) from the code.
// It also writes whole generated files (deploy/base/kafka-topics-job.yaml).
// `--check`: writes nothing and exits 1 naming each page that differs (the drift test runs this).
// Both fail on a repository path the docs, the Dockerfile or the compose file mention that is gone.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { KAFKA_TOPICS_JOB, kafkaTopicsJob } from './kafka-topics-job.mjs';
import { keyTypesReference, permissionsReference } from './route-table.mjs';
import { configurationReference, eventsReference, root, topicMapReference } from './reference.mjs';
import { deadRepoPaths } from './repo-paths.mjs';

const parts = [
  { page: 'docs/configuration.md', name: 'configuration', render: configurationReference },
  { page: 'docs/events.md', name: 'events', render: eventsReference },
  { page: 'docs/security.md', name: 'key-types', render: keyTypesReference },
  { page: 'docs/security.md', name: 'permissions', render: permissionsReference },
  { page: 'README.md', name: 'topic-map', render: topicMapReference },
];

const check = process.argv.includes('--check');
const stale = [];
for (const part of parts) {
  const file = path.join(root, part.page);
  const text = readFileSync(file, 'utf8');
  const start = `<!-- generated:${part.name}:start -->`;
  const end = `<!-- generated:${part.name}:end -->`;
  const from = text.indexOf(start);
  const to = text.indexOf(end);
  if (from < 0 || to < from) {
    stale.push(`${part.page}: the markers ${start} … ${end} are missing`);
    continue;
  }
  let rendered;
  try {
    rendered = part.render();
  } catch (err) {
    stale.push(`${part.page}: ${err.message}`);
    continue;
  }
  const next = `${text.slice(0, from + start.length)}\n\n${rendered}\n\n${text.slice(to)}`;
  if (next === text) continue;
  if (check) stale.push(`${part.page} does not match the code`);
  else writeFileSync(file, next);
}
const files = [{ file: KAFKA_TOPICS_JOB, render: kafkaTopicsJob }];
for (const { file, render } of files) {
  const full = path.join(root, file);
  let rendered;
  try {
    rendered = render();
  } catch (err) {
    stale.push(`${file}: ${err.message}`);
    continue;
  }
  if (existsSync(full) && readFileSync(full, 'utf8') === rendered) continue;
  if (check) stale.push(`${file} does not match the code`);
  else writeFileSync(full, rendered);
}
for (const dead of deadRepoPaths()) stale.push(`${dead} does not exist`);
if (stale.length) {
  console.error(`${stale.join('\n')}\nRun \`npm run docs\` and commit the pages.`);
  process.exit(1);
}
console.log(check ? 'docs: generated parts match the code' : 'docs: generated parts written');
