import type { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { getMetadataStorage } from 'class-validator';
import { Client } from 'pg';

import type { ServiceDefinition } from '../bootstrap';
import { migrateSchema } from '../database/data-source';
import { AppException } from '../errors/app.exception';
import { processRole } from '../process-role';
import { createValidationPipe } from '../validation/validation.pipe';
import { AdminCommand, AdminRefusal, AdminUsageError, parseAdminFlags } from './admin-command';

/** What reaches the operator: the result on stdout, a refusal as one line on stderr. */
export interface AdminIo {
  out(line: string): void;
  err(line: string): void;
}

const processIo: AdminIo = {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
};

/** Exit statuses: 0 done, 1 refused (configuration, database, the command's own rules), 2 usage. */
export const ADMIN_EXIT = { ok: 0, refused: 1, usage: 2 } as const;

const oneLine = (text: string) =>
  text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean)
    .join('; ');

/** Where the database is, without its password (for the refusal). */
function databaseTarget(url: string | undefined): string {
  try {
    const u = new URL(url ?? '');
    return `${u.hostname}:${u.port || 5432}${u.pathname}`;
  } catch {
    return 'DATABASE_URL';
  }
}

/** A refusal when PostgreSQL cannot be reached within a few seconds (no retry loop: an operator is waiting). */
async function assertDatabaseReachable(url: string): Promise<void> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    throw new AdminRefusal(
      `the database at ${databaseTarget(url)} cannot be reached (${e.code ?? oneLine(e.message)}): check DATABASE_URL`,
    );
  } finally {
    await client.end().catch(() => undefined);
  }
}

function usage(service: string, commands: Record<string, AdminCommand>): string {
  const lines = Object.entries(commands).map(([name, c]) => `  ${name} ${c.usage}`);
  return [`usage: node dist/apps/${service}/src/main.js admin <command> [--flag value ...]`, ...lines].join('\n');
}

/** The DTO's fields (class-validator metadata): unknown flags are refused, never ignored. */
const fieldsOf = (dto: new () => object) =>
  new Set(
    getMetadataStorage()
      .getTargetValidationMetadatas(dto, '', true, false)
      .map((m) => m.propertyName),
  );

/**
 * `main.js admin <command> …`: loads the service's configuration, checks that PostgreSQL answers,
 * applies the service's pending migrations (under the same advisory lock as `migrate`), boots the
 * service's module without its background work (no outbox relay, consumers or job workers: the
 * running service relays the events the command writes to the outbox), runs the command and
 * prints its result once. Returns the exit status.
 */
export async function runAdminCommand(
  service: string,
  def: () => ServiceDefinition,
  argv: string[],
  io: AdminIo = processIo,
): Promise<number> {
  const refuse = (reason: string, status: number = ADMIN_EXIT.refused) => {
    io.err(`${service} admin: refused: ${oneLine(reason)}`);
    return status;
  };
  // The signing keys and the database first: what an operator most often forgets.
  for (const variable of ['DATABASE_URL', 'API_KEY_PUBLIC_KEY'])
    if (!process.env[variable]?.trim()) return refuse(`${variable} is not set`);
  let definition: ServiceDefinition;
  try {
    definition = def();
  } catch (err) {
    const problems = oneLine((err as Error).message.replace(/^Invalid configuration for \w+:/, ''));
    return refuse(`invalid configuration: ${problems}`);
  }
  const commands = definition.adminCommands ?? {};
  const [name, ...flags] = argv;
  const command = name ? commands[name] : undefined;
  if (!command) {
    io.err(name ? `${service} admin: unknown command "${name}"` : `${service} admin: no command given`);
    io.err(usage(service, commands));
    return ADMIN_EXIT.usage;
  }
  for (const r of command.requires ?? [])
    if (!process.env[r.variable]?.trim()) return refuse(`${r.variable} (${r.what}) is not set`);

  let input: object;
  try {
    const raw = parseAdminFlags(flags, command);
    const known = fieldsOf(command.dto);
    const unknown = Object.keys(raw).filter((f) => !known.has(f) || (command.fixed && f in command.fixed));
    if (unknown.length) throw new AdminUsageError(`unknown flag ${unknown.map((f) => `--${f}`).join(', ')}`);
    // Flags are text, as form fields are: built outside Object's prototype, the DTO's form rules read them
    // (isFormBody: a number given as text, a single value of a list).
    const fields = Object.assign(Object.create(null) as object, command.defaults, raw, command.fixed);
    input = (await createValidationPipe().transform(fields, { type: 'body', metatype: command.dto })) as object;
  } catch (err) {
    const reason =
      err instanceof AppException && err.fields.length
        ? err.fields.map((f) => `${f.field}: ${f.message}`).join('; ')
        : (err as Error).message;
    io.err(`${service} admin ${name}: ${oneLine(reason)}`);
    io.err(usage(service, { [name]: command }));
    return ADMIN_EXIT.usage;
  }

  const { config } = definition;
  try {
    await assertDatabaseReachable(config.DATABASE_URL);
    await migrateSchema({
      url: config.DATABASE_URL,
      schema: config.DB_SCHEMA,
      entities: definition.entities,
      migrations: definition.migrations,
    });
  } catch (err) {
    return refuse((err as Error).message);
  }

  processRole.background = false;
  let app: INestApplicationContext;
  try {
    app = await NestFactory.createApplicationContext(definition.module, { logger: false, abortOnError: false });
  } catch (err) {
    return refuse(`the service did not start: ${(err as Error).message}`);
  }
  try {
    const result = await command.run(app, input);
    io.out(JSON.stringify(result));
    return ADMIN_EXIT.ok;
  } catch (err) {
    return refuse((err as Error).message);
  } finally {
    await app.close().catch(() => undefined);
  }
}
