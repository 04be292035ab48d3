#!/usr/bin/env node
// The published API as a contract (issue 31): `npm test`'s "api" step and `npm run fuzz:api`.
//   1. openapi-spec-validator over every openapi/*.json (pinned, in .stack/venv)
//   2. the clients: libs/client (TypeScript) matches the documents; Python, Go and Java generated
//      with openapi-generator into .stack/api-clients (tools/api/clients.mjs)
//   3. one stack (tools/stack's startStack, own directory and free ports), booted once and shared:
//      each language's program (tools/api/programs/<language>) creates a check and reads its scores,
//      a flow and a web key, sends a sandbox message, creates a contact and a segment and runs a
//      validation, decoding every answer strictly with its generated models
//   4. schemathesis over the seven services (tools/api/fuzz.mjs)
// A failure listed in tools/api/allow-list.yaml (with its reason) is reported and accepted; any
// other fails the run. Each document, language and service counts as one test in `npm test`'s total.
//   node tools/api/prove.mjs [--long] [--no-fuzz] [--no-clients] [--only svc,svc] [--stack .stack/stack.json]
// --stack: against a stack already running (`npm start` writes .stack/stack.json) instead of booting one.
import { spawn } from 'node:child_process';
import { appendFileSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';

import { repoRoot, StackError, tail } from '../stack/util.mjs';
import { checkTypeScriptClient, clientsDir, generateClients, LANGUAGES } from './clients.mjs';
import { fuzzServices, loadAllowList } from './fuzz.mjs';
import { startProofStack } from './stack.mjs';
import { cacheDir, ensureVenv, mavenRepo, validateDocuments, venvBin } from './toolchain.mjs';

const args = process.argv.slice(2);
const flag = (name) => args.includes(name);
const option = (name) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const only = option('--only')?.split(',');
const runningStack = option('--stack') && path.resolve(option('--stack'));
const t0 = Date.now();
const log = (m) => console.log(`[api +${((Date.now() - t0) / 1000).toFixed(0)}s] ${m}`);
const outDir = path.join(repoRoot, '.stack', 'api-proof-out');
const results = []; // { name, ok, allowed?, detail }
const record = (name, ok, detail = '') => {
  results.push({ name, ok, detail });
  log(`${ok ? 'ok  ' : 'FAIL'} ${name}${detail ? `: ${detail}` : ''}`);
};

const allowList = loadAllowList();
const allowedDocument = (file) => (allowList.documents ?? []).find((d) => d.file === path.basename(file));

/** Runs a program; resolves with { code, output }. */
function runProgram(cmd, cmdArgs, options = {}) {
  return new Promise((resolve) => {
    const child = spawn(cmd, cmdArgs, { cwd: repoRoot, ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('error', (err) => resolve({ code: -1, output: `${output}\n${err.message}` }));
    child.on('close', (code) => resolve({ code, output }));
  });
}

/** A finding the allow-list does not accept, with the refusals (fields and messages) an ST202 finding saw. */
const describeFinding = (f) =>
  [
    `    ${f.code} ${f.operation} (${f.title})`,
    ...(f.refusals ?? []).map(
      (refusal) =>
        `      refused: ${refusal.map((e) => (e.unreadable ? `unreadable ${e.unreadable}` : `${e.field || e.error_code}: ${e.message}`)).join('; ')}`,
    ),
    ...(f.refusals && !f.refusals.length ? ['      (the log shows no refusal for it)'] : []),
  ].join('\n');

/** Judges a program's output: every FAIL step must be in the allow-list for its language. */
function judgeProgram(language, { code, output }, logFile) {
  writeFileSync(logFile, output);
  const lines = output.split('\n');
  const steps = lines.filter((l) => /^(ok|FAIL|skip) /.test(l));
  const failedSteps = steps.filter((l) => l.startsWith('FAIL ')).map((l) => l.slice(5).split(':')[0]);
  const unexpected = failedSteps.filter(
    (s) => !allowList.clients.find((e) => (e.language === language || e.language === '*') && e.step === s),
  );
  const passed = steps.filter((l) => l.startsWith('ok ')).length;
  if (!steps.length || (code !== 0 && !failedSteps.length))
    return record(`client ${language}`, false, `no steps ran (exit ${code}):\n${tail(output, 25)}`);
  for (const l of steps.filter((x) => !x.startsWith('ok '))) log(`  ${language}: ${l}`);
  record(
    `client ${language}`,
    unexpected.length === 0,
    `${passed} steps ok, ${failedSteps.length} failed (${failedSteps.length - unexpected.length} in the allow-list)` +
      (unexpected.length ? `; not in the allow-list: ${unexpected.join(', ')}` : ''),
  );
}

async function programs(stackFile) {
  const env = { ...process.env };
  // Python: the venv, the generated packages on the path.
  const pythonPath = LANGUAGES.includes('python')
    ? readdirSync(path.join(clientsDir, 'python')).map((s) => path.join(clientsDir, 'python', s))
    : [];
  const python = runProgram(venvBin('python'), ['tools/api/programs/python/prove.py', stackFile], {
    env: { ...env, PYTHONPATH: pythonPath.join(path.delimiter) },
  });
  // Go: the module's replace directives point at the generated clients; modules from the Go proxy.
  const goEnv = {
    ...env,
    GOFLAGS: '-mod=mod',
    GOPATH: path.join(cacheDir, 'go'),
    GOCACHE: path.join(cacheDir, 'go-build'),
    GOTOOLCHAIN: 'local',
  };
  const go = (async () => {
    const build = await runProgram('go', ['build', '-o', path.join(outDir, 'prove-go'), '.'], {
      cwd: path.join(repoRoot, 'tools/api/programs/go'),
      env: goEnv,
    });
    if (build.code !== 0) return { code: build.code, output: `go build failed:\n${build.output}` };
    return runProgram(path.join(outDir, 'prove-go'), [stackFile], { env: goEnv });
  })();
  // Java: Maven compiles the program with the generated sources; java runs it.
  const java = (async () => {
    const cwd = path.join(repoRoot, 'tools/api/programs/java');
    const cpFile = path.join(outDir, 'java-classpath.txt');
    const build = await runProgram(
      'mvn',
      [
        '-q',
        '-B',
        `-Dmaven.repo.local=${mavenRepo}`,
        'compile',
        'dependency:build-classpath',
        `-Dmdep.outputFile=${cpFile}`,
      ],
      { cwd, env },
    );
    if (build.code !== 0) return { code: build.code, output: `mvn compile failed:\n${build.output}` };
    const classpath = [path.join(cwd, 'target', 'classes'), readFileSync(cpFile, 'utf8').trim()].join(path.delimiter);
    return runProgram('java', ['-cp', classpath, 'kyc.prove.Prove', stackFile], { cwd, env });
  })();
  // TypeScript: libs/client; the program (libs/testing/src/client-proof) is built to dist/ with the rest.
  const typescript = runProgram(process.execPath, ['dist/libs/testing/src/client-proof/prove.js', stackFile], { env });
  const done = { typescript, python, go, java };
  for (const [language, promise] of Object.entries(done))
    judgeProgram(language, await promise, path.join(outDir, `client-${language}.log`));
}

let stack;
let exitCode = 0;
try {
  await rm(outDir, { recursive: true, force: true });
  await mkdir(outDir, { recursive: true });
  ensureVenv(log);

  // 1. The documents.
  const documents = readdirSync(path.join(repoRoot, 'openapi'))
    .filter((f) => f.endsWith('.json'))
    .map((f) => path.join(repoRoot, 'openapi', f));
  for (const [file, error] of Object.entries(validateDocuments(documents))) {
    const name = `openapi-spec-validator ${path.relative(repoRoot, file)}`;
    const allowed = allowedDocument(file);
    record(name, !error || !!allowed, error ? `${allowed ? '(in the allow-list) ' : ''}${error}` : '');
  }

  // 2. The clients.
  if (!flag('--no-clients')) {
    try {
      await checkTypeScriptClient();
      record('client typescript (libs/client) matches openapi/*.json', true);
    } catch (err) {
      record('client typescript (libs/client) matches openapi/*.json', false, err.message);
    }
    const generated = await generateClients({ log });
    for (const language of LANGUAGES) {
      const missing = generated.missing.filter((m) => m.startsWith(`${language}/`));
      const notAllowed = missing.filter((m) => !allowedDocument(`${m.split('/')[1]}.json`));
      record(
        `client ${language} generated`,
        notAllowed.length === 0,
        missing.length ? `not generated: ${missing.join(', ')} (${generated.errors.join('; ')})` : '',
      );
    }
  }

  // 3. One stack for the programs and the fuzzer.
  let stackFile = runningStack;
  let info;
  if (runningStack) {
    log(`using the running stack of ${path.relative(repoRoot, runningStack)}`);
    info = JSON.parse(readFileSync(runningStack, 'utf8'));
  } else {
    log('starting the stack');
    stack = await startProofStack({ log: (m) => log(`stack: ${m}`) });
    stackFile = path.join(stack.stackDir, 'stack.json');
    info = stack.info;
  }
  if (!existsSync(stackFile)) throw new StackError(`no ${stackFile}`);
  if (!flag('--no-clients')) await programs(stackFile);

  // 4. The fuzzer (after the programs: its runs revoke keys and change roles).
  if (!flag('--no-fuzz')) {
    const fuzz = await fuzzServices({
      info,
      profile: flag('--long') ? 'long' : 'ci',
      log,
      reportDir: path.join(outDir, 'fuzz'),
      only,
    });
    for (const r of fuzz) {
      const allowedCount = r.findings.length - r.unexpected.length;
      record(
        `schemathesis ${r.service}`,
        r.ok,
        `${r.testCases} test cases in ${r.seconds.toFixed(0)} s, ${r.findings.length} findings (${allowedCount} in the allow-list)` +
          (r.unexpected.length
            ? `; NOT in the allow-list:\n${r.unexpected.map(describeFinding).join('\n')}\n    details: ${r.log}`
            : ''),
      );
    }
  }
} catch (err) {
  record('api proof', false, err instanceof StackError ? err.message : err.stack);
} finally {
  await stack?.stop();
}

const failed = results.filter((r) => !r.ok);
const passed = results.length - failed.length;
if (process.env.KYC_TEST_SUMMARY_FILE)
  appendFileSync(
    process.env.KYC_TEST_SUMMARY_FILE,
    `${JSON.stringify({ passed, failed: failed.length, skipped: 0 })}\n`,
  );
log(
  `${passed} passed, ${failed.length} failed in ${((Date.now() - t0) / 1000).toFixed(0)} s; reports in ${path.relative(repoRoot, outDir)}/`,
);
exitCode = failed.length ? 1 : 0;
process.exit(exitCode);
