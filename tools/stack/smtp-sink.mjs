// A local SMTP sink for the stack: accepts every message (no TLS, no auth) and stores it under
// <dir>/ as <time>-<n>.eml (the raw message) plus <time>-<n>.json (envelope and subject), so the
// rules engine's email actions can be read without a real mail server. Dev only (smtp-server is a
// devDependency).
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { SMTPServer } from 'smtp-server';
import { assertPortFree, freePort, StackError } from './util.mjs';

const subjectOf = (raw) => {
  const m = /^subject:(.*(?:\r?\n[ \t].*)*)/im.exec(raw.split(/\r?\n\r?\n/)[0] ?? '');
  return m ? m[1].replace(/\r?\n[ \t]+/g, ' ').trim() : '';
};

/**
 * Starts the sink. `port`: a fixed port (must be free), else 2525 when free, else any free port.
 * Resolves with { url, port, dir, stop }.
 */
export async function startSmtpSink({ dir, port, log = () => {} }) {
  await mkdir(dir, { recursive: true });
  let chosen = port;
  if (chosen !== undefined) await assertPortFree(chosen, 'SMTP sink');
  else {
    chosen = 2525;
    try {
      await assertPortFree(chosen, 'SMTP sink');
    } catch (err) {
      if (!(err instanceof StackError)) throw err;
      chosen = await freePort();
      log(`port 2525 is taken; the SMTP sink uses ${chosen}`);
    }
  }
  let seq = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks = [];
      stream.on('data', (c) => chunks.push(c));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const base = path.join(dir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${++seq}`);
        const meta = {
          received_at: new Date().toISOString(),
          from: session.envelope.mailFrom?.address ?? '',
          to: session.envelope.rcptTo.map((r) => r.address),
          subject: subjectOf(raw),
        };
        Promise.all([
          writeFile(`${base}.eml`, raw),
          writeFile(`${base}.json`, `${JSON.stringify(meta, null, 2)}\n`),
        ]).then(
          () => callback(),
          (err) => callback(err),
        );
      });
    },
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(chosen, '127.0.0.1', resolve);
  });
  const url = `smtp://127.0.0.1:${chosen}`;
  return { url, port: chosen, dir, stop: () => new Promise((resolve) => server.close(() => resolve())) };
}
