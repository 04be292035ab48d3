import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';

import type { RecordedExchange } from './api-client';

/**
 * A place where the service knowingly answers differently from a published document: the
 * document's schema at `pointer` (a JSON pointer into the document, e.g.
 * `/components/schemas/Error/properties/code`) is replaced by `schema` before validating, and
 * `reason` says why (the service's docs list the same entries).
 */
export interface ContractDeviation {
  pointer: string;
  schema: Record<string, unknown>;
  reason: string;
}

/** What validating one exchange found: the documented route and status, and the schema errors (none: valid). */
export interface ContractResult {
  method: string;
  template: string;
  status: number;
  errors: string[];
}

interface DocumentedOperation {
  method: string;
  template: string;
  matcher: RegExp;
  /** Literal segments: the more, the more specific (`/v1/checks/health` before `/v1/checks/{check_id}`). */
  literals: number;
  /** Validators by documented status ('default' too); null when the status documents no JSON body. */
  responses: Map<string, ValidateFunction | null>;
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** OpenAPI 3.0 schema keywords → JSON Schema: `nullable: true` allows null. */
function toJsonSchema(node: Json): Json {
  if (Array.isArray(node)) return node.map(toJsonSchema);
  if (node === null || typeof node !== 'object') return node;
  const out: { [key: string]: Json } = {};
  for (const [key, value] of Object.entries(node)) out[key] = toJsonSchema(value);
  if (out.nullable === true) {
    if (typeof out.type === 'string') out.type = [out.type, 'null'];
    if (Array.isArray(out.enum)) out.enum = [...out.enum, null];
  }
  delete out.nullable;
  return out;
}

function setPointer(doc: { [key: string]: Json }, pointer: string, value: Json) {
  const parts = pointer
    .split('/')
    .slice(1)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  let node = doc as Json;
  for (const part of parts.slice(0, -1)) {
    if (!node || typeof node !== 'object' || Array.isArray(node) || !(part in node)) {
      throw new Error(`contract deviation: ${pointer} is not in the document`);
    }
    node = node[part];
  }
  const last = parts[parts.length - 1];
  if (!node || typeof node !== 'object' || Array.isArray(node) || !(last in node)) {
    throw new Error(`contract deviation: ${pointer} is not in the document`);
  }
  node[last] = value;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

/**
 * A published OpenAPI 3.0 document as a response contract: validate(exchange) finds the
 * documented operation of a received response (method, path template, status) and validates its
 * JSON body against the documented schema with ajv (formats checked, `nullable` handled).
 */
export class PublishedContract {
  private readonly operations: DocumentedOperation[] = [];

  constructor(document: object, deviations: ContractDeviation[] = []) {
    const doc = toJsonSchema(structuredClone(document) as Json) as { [key: string]: Json };
    for (const d of deviations) setPointer(doc, d.pointer, d.schema as Json);
    const ajv = new Ajv({ strict: false, allErrors: true });
    addFormats(ajv);
    for (const f of ['float', 'double']) ajv.addFormat(f, { type: 'number', validate: () => true });
    for (const f of ['int32', 'int64']) ajv.addFormat(f, { type: 'number', validate: Number.isInteger });
    const responseSchemas: { [key: string]: Json } = {};
    const pending: { op: DocumentedOperation; status: string; key: string | null }[] = [];
    const paths = (doc.paths ?? {}) as { [path: string]: { [method: string]: Json } };
    for (const [template, item] of Object.entries(paths)) {
      const segments = template.split('/');
      const matcher = new RegExp(
        `^${segments.map((s) => (/^\{.+\}$/.test(s) ? '[^/]+' : s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))).join('/')}/?$`,
      );
      for (const method of METHODS) {
        const operation = item[method] as { responses?: { [status: string]: Json } } | undefined;
        if (!operation) continue;
        const op: DocumentedOperation = {
          method: method.toUpperCase(),
          template,
          matcher,
          literals: segments.filter((s) => s && !s.startsWith('{')).length,
          responses: new Map(),
        };
        for (const [status, response] of Object.entries(operation.responses ?? {})) {
          const schema = (response as { content?: { [type: string]: { schema?: Json } } }).content?.['application/json']
            ?.schema;
          const key = schema ? `r${Object.keys(responseSchemas).length}` : null;
          if (key && schema) responseSchemas[key] = schema;
          pending.push({ op, status, key });
        }
        this.operations.push(op);
      }
    }
    ajv.addSchema({ ...doc, 'x-responses': responseSchemas }, 'published');
    for (const { op, status, key } of pending) {
      op.responses.set(status, key ? ajv.compile({ $ref: `published#/x-responses/${key}` }) : null);
    }
    this.operations.sort((a, b) => b.literals - a.literals);
  }

  /** The documented operations as `METHOD template` (for coverage checks). */
  get documented(): { method: string; template: string; statuses: string[] }[] {
    return this.operations.map((o) => ({ method: o.method, template: o.template, statuses: [...o.responses.keys()] }));
  }

  /** The documented operation a request goes to, if any. */
  route(method: string, path: string): { method: string; template: string } | undefined {
    const op = this.operations.find((o) => o.method === method.toUpperCase() && o.matcher.test(path));
    return op && { method: op.method, template: op.template };
  }

  /**
   * Validates one received response. undefined when the document does not describe it (route,
   * or status without a `default`); errors empty when the body is valid or not documented as JSON.
   */
  validate(exchange: RecordedExchange): ContractResult | undefined {
    const op = this.operations.find((o) => o.method === exchange.method.toUpperCase() && o.matcher.test(exchange.path));
    if (!op) return undefined;
    const status = String(exchange.status);
    const key = op.responses.has(status) ? status : op.responses.has('default') ? 'default' : undefined;
    if (key === undefined) return undefined;
    const validator = op.responses.get(key);
    const result = { method: op.method, template: op.template, status: exchange.status, errors: [] as string[] };
    if (!validator) return result;
    if (!exchange.contentType?.includes('json')) {
      result.errors.push(`content-type ${exchange.contentType ?? 'none'}, documented application/json`);
    } else if (!validator(exchange.body)) {
      result.errors = (validator.errors ?? []).map(
        (e) => `${e.instancePath || '/'} ${e.message ?? 'invalid'}${e.params ? ` ${JSON.stringify(e.params)}` : ''}`,
      );
    }
    return result;
  }
}

/** Violations collected by a ContractRecorder, one line each (empty: every described response was valid). */
export interface ContractReport {
  violations: string[];
  /** `METHOD template status` of each described exchange that was validated. */
  covered: Set<string>;
}

/** Validates every response ApiClients receive while it is started (see ApiClient.observe). */
export class ContractRecorder {
  private stop?: () => void;
  private readonly seen = new Set<string>();
  readonly report: ContractReport = { violations: [], covered: new Set() };

  constructor(
    readonly contract: PublishedContract,
    /** Only responses of clients whose base URL this accepts (default: all). */
    private readonly accept: (baseUrl: string) => boolean = () => true,
  ) {}

  start(observe: (observer: (exchange: RecordedExchange) => void) => () => void): this {
    this.stop = observe((exchange) => {
      if (!this.accept(exchange.baseUrl)) return;
      const result = this.contract.validate(exchange);
      if (!result) return;
      this.report.covered.add(`${result.method} ${result.template} ${result.status}`);
      for (const error of result.errors) {
        // One line per kind of violation (array indexes folded), with the first path that showed it.
        const kind = `${result.method} ${result.template} ${result.status}: ${error.replace(/\/\d+(?=\/| )/g, '/*')}`;
        if (this.seen.has(kind)) continue;
        this.seen.add(kind);
        this.report.violations.push(`${kind} (e.g. ${exchange.path})`);
      }
    });
    return this;
  }

  finish(): ContractReport {
    this.stop?.();
    return this.report;
  }
}
