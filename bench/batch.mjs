// Scenario: a batch of BENCH_BATCH_ROWS (default 10,000) person rows with sandbox latency 0 (the
// scenario's serviceEnv). Goals (GOAL below): every check created and finished in under 15 s from
// POST /v1/batches/{id}/start, the progress GET's p99 under 100 ms meanwhile, and the xlsx report
// generated in under 10 s. Also, per check from the start to the last check finished (counts
// that hold on a loaded machine): the CPU of the checks process and of PostgreSQL, and the WAL,
// by record type.
import { createRequire } from 'node:module';

import pg from 'pg';

import { StackError } from '../tools/stack/util.mjs';
import {
  cpuMs,
  http,
  num,
  percentile,
  postgresCpuMs,
  postmasterPidOf,
  printWalBreakdown,
  round,
  walByRecordType,
} from './kit.mjs';

const require = createRequire(import.meta.url);

const GOAL = { all_checks_finished_s_below: 15, progress_get_p99_ms_below: 100, report_s_below: 10 };

export async function batchChecks(ctx) {
  const { info, log } = ctx;
  const rows = num('BENCH_BATCH_ROWS', 10_000);
  const base = info.services.checks;
  const headers = { 'Service-API-Key': info.api_key };
  const form = { ...headers, 'content-type': 'application/x-www-form-urlencoded' };
  const mapping = {
    country: 'CO',
    service: 'checks',
    type: 'person',
    'columns_mapping.user_authorized': '0',
    'columns_mapping.national_id': '1',
    'columns_mapping.first_name': '2',
    'columns_mapping.last_name': '3',
  };
  const created = await http(`${base}/v1/batches`, {
    method: 'POST',
    headers: form,
    body: new URLSearchParams(mapping).toString(),
  });
  const batchId = created.batch.batch_id;

  const ExcelJS = require('exceljs');
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('checks');
  sheet.addRow(['user_authorized', 'national_id', 'first_name', 'last_name']);
  for (let i = 0; i < rows; i++) sheet.addRow(['true', String(20_000_000 + i), 'Ana', 'Perez']);
  const file = Buffer.from(await workbook.xlsx.writeBuffer());
  let t = performance.now();
  const up = await fetch(created.file_upload_link, {
    method: 'PUT',
    headers: { 'content-type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' },
    body: file,
  });
  if (up.status !== 200) throw new StackError(`batch upload answered ${up.status}: ${(await up.text()).slice(0, 300)}`);
  const uploadMs = performance.now() - t;
  log(`batch: ${rows} rows uploaded (${(file.length / 1024).toFixed(0)} KiB) in ${uploadMs.toFixed(0)} ms`);

  const db = new pg.Client({ connectionString: info.postgres_url });
  await db.connect();
  const walLsn = async () => (await db.query('SELECT pg_current_wal_lsn()::text AS lsn')).rows[0].lsn;
  const checksPid = ctx.stack.processes.find((proc) => proc.name === 'checks')?.pid;
  const postmaster = await postmasterPidOf(db);
  const lsn0 = await walLsn();
  const cpu0 = cpuMs(checksPid);
  const pgCpu0 = postgresCpuMs(postmaster);
  const t0 = performance.now();
  await http(`${base}/v1/batches/${batchId}/start`, { method: 'POST', headers });
  let allCreatedS = null;
  let allFinishedS = null;
  let batch;
  const polls = [];
  const deadline = t0 + num('BENCH_BATCH_TIMEOUT', 300) * 1000;
  while (performance.now() < deadline) {
    const tp = performance.now();
    batch = (await http(`${base}/v1/batches/${batchId}`, { headers })).batch;
    polls.push(performance.now() - tp);
    const p = batch.progress;
    const elapsed = (performance.now() - t0) / 1000;
    if (allCreatedS === null && p.rows_created + p.rows_failed === rows) allCreatedS = elapsed;
    if (p.checks_completed + p.checks_error + p.rows_failed === rows) {
      allFinishedS = elapsed;
      break;
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  const cpu1 = cpuMs(checksPid);
  const pgCpu1 = postgresCpuMs(postmaster);
  const lsn1 = await walLsn();
  const walBytes = Number(
    (await db.query('SELECT pg_wal_lsn_diff($1::pg_lsn, $2::pg_lsn)::float8 AS b', [lsn1, lsn0])).rows[0].b,
  );
  const walRecords = await walByRecordType(db, lsn0, lsn1, rows);
  await db.end();
  const p = batch.progress;
  const perCheck = {
    checks_cpu_ms: cpu0 === null || cpu1 === null ? null : round((cpu1 - cpu0) / rows, 3),
    postgres_cpu_ms: pgCpu0 === null || pgCpu1 === null ? null : round((pgCpu1 - pgCpu0) / rows, 3),
    wal_bytes: Math.round(walBytes / rows),
  };
  log(
    `batch: per check, start to all finished: checks process CPU ${perCheck.checks_cpu_ms ?? '-'} ms, PostgreSQL CPU ${perCheck.postgres_cpu_ms ?? '-'} ms, WAL ${perCheck.wal_bytes} B`,
  );
  printWalBreakdown('batch: WAL per check by record type (pg_walinspect)', walRecords);
  log(
    `batch: ${p.rows_created} checks created in ${allCreatedS === null ? 'n/a' : allCreatedS.toFixed(1)} s; ${p.checks_completed + p.checks_error} finished in ${allFinishedS === null ? `> ${num('BENCH_BATCH_TIMEOUT', 300)}` : allFinishedS.toFixed(1)} s`,
  );
  const pollMs = {
    count: polls.length,
    p50_ms: percentile(polls, 50),
    p99_ms: percentile(polls, 99),
    max_ms: percentile(polls, 100),
  };
  log(
    `batch: GET /v1/batches/{id} (progress) during the run: p50 ${pollMs.p50_ms} ms, p99 ${pollMs.p99_ms} ms, max ${pollMs.max_ms} ms over ${pollMs.count} polls`,
  );

  t = performance.now();
  await http(`${base}/v1/batches/${batchId}/report`, { method: 'POST', headers: form, body: 'format=xlsx' });
  let reportBytes = 0;
  for (;;) {
    const res = await fetch(`${base}/v1/batches/${batchId}/report`, { headers });
    const bytes = Buffer.from(await res.arrayBuffer());
    if (res.status === 200) {
      reportBytes = bytes.length;
      break;
    }
    if (res.status !== 202)
      throw new StackError(`GET batch report answered ${res.status}: ${bytes.toString().slice(0, 300)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  const reportS = (performance.now() - t) / 1000;
  const result = {
    goal: { ...GOAL },
    rows,
    upload_ms: round(uploadMs, 0),
    all_checks_created_s: round(allCreatedS, 2),
    all_checks_finished_s: round(allFinishedS, 2),
    checks_per_second_finished: allFinishedS ? round(rows / allFinishedS, 1) : null,
    progress: p,
    progress_get: pollMs,
    per_check: perCheck,
    wal_per_check_by_record: walRecords,
    report_s: round(reportS, 2),
    report_bytes: reportBytes,
  };
  const goals = [
    [
      'all checks finished',
      allFinishedS === null ? null : round(allFinishedS, 1),
      's',
      GOAL.all_checks_finished_s_below,
    ],
    ['progress GET p99', pollMs.p99_ms, 'ms', GOAL.progress_get_p99_ms_below],
    ['xlsx report', round(reportS, 2), 's', GOAL.report_s_below],
  ].map(([what, figure, unit, below]) => ({ what, figure, unit, below, met: figure !== null && figure < below }));
  result.goal.met = goals.every((g) => g.met);
  result.goal.each = goals;
  log(`batch report (xlsx, ${reportBytes} bytes) in ${reportS.toFixed(2)} s`);
  console.log(
    `\nbatch goals: ${goals.map((g) => `${g.what} ${g.figure ?? 'n/a'} ${g.unit} (goal < ${g.below} ${g.unit}: ${g.met ? 'MET' : 'MISSED'})`).join(', ')}\n`,
  );
  return { result };
}
