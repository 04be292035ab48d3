import { AddressInfo } from 'node:net';

import { SMTPServer } from 'smtp-server';

import { eventually } from './harness';

export interface ReceivedMail {
  /** Envelope sender and recipients (RCPT TO: to and cc). */
  from: string;
  recipients: string[];
  /** Header names lowercased, values unfolded and decoded (RFC 2047). */
  headers: Record<string, string>;
  subject: string;
  /** The text body, transfer-decoded (quoted-printable or base64). */
  text: string;
  raw: string;
  receivedAt: Date;
}

export interface SmtpSink {
  /** smtp://127.0.0.1:<port>, for ACCOUNT_SMTP_URL. */
  url: string;
  port: number;
  /** Every message received so far, in order. */
  messages: ReceivedMail[];
  /** Waits until a received message satisfies the predicate (default: any). */
  waitFor(predicate?: (m: ReceivedMail) => boolean, timeoutMs?: number): Promise<ReceivedMail>;
  close(): Promise<void>;
}

const decodeWords = (value: string) =>
  value.replace(/=\?([^?]+)\?([QqBb])\?([^?]*)\?=/g, (_m, _charset, enc: string, text: string) =>
    enc.toUpperCase() === 'B'
      ? Buffer.from(text, 'base64').toString('utf8')
      : decodeQuotedPrintable(text.replace(/_/g, ' ')),
  );

function decodeQuotedPrintable(text: string): string {
  const bytes: number[] = [];
  const soft = text.replace(/=\r?\n/g, '');
  for (let i = 0; i < soft.length; i++) {
    if (soft[i] === '=' && /^[0-9A-Fa-f]{2}$/.test(soft.slice(i + 1, i + 3))) {
      bytes.push(parseInt(soft.slice(i + 1, i + 3), 16));
      i += 2;
    } else bytes.push(...Buffer.from(soft[i], 'utf8'));
  }
  return Buffer.from(bytes).toString('utf8');
}

/** A single-part text message as nodemailer writes it (enough for tests). */
export function parseMail(raw: string): Pick<ReceivedMail, 'headers' | 'subject' | 'text'> {
  const split = raw.search(/\r?\n\r?\n/);
  const head = split < 0 ? raw : raw.slice(0, split);
  const body = split < 0 ? '' : raw.slice(split).replace(/^\r?\n\r?\n/, '');
  const headers: Record<string, string> = {};
  for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const at = line.indexOf(':');
    if (at > 0) headers[line.slice(0, at).trim().toLowerCase()] = decodeWords(line.slice(at + 1).trim());
  }
  const encoding = (headers['content-transfer-encoding'] ?? '7bit').toLowerCase();
  const text =
    encoding === 'quoted-printable'
      ? decodeQuotedPrintable(body)
      : encoding === 'base64'
        ? Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8')
        : body;
  return { headers, subject: headers.subject ?? '', text: text.replace(/\r\n/g, '\n').replace(/\n$/, '') };
}

/** An SMTP server in the test process that keeps what it receives in memory (no TLS, no auth). */
export async function startSmtpSink(): Promise<SmtpSink> {
  const messages: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        messages.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          recipients: session.envelope.rcptTo.map((r) => r.address),
          ...parseMail(raw),
          raw,
          receivedAt: new Date(),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    port,
    messages,
    waitFor: (predicate = () => true, timeoutMs = 15_000) =>
      eventually(
        () => {
          const found = messages.find(predicate);
          if (!found) throw new Error(`no matching e-mail among ${messages.length} received`);
          return found;
        },
        { timeoutMs },
      ),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
