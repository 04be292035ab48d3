// Agent inbox push benchmark (scenario `engagement-inbox` of bench/run.mjs): BENCH_INBOX_AGENTS (20)
// agents online, each with its own push channel (GET /v1/engagement/inbox/events, server-sent
// events, the agent's own key: what each console session opens), while BENCH_INBOX_MESSAGES (2000)
// user messages from BENCH_INBOX_USERS (200) users reach the line through the SANDBOX provider
// (BENCH_INBOX_WRITERS, 32, in flight at most), offered at BENCH_INBOX_RATE (80) messages a second, the
// default throughput of a WhatsApp Cloud API business number (inbound and outbound together; 0: as fast
// as the writers go, to find the capacity): provider → signed webhook → webhook job → chat → outbox →
// Kafka → inbox feed → each owner's channel. Measured at the SSE client: message-to-screen latency
// (from the moment the message was due by the offered rate, so a late writer counts, to the event read by
// the owner's channel; p50/p99/max; and from the moment the
// service stored the message, the push path alone), messages lost
// (never read by their owner's channel) and duplicated (read twice by one channel); the engagement
// process's CPU seconds meanwhile and messages per CPU second (what holds on a loaded machine). Halfway through,
// a quarter of the channels are dropped and resumed with Last-Event-ID (a forced reconnect).
import { randomBytes, randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import path from 'node:path';

import { repoRoot, StackError } from '../tools/stack/util.mjs';
import { call, connectDemoTenant, cpuSeconds, json, sleep, startEngagementBench } from './engagement-setup.mjs';
import { num } from './kit.mjs';

const require = createRequire(import.meta.url);

/** Runs `work(i)` for i in [0, n) with `width` in flight. */
async function pool(n, width, work) {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(width, n) }, async () => {
      while (next < n) await work(next++);
    }),
  );
}

/** One agent's push channel: reads events, remembers the last id, resumes after it when reopened. */
class Channel {
  constructor(url, key, onEvent) {
    this.url = url;
    this.key = key;
    this.onEvent = onEvent;
    this.lastEventId = undefined;
    this.reconnects = 0;
  }

  async open() {
    this.abort = new AbortController();
    const res = await fetch(this.url, {
      headers: {
        accept: 'text/event-stream',
        'service-api-key': this.key,
        ...(this.lastEventId !== undefined ? { 'last-event-id': this.lastEventId } : {}),
      },
      signal: this.abort.signal,
    });
    if (res.status !== 200) throw new StackError(`push channel refused: ${res.status} ${await res.text()}`);
    let hello;
    const ready = new Promise((resolve) => (hello = resolve));
    this.reading = this.read(res.body, hello).catch(() => undefined);
    await ready;
  }

  /** Drops the connection and opens it again after the last id read. */
  async reconnect() {
    this.abort.abort();
    await this.reading;
    this.reconnects++;
    await this.open();
  }

  close() {
    this.abort?.abort();
  }

  async read(body, hello) {
    const decoder = new TextDecoder();
    let buffer = '';
    for await (const chunk of body) {
      buffer += decoder.decode(chunk, { stream: true });
      let cut;
      while ((cut = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        let id;
        let event = 'message';
        let data = '';
        for (const line of block.split('\n')) {
          if (line.startsWith('id: ')) id = line.slice(4);
          else if (line.startsWith('event: ')) event = line.slice(7);
          else if (line.startsWith('data: ')) data += line.slice(6);
        }
        if (!data) continue;
        if (id !== undefined) this.lastEventId = id;
        if (event === 'hello' || event === 'reset') hello(event);
        else this.onEvent(event, Number(id), JSON.parse(data), Date.now());
      }
    }
    // Ended by the server (its stream lifetime): resume as a browser would.
    if (!this.abort.signal.aborted) {
      this.reconnects++;
      await this.open();
    }
  }
}

const pct = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];

export async function engagementInboxBenchmark(ctx) {
  const agentCount = num('BENCH_INBOX_AGENTS', 20);
  const messages = num('BENCH_INBOX_MESSAGES', 2000);
  const users = num('BENCH_INBOX_USERS', 200);
  const writers = num('BENCH_INBOX_WRITERS', 32);
  const rate = num('BENCH_INBOX_RATE', 80);
  const warmUp = num('BENCH_INBOX_WARMUP', 200);
  const bench = await startEngagementBench(ctx);
  const { sandbox, base, headers } = bench;
  const tenantId = ctx.info.tenant_id;
  const channels = [];
  try {
    const { waba, line } = await connectDemoTenant(bench);
    const account = ctx.info.services.account;
    const run = randomBytes(3).toString('hex');
    const role = `bench_agent_${run}`;
    await json(`${account}/v1/roles`, {
      method: 'POST',
      headers,
      body: { name: role, permissions: ['engagement.chats.agent', 'engagement.chats.read'] },
    });
    const hubs = (await json(`${account}/v1/account/settings/billing-hubs`, { headers })).billing_hubs;
    const hub = hubs?.length ? { billing_hub: hubs[0] } : {};
    const { ApiKeySigner } = require(path.join(repoRoot, 'dist/libs/platform/src/auth/api-key.tokens.js'));
    const signer = new ApiKeySigner(ctx.stack.keys.privateKey);
    const agents = [];
    for (let i = 0; i < agentCount; i++) {
      const email = `inbox${i}-${run}@bench.test`;
      const created = await json(`${account}/v1/account/users`, {
        method: 'POST',
        headers,
        body: { email, role, ...hub },
      });
      const iat = Math.floor(Date.now() / 1000);
      const key = await signer.sign({
        jti: `KEY${randomUUID().replace(/-/g, '')}`,
        sub: created.user.user_id,
        tenant_id: tenantId,
        key_type: 'backend',
        ver: 1,
        iat,
        exp: iat + 3600,
      });
      agents.push({ email, key });
    }
    await json(`${base}/v1/engagement/agent/capacities`, {
      method: 'POST',
      headers,
      // Room for the warm-up's chats too: every measured chat gets an owner at once.
      body: { update_type: 'default', capacity: Math.ceil((users + warmUp) / agentCount) + 5 },
    });
    for (const a of agents)
      for (let i = 0; ; i++) {
        const r = await call(`${base}/v1/engagement/agent/status`, {
          method: 'POST',
          headers: { 'Service-API-Key': a.key },
          body: { username: a.email, status: 'online' },
        });
        if (r.status === 200) break;
        if (i > 200) throw new StackError(`agent ${a.email} not known to engagement: ${r.status}`);
        await sleep(100);
      }

    // Every agent's channel; what each reads.
    const sentAt = new Map();
    const received = new Map(); // message number → [{ agent, at }]
    let wrongOwner = 0;
    let warmedUp = 0;
    let outOfOrder = 0;
    const outOfOrderSeen = [];
    for (const a of agents) {
      let last = 0;
      const ch = new Channel(`${base}/v1/engagement/inbox/events`, a.key, (event, id, data, at) => {
        if (id <= last) {
          outOfOrder++;
          if (outOfOrderSeen.length < 5) outOfOrderSeen.push({ agent: a.email, event, id, after: last });
        }
        last = id;
        if (event !== 'message.received') return;
        if (/^w\d+$/.test(data.activity?.text ?? '')) warmedUp++;
        const m = /^i(\d+)$/.exec(data.activity?.text ?? '');
        if (!m) return;
        if (data.owner !== a.email) wrongOwner++;
        const list = received.get(Number(m[1])) ?? [];
        // Also from the moment the service stored the message (the webhook job's commit): the push path alone.
        list.push({ agent: a.email, id, at, stored: Date.parse(data.activity.creation_date) });
        received.set(Number(m[1]), list);
      });
      await ch.open();
      channels.push(ch);
    }
    ctx.log(`engagement-inbox: ${agentCount} agents online with a push channel each on ${line.waba_line}`);

    // Warm-up, not measured: first messages of other users at the same rate, so the figures are those
    // of a running service, not of a process's first seconds (its code not yet optimised, its pool's
    // connections not yet open). BENCH_INBOX_WARMUP=0 measures a fresh process.
    if (warmUp > 0) {
      const t0 = Date.now();
      await pool(warmUp, writers, async (i) => {
        const due = t0 + (i * 1000) / (rate || 80);
        if (due > Date.now()) await sleep(due - Date.now());
        await json(`${sandbox.url}/_sandbox/reply`, {
          method: 'POST',
          body: {
            phone_number_id: waba.phone_numbers[0].id,
            from: `57322${String(i).padStart(7, '0')}`,
            text: `w${i}`,
            name: `Warm-up ${i}`,
          },
        });
      });
      for (const end = Date.now() + 60_000; warmedUp < warmUp && Date.now() < end;) await sleep(50);
    }
    const cpuBefore = await cpuSeconds(bench.engagement.pid);
    const started = Date.now();
    let reconnected;
    await pool(messages, writers, async (i) => {
      if (i === Math.floor(messages / 2))
        reconnected = Promise.all(channels.slice(0, Math.ceil(agentCount / 4)).map((c) => c.reconnect()));
      // Open loop: message i is due at i / rate seconds, measured from then even if a writer is late.
      const due = rate > 0 ? started + (i * 1000) / rate : Date.now();
      if (due > Date.now()) await sleep(due - Date.now());
      sentAt.set(i, due);
      await json(`${sandbox.url}/_sandbox/reply`, {
        method: 'POST',
        body: {
          phone_number_id: waba.phone_numbers[0].id,
          from: `57321${String(i % users).padStart(7, '0')}`,
          text: `i${i}`,
          name: `User ${i % users}`,
        },
      });
    });
    await reconnected;
    const writtenS = (Date.now() - started) / 1000;
    // Until every message arrived, or none arrived for a minute (the rest is lost).
    for (let size = -1, still = 0; received.size < messages && still < 600;) {
      still = received.size === size ? still + 1 : 0;
      size = received.size;
      await sleep(100);
    }
    const deliveredS = (Date.now() - started) / 1000;
    const cpuAfter = await cpuSeconds(bench.engagement.pid);
    const cpuS = cpuBefore === undefined || cpuAfter === undefined ? undefined : cpuAfter - cpuBefore;
    const lost = messages - received.size;
    const duplicated = [...received.values()].filter((l) => l.length > 1).length;
    const latencies = [...received.entries()].map(([i, l]) => l[0].at - sentAt.get(i)).sort((x, y) => x - y);
    const pushed = [...received.values()].map((l) => l[0].at - l[0].stored).sort((x, y) => x - y);
    const result = {
      note: 'Taken on a shared machine loaded by other work: an upper bound, compare same-run numbers only.',
      agents: agentCount,
      users,
      messages,
      writers,
      offered_per_s: rate > 0 ? rate : 'unpaced',
      warm_up_messages: warmUp,
      messages_written_s: Math.round(writtenS * 10) / 10,
      // Until the last message reached its channel (or a minute without any).
      messages_delivered_s: Math.round(deliveredS * 10) / 10,
      // The engagement process's CPU time meanwhile (user + system), and messages per CPU second:
      // the figure that holds on a loaded machine, where wall-clock rates do not.
      engagement_cpu_s: cpuS === undefined ? null : Math.round(cpuS * 10) / 10,
      messages_per_engagement_cpu_s: cpuS ? Math.round((received.size / cpuS) * 10) / 10 : null,
      message_to_channel_ms: { p50: pct(latencies, 0.5), p99: pct(latencies, 0.99), max: latencies.at(-1) },
      stored_to_channel_ms: { p50: pct(pushed, 0.5), p99: pct(pushed, 0.99), max: pushed.at(-1) },
      lost,
      duplicated,
      wrong_owner: wrongOwner,
      ids_not_increasing: outOfOrder,
      forced_reconnects: channels.reduce((n, c) => n + c.reconnects, 0),
      // The first few of each, to tell a repeat on one channel from a message pushed to two owners.
      duplicates_seen: [...received.entries()]
        .filter(([, l]) => l.length > 1)
        .slice(0, 5)
        .map(([i, l]) => ({ message: i, readings: l.map(({ agent, id }) => ({ agent, id })) })),
      ids_not_increasing_seen: outOfOrderSeen,
    };
    ctx.log(
      `engagement-inbox: ${messages} messages (${rate > 0 ? `${rate}/s` : 'unpaced'}) to ${agentCount} agents' channels: p50 ${result.message_to_channel_ms.p50} ms, p99 ${result.message_to_channel_ms.p99} ms, max ${result.message_to_channel_ms.max} ms (stored to channel: p50 ${result.stored_to_channel_ms.p50} ms, p99 ${result.stored_to_channel_ms.p99} ms); lost ${lost}, duplicated ${duplicated}, wrong owner ${wrongOwner}, reconnects ${result.forced_reconnects}; delivered in ${result.messages_delivered_s} s, engagement CPU ${result.engagement_cpu_s} s (${result.messages_per_engagement_cpu_s} messages per CPU second)`,
    );
    return { result };
  } finally {
    for (const c of channels) c.close();
    await bench.stop();
  }
}
