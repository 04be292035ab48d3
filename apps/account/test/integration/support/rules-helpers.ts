import { createHmac, randomUUID } from 'node:crypto';
import http from 'node:http';
import { AddressInfo } from 'node:net';

import { CheckFinishedPayload, CheckRecord, EventEnvelope, TOPICS } from '@kyc/contracts';
import { ApiClient } from '@kyc/testing';
import type { Producer } from 'kafkajs';

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  at: number;
}

export interface Receiver {
  url: string;
  requests: ReceivedRequest[];
  /** Requests to paths starting with `prefix`. */
  to(prefix: string): ReceivedRequest[];
  /** Answers requests to `prefix` with these statuses in turn (then 200); 'slow' waits 2 s before answering 200. */
  script(prefix: string, statuses: (number | 'slow')[]): void;
  close(): Promise<void>;
}

/** A local HTTP receiver (node:http) that records every request and answers 200 unless scripted. */
export async function startReceiver(): Promise<Receiver> {
  const requests: ReceivedRequest[] = [];
  const scripts = new Map<string, (number | 'slow')[]>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const at = Date.now();
      const path = req.url ?? '/';
      requests.push({
        method: req.method ?? '',
        path,
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        at,
      });
      const prefix = [...scripts.keys()].find((p) => path.startsWith(p));
      const next = prefix ? scripts.get(prefix)!.shift() : undefined;
      if (next === 'slow') setTimeout(() => res.writeHead(200).end('late'), 2_000);
      else res.writeHead(next ?? 200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
  });
  server.keepAliveTimeout = 1;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    to: (prefix) => requests.filter((r) => r.path.startsWith(prefix)),
    script: (prefix, statuses) => void scripts.set(prefix, [...statuses]),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Verifies X-Signature the way a receiver should (independently of the service's code). */
export function signatureMatches(
  header: string | undefined,
  body: string,
  secret: string,
  toleranceSeconds = 300,
): boolean {
  if (!header) return false;
  const parts = header.split(',').map((p) => p.split('='));
  const t = Number(parts.find(([k]) => k === 't')?.[1]);
  if (!Number.isInteger(t) || Math.abs(Date.now() / 1000 - t) > toleranceSeconds) return false;
  const expected = createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');
  return parts.some(([k, v]) => k === 'v1' && v === expected);
}

export const checkRecord = (tenantId: string, over: Partial<CheckRecord> = {}): CheckRecord => {
  const now = new Date().toISOString();
  return {
    check_id: `CHK${randomUUID().replace(/-/g, '')}`,
    tenant_id: tenantId,
    country: 'CO',
    type: 'person',
    status: 'completed',
    score: 0.4,
    id_score: 0.5,
    homonym_score: 1,
    custom_input: null,
    inputs: { national_id: '1020304050', first_name: 'Ana' },
    creation_date: now,
    update_date: now,
    ...over,
  };
};

/** A checks.check.finished envelope as the checks service publishes it. */
export function finishedEvent(check: CheckRecord): EventEnvelope<CheckFinishedPayload> {
  return {
    id: randomUUID(),
    type: TOPICS.checkFinished,
    version: 1,
    tenant_id: check.tenant_id,
    occurred_at: new Date().toISOString(),
    aggregate_id: check.check_id,
    payload: { check },
  };
}

export async function publish(producer: Producer, ...events: EventEnvelope[]): Promise<void> {
  await producer.send({
    topic: events[0].type,
    messages: events.map((e) => ({ key: e.aggregate_id, value: JSON.stringify(e) })),
  });
}

/** Creates a rule with actions (and env vars) through the API; returns their ids. */
export async function ruleWithActions(
  api: ApiClient,
  condition: unknown,
  actions: {
    name?: string;
    type: string;
    status?: string;
    config: Record<string, unknown>;
    envs?: { name: string; value: string; is_secret?: boolean }[];
  }[],
): Promise<{ ruleId: string; actionIds: string[] }> {
  const rule = await api.postJson('/v1/bre/rules', {
    name: `rule ${randomUUID().slice(0, 6)}`,
    event_type: 'checks.check.finished',
    condition,
  });
  if (rule.status !== 201) throw new Error(`rule: ${rule.status} ${JSON.stringify(rule.body)}`);
  const ruleId = rule.body.rule.rule_id as string;
  const actionIds: string[] = [];
  for (const a of actions) {
    const res = await api.postJson(`/v1/bre/rules/${ruleId}/actions`, {
      name: a.name ?? a.type,
      type: a.type,
      status: a.status,
      config: a.config,
    });
    if (res.status !== 201) throw new Error(`action: ${res.status} ${JSON.stringify(res.body)}`);
    actionIds.push(res.body.action.action_id);
    for (const env of a.envs ?? []) {
      const e = await api.postJson(`/v1/bre/rules/${ruleId}/actions/${res.body.action.action_id}/envs`, env);
      if (e.status !== 201) throw new Error(`env: ${e.status} ${JSON.stringify(e.body)}`);
    }
  }
  return { ruleId, actionIds };
}
