import type { INestApplicationContext } from '@nestjs/common';

/**
 * An operator command a service ships in its image: `node dist/apps/<svc>/src/main.js admin <name>
 * --flag value …` (runAdminCommand). The flags are validated into `dto` with the same class-validator
 * rules as the HTTP route doing the same thing, and `run` calls the same service method that route
 * calls; what it returns is printed once, as one JSON line on stdout.
 */
export interface AdminCommand<T extends object = object> {
  /** One line for the usage text: what it does and its flags. */
  usage: string;
  /** The DTO the flags fill (`--admin-email` fills `admin_email`; a repeated flag gives an array). */
  dto: new () => T;
  /** Flags named otherwise than the DTO's fields: flag (without --) → field. */
  aliases?: Record<string, string>;
  /** Values of flags left out. */
  defaults?: Partial<Record<keyof T, unknown>>;
  /** Fixed fields (not flags), e.g. the only allowed key type. */
  fixed?: Partial<Record<keyof T, unknown>>;
  /** Fields given as arrays (a single --flag still gives a list). */
  arrays?: (keyof T & string)[];
  /** Variables the command cannot run without, beyond the service's required configuration. */
  requires?: { variable: string; what: string }[];
  run(app: INestApplicationContext, input: T): Promise<Record<string, unknown>>;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each command has its own DTO type
export type AdminCommands = Record<string, AdminCommand<any>>;

/** `--a-b x --c y --c z` → { a_b: 'x', c: ['y', 'z'] } (flags named by `aliases` mapped to their field). */
export function parseAdminFlags(
  argv: string[],
  command: { aliases?: Record<string, string>; arrays?: string[] },
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const m = /^--([a-z][a-z0-9-]*)(?:=(.*))?$/.exec(arg);
    if (!m) throw new AdminUsageError(`unexpected argument "${arg}" (flags are --name value)`);
    let value = m[2];
    if (value === undefined) {
      value = argv[i + 1];
      if (value === undefined || value.startsWith('--')) throw new AdminUsageError(`--${m[1]} needs a value`);
      i++;
    }
    const field = command.aliases?.[m[1]] ?? m[1].replace(/-/g, '_');
    const isArray = command.arrays?.includes(field);
    if (isArray) out[field] = [...((out[field] as string[] | undefined) ?? []), value];
    else if (field in out) throw new AdminUsageError(`--${m[1]} is given twice`);
    else out[field] = value;
  }
  return out;
}

/** A command line the command cannot run with (printed with the usage). */
export class AdminUsageError extends Error {}

/** A refusal: printed as one line, exit status 1. */
export class AdminRefusal extends Error {}
