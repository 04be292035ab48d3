// The generated parts of docs/configuration.md and docs/events.md, read from the code with the
// TypeScript compiler API: the config classes (libs/platform PlatformConfig and each app's
// <App>Config) and libs/contracts (TOPICS, TOPIC_SPECS, TopicPayloads). `npm run docs` writes
// them between the `<!-- generated:... -->` markers; `node tools/docs/generate.mjs --check` (run
// by libs/testing/src/docs.spec.ts) fails when a page and the code disagree.
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export const parse = (file) =>
  ts.createSourceFile(file, readFileSync(path.join(root, file), 'utf8'), ts.ScriptTarget.ES2022, true);

const jsDocText = (node) =>
  (node.jsDoc ?? [])
    .map((d) => (typeof d.comment === 'string' ? d.comment : (d.comment ?? []).map((c) => c.text).join('')))
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim();

const cell = (text) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

export function walkTs(dir, out = []) {
  for (const entry of readdirSync(path.join(root, dir), { withFileTypes: true })) {
    const rel = path.join(dir, entry.name);
    if (entry.isDirectory()) walkTs(rel, out);
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts')) out.push(rel);
  }
  return out;
}

export const apps = () =>
  readdirSync(path.join(root, 'apps'), { withFileTypes: true })
    .filter((e) => e.isDirectory() && existsSync(path.join(root, 'apps', e.name, 'src/config')))
    .map((e) => e.name)
    .sort();

/** The properties of the config class declared in `file`: name, default, required, allowed values, description. */
function configVariables(file) {
  const source = parse(file);
  const variables = [];
  const visit = (node) => {
    if (ts.isClassDeclaration(node) && node.name?.text.endsWith('Config')) {
      for (const member of node.members) {
        if (!ts.isPropertyDeclaration(member) || !ts.isIdentifier(member.name)) continue;
        const name = member.name.text;
        if (!/^[A-Z][A-Z0-9_]*$/.test(name)) continue;
        const decorators = ts.getDecorators(member) ?? [];
        const isIn = decorators
          .map((d) => d.expression)
          .find((e) => ts.isCallExpression(e) && e.expression.getText(source) === 'IsIn');
        variables.push({
          name,
          default: member.initializer ? member.initializer.getText(source).replace(/_/g, '') : undefined,
          optional: Boolean(member.questionToken),
          values: isIn ? isIn.arguments[0].getText(source).replace(/[[\]']/g, '') : undefined,
          description: jsDocText(member),
        });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return variables;
}

/** Defaults a service's loader passes to loadConfig (SERVICE_NAME, PORT, DB_SCHEMA), as text. */
function loaderDefaults(file) {
  const text = readFileSync(path.join(root, file), 'utf8');
  const out = {};
  for (const [, key, value] of text.matchAll(/(SERVICE_NAME|PORT|DB_SCHEMA):\s*([^,\n}]+)/g))
    out[key] = value
      .trim()
      .replace(/^SERVICES\.(\w+)\.port$/, (_, s) => String(SERVICE_PORTS[s]))
      .replace(/^SERVICES\.(\w+)\.schema$/, '$1');
  return out;
}

const SERVICE_PORTS = Object.fromEntries(
  [...readFileSync(path.join(root, 'libs/contracts/src/services.ts'), 'utf8').matchAll(/(\w+): \{ port: (\d+)/g)].map(
    ([, name, port]) => [name, Number(port)],
  ),
);

const defaultCell = (v) =>
  v.default !== undefined ? `\`${v.default.replace(/^'(.*)'$/, '$1')}\`` : v.optional ? 'unset' : '**required**';

/** Throws naming every variable without a JSDoc description (the page would say nothing about it). */
function requireDescriptions(file, variables) {
  const missing = variables.filter((v) => !v.description).map((v) => v.name);
  if (missing.length)
    throw new Error(`${file}: describe ${missing.join(', ')} with a /** … */ comment (it becomes the documentation)`);
}

/** docs/configuration.md's generated part; throws when a variable has no description. */
export function configurationReference() {
  const lines = [];
  const platform = configVariables('libs/platform/src/config/platform.config.ts');
  requireDescriptions('libs/platform/src/config/platform.config.ts', platform);
  lines.push('### Every service (`PlatformConfig`, libs/platform/src/config/platform.config.ts)', '');
  lines.push('| variable | default | description |', '|---|---|---|');
  for (const v of platform) {
    const perService =
      v.name === 'SERVICE_NAME'
        ? 'the service name'
        : v.name === 'PORT'
          ? 'the service port (below)'
          : v.name === 'DB_SCHEMA'
            ? 'the service name'
            : undefined;
    const values = v.values ? ` One of: ${v.values}.` : '';
    lines.push(
      `| \`${v.name}\` | ${perService ?? defaultCell(v)} | ${cell(v.description || '')}${values ? cell(values) : ''} |`,
    );
  }
  lines.push('');
  lines.push('### Per service', '');
  lines.push('| service | config class | port | schema |', '|---|---|---|---|');
  const perApp = [];
  for (const app of apps()) {
    const dir = `apps/${app}/src/config`;
    const file = readdirSync(path.join(root, dir)).find((f) => f.endsWith('.config.ts'));
    if (!file) continue;
    const rel = `${dir}/${file}`;
    const d = loaderDefaults(rel);
    lines.push(`| ${app} | \`${rel}\` | ${d.PORT ?? ''} | ${d.DB_SCHEMA ?? app} |`);
    const variables = configVariables(rel);
    requireDescriptions(rel, variables);
    perApp.push([app, rel, variables]);
  }
  lines.push('');
  for (const [app, rel, variables] of perApp) {
    lines.push(`#### ${app}`, '');
    if (!variables.length) {
      lines.push(`Only the variables every service reads (\`${rel}\` adds none).`, '');
      continue;
    }
    lines.push('| variable | default | description |', '|---|---|---|');
    for (const v of variables) {
      const values = v.values ? ` One of: ${v.values}.` : '';
      lines.push(`| \`${v.name}\` | ${defaultCell(v)} | ${cell(v.description || '')}${cell(values)} |`);
    }
    lines.push('');
  }
  return lines.join('\n').trimEnd();
}

/** TOPICS: key → { name, description }. */
function topics() {
  const source = parse('libs/contracts/src/topics.ts');
  const out = new Map();
  const visit = (node) => {
    if (ts.isVariableDeclaration(node) && node.name.getText(source) === 'TOPICS') {
      let init = node.initializer;
      if (ts.isAsExpression(init)) init = init.expression;
      for (const p of init.properties)
        out.set(p.name.getText(source), { name: p.initializer.text, description: jsDocText(p) });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

function topicSpecs(source) {
  const out = new Map();
  const visit = (node) => {
    if (ts.isVariableDeclaration(node) && node.name.getText(source) === 'TOPIC_SPECS') {
      for (const el of node.initializer.elements) {
        const props = Object.fromEntries(el.properties.map((p) => [p.name.getText(source), p.initializer]));
        out.set(props.name.getText(source).replace('TOPICS.', ''), {
          compacted: props.compacted.getText(source) === 'true',
          partitions: Number(props.partitions.getText(source)),
        });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

function topicPayloads(source) {
  const out = new Map();
  const visit = (node) => {
    if (ts.isInterfaceDeclaration(node) && node.name.text === 'TopicPayloads')
      for (const m of node.members)
        out.set(m.name.getText(source).replace(/^\[TOPICS\.(\w+)\]$/, '$1'), m.type.getText(source));
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

/** Every interface and type alias declared in libs/contracts/src, by name: its source text. */
function contractTypes() {
  const out = new Map();
  for (const file of walkTs('libs/contracts/src')) {
    const source = parse(file);
    for (const st of source.statements)
      if (ts.isInterfaceDeclaration(st) || ts.isTypeAliasDeclaration(st))
        out.set(st.name.text, { file, text: st.getText(source).replace(/^export /, ''), node: st, source });
  }
  return out;
}

/** Names of contract types a declaration refers to (for listing them after it). */
function referencedTypes(decl, known) {
  const names = new Set();
  const visit = (node) => {
    if (ts.isTypeReferenceNode(node) && known.has(node.typeName.getText(decl.source)))
      names.add(node.typeName.getText(decl.source));
    ts.forEachChild(node, visit);
  };
  visit(decl.node);
  return [...names];
}

/** The top-level `const NAME = …` declarations of an app's files: name → initializer node. */
function constDeclarations(files) {
  const out = new Map();
  for (const file of files) {
    const source = parse(file);
    for (const statement of source.statements.filter(ts.isVariableStatement))
      for (const decl of statement.declarationList.declarations)
        if (ts.isIdentifier(decl.name) && decl.initializer) out.set(decl.name.text, { node: decl.initializer, source });
  }
  return out;
}

/**
 * The topic keys an `@EventPattern(…)` argument subscribes to: `TOPICS.x`, a topic's name, an
 * array of them, or a constant of the app holding one of those, or built from a mapping table's
 * keys (`Object.keys(MAPPERS)`, with a `.filter(…)` to the declared topics): customers subscribes
 * to every topic its mapping table names.
 */
function patternTopics(node, source, consts, keyOf, seen = new Set()) {
  const out = [];
  const strip = (n) =>
    ts.isAsExpression(n) || ts.isParenthesizedExpression(n) || ts.isSatisfiesExpression(n) ? strip(n.expression) : n;
  node = strip(node);
  if (ts.isPropertyAccessExpression(node) && node.expression.getText(source) === 'TOPICS') out.push(node.name.text);
  else if (ts.isStringLiteralLike(node)) {
    if (keyOf.has(node.text)) out.push(keyOf.get(node.text));
  } else if (ts.isArrayLiteralExpression(node))
    for (const e of node.elements) out.push(...patternTopics(e, source, consts, keyOf, seen));
  else if (ts.isObjectLiteralExpression(node))
    for (const p of node.properties) {
      if (!p.name) continue;
      if (ts.isComputedPropertyName(p.name)) out.push(...patternTopics(p.name.expression, source, consts, keyOf, seen));
      else if (ts.isStringLiteralLike(p.name) && keyOf.has(p.name.text)) out.push(keyOf.get(p.name.text));
    }
  else if (ts.isIdentifier(node) && consts.has(node.text) && !seen.has(node.text)) {
    seen.add(node.text);
    const decl = consts.get(node.text);
    out.push(...patternTopics(decl.node, decl.source, consts, keyOf, seen));
  } else if (ts.isCallExpression(node)) {
    // Object.keys(X) / Object.values(X) / X.filter(…) / [...].concat(…): the topics of X.
    const callee = node.expression;
    if (ts.isPropertyAccessExpression(callee)) {
      if (callee.expression.getText(source) === 'Object' && node.arguments[0])
        out.push(...patternTopics(node.arguments[0], source, consts, keyOf, seen));
      else out.push(...patternTopics(callee.expression, source, consts, keyOf, seen));
    }
  }
  return out;
}

/** Who writes (`topic: TOPICS.x` through the outbox) and who reads (`@EventPattern(…)`) each topic. */
function producersAndConsumers() {
  const producers = new Map();
  const consumers = new Map();
  const keyOf = new Map([...topics()].map(([key, topic]) => [topic.name, key]));
  const add = (map, key, who) => map.set(key, new Set([...(map.get(key) ?? []), who]));
  for (const app of readdirSync(path.join(root, 'apps'))) {
    const files = existsSync(path.join(root, 'apps', app, 'src')) ? walkTs(`apps/${app}/src`) : [];
    const consts = constDeclarations(files);
    for (const file of files) {
      const text = readFileSync(path.join(root, file), 'utf8');
      for (const [, key] of text.matchAll(/topic:\s*TOPICS\.(\w+)/g)) add(producers, key, app);
      if (!text.includes('@EventPattern(')) continue;
      const source = parse(file);
      const visit = (node) => {
        if (ts.isDecorator(node) && ts.isCallExpression(node.expression)) {
          const call = node.expression;
          if (call.expression.getText(source) === 'EventPattern' && call.arguments[0])
            for (const key of patternTopics(call.arguments[0], source, consts, keyOf)) add(consumers, key, app);
        }
        ts.forEachChild(node, visit);
      };
      visit(source);
    }
  }
  const cache = readFileSync(path.join(root, 'libs/platform/src/auth/access-cache.service.ts'), 'utf8');
  const stateLine = cache.match(/STATE_TOPICS = \[([^\]]*)\]/)?.[1] ?? '';
  for (const [, key] of stateLine.matchAll(/TOPICS\.(\w+)/g)) add(consumers, key, 'every service (access cache)');
  return { producers, consumers };
}

/** docs/events.md's generated part; throws when a topic has no spec or no payload type. */
export function eventsReference() {
  const source = parse('libs/contracts/src/topics.ts');
  const all = topics();
  const specs = topicSpecs(source);
  const payloads = topicPayloads(source);
  const types = contractTypes();
  const { producers, consumers } = producersAndConsumers();
  const problems = [];
  const lines = [
    '| topic | kind | partitions | key | payload | producer | consumers |',
    '|---|---|---|---|---|---|---|',
  ];
  for (const [key, topic] of all) {
    const spec = specs.get(key);
    const payload = payloads.get(key);
    if (!spec) problems.push(`TOPICS.${key} (${topic.name}) has no entry in TOPIC_SPECS`);
    if (!payload) problems.push(`TOPICS.${key} (${topic.name}) has no payload type in TopicPayloads`);
    const kind = spec?.compacted ? 'state (log-compacted)' : 'event';
    const keyText = spec?.compacted ? '`<tenant_id>/<record id>`' : '`aggregate_id`';
    lines.push(
      `| \`${topic.name}\` | ${kind} | ${spec?.partitions ?? '?'} | ${keyText} | [\`${payload ?? '?'}\`](#${(payload ?? '').toLowerCase()}) | ${[...(producers.get(key) ?? ['none yet'])].join(', ')} | ${[...(consumers.get(key) ?? ['none yet'])].join(', ')} |`,
    );
  }
  if (problems.length) throw new Error(`libs/contracts/src/topics.ts:\n  ${problems.join('\n  ')}`);
  lines.push('');
  for (const [key, topic] of all) {
    if (topic.description) lines.push(`- \`${topic.name}\`: ${topic.description}`);
    void key;
  }
  lines.push('', '### Payloads', '');
  const shown = new Set();
  const show = (name, depth) => {
    const decl = types.get(name);
    if (!decl || shown.has(name)) return;
    shown.add(name);
    lines.push(`#### ${name}`, '', `\`${decl.file}\``, '', '```ts', decl.text, '```', '');
    if (depth < 3) for (const ref of referencedTypes(decl, types)) show(ref, depth + 1);
  };
  for (const payload of new Set(payloads.values())) show(payload, 0);
  return lines.join('\n').trimEnd();
}

/** TOPIC_SPECS in its order, as { name, partitions, compacted } (deploy/base/kafka-topics-job.yaml is rendered from it). */
export function topicSpecList() {
  const all = topics();
  return [...topicSpecs(parse('libs/contracts/src/topics.ts'))].map(([key, spec]) => {
    const topic = all.get(key);
    if (!topic) throw new Error(`TOPIC_SPECS names TOPICS.${key}, which TOPICS does not define`);
    return { name: topic.name, ...spec };
  });
}

/**
 * README.md's topic map: every topic, the service that writes it and those that read it, each
 * service linked to its page.
 */
export function topicMapReference() {
  const { producers, consumers } = producersAndConsumers();
  const link = (who) =>
    existsSync(path.join(root, 'docs/services', `${who}.md`)) ? `[${who}](docs/services/${who}.md)` : who;
  const lines = ['| topic | written by | read by |', '|---|---|---|'];
  for (const [key, topic] of topics())
    lines.push(
      `| \`${topic.name}\` | ${[...(producers.get(key) ?? ['none yet'])].map(link).join(', ')} | ${[...(consumers.get(key) ?? ['none yet'])].map(link).join(', ')} |`,
    );
  return lines.join('\n');
}
