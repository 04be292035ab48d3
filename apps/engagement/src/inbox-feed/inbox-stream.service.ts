import { ENGAGEMENT_AGENT, ENGAGEMENT_MANAGE } from '@kyc/contracts';
import { Caller, FieldError, foregroundLoad, ValidationFailedException } from '@kyc/platform';
import { Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';

import { agentEmail } from '../chats/chat-access';
import { EngagementConfig } from '../config/engagement.config';
import { InboxEventRow, InboxView } from './inbox-event';
import { InboxFeedService } from './inbox-feed.service';

/** A comment line every this long keeps proxies from closing an idle stream. */
const HEARTBEAT_MS = 15_000;
/** A client this far behind (bytes not yet taken by the socket) is dropped; it resumes from its last id. */
const MAX_BUFFERED_BYTES = 1 << 20;
/** How soon a browser reconnects after the stream ends (the SSE `retry:` field). */
const RETRY_MS = 500;

const frame = (id: number, event: string, data: unknown) =>
  `id: ${id}\nevent: ${event}\ndata: ${JSON.stringify(data)}\n\n`;

const presentChat = (row: InboxEventRow) => ({
  ...row.data,
  chat_id: row.chat_id,
  owner: row.owner,
  ...(row.previous_owner ? { previous_owner: row.previous_owner } : {}),
  at: new Date(row.created_at).toISOString(),
});

/**
 * What a channel's event carries besides its data: the chat, its owner then, when it happened (an
 * agent's event: its data, which names the agent, and when it happened).
 */
const present = (row: InboxEventRow) =>
  row.chat_id === null ? { ...row.data, at: new Date(row.created_at).toISOString() } : presentChat(row);

/**
 * One push channel (server-sent events) of a caller: opens with `hello` (or `reset` when the given
 * Last-Event-ID lies outside the replay window: reload, then follow), replays the rows after the
 * resume point, then follows the feed live, every event with its seq as `id`. The stream ends after
 * ENGAGEMENT_INBOX_STREAM_MAX_S, so the client reconnects with a fresh key and is authorised again.
 */
@Injectable()
export class InboxStreamService {
  constructor(
    private readonly feed: InboxFeedService,
    private readonly config: EngagementConfig,
  ) {}

  /** The caller's scoping (inbox-event.ts visibleTo). */
  view(caller: Caller): InboxView {
    const all = caller.hasAny(ENGAGEMENT_MANAGE) || !caller.hasAny(ENGAGEMENT_AGENT);
    return { tenantId: caller.tenantId, me: agentEmail(caller), all };
  }

  /** The resume point: the Last-Event-ID header, else the query's `last_event_id`. */
  lastEventId(req: FastifyRequest, query?: string): number | undefined {
    const header = req.headers['last-event-id'];
    const given = typeof header === 'string' && header.trim() !== '' ? header.trim() : query;
    if (given === undefined) return undefined;
    if (!/^\d{1,15}$/.test(given)) {
      const errors: FieldError[] = [{ field: 'Last-Event-ID', message: 'must be an event id (digits)' }];
      throw new ValidationFailedException(errors);
    }
    return Number(given);
  }

  async open(caller: Caller, req: FastifyRequest, reply: FastifyReply, lastEventId: number | undefined) {
    const view = this.view(caller);
    const start = await this.feed.start(lastEventId);
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
      'x-request-id': String(req.id),
    });
    // An open channel waits idle for events: it is no foreground load for the job queues to yield to.
    foregroundLoad.streaming(res);
    res.write(`retry: ${RETRY_MS}\n`);
    res.write(
      frame(start.cursor, start.reset ? 'reset' : 'hello', {
        resumed: lastEventId !== undefined && !start.reset,
        ...(start.reset ? { reason: 'the last event id is outside the replay window: reload, then follow' } : {}),
        replay_window_minutes: this.config.ENGAGEMENT_INBOX_REPLAY_MINUTES,
      }),
    );
    let ended = false;
    const end = () => {
      if (ended) return;
      ended = true;
      clearInterval(heartbeat);
      clearTimeout(lifetime);
      this.feed.close(channel);
      res.end();
    };
    const channel = this.feed.open(view, start.cursor, (row) => {
      if (ended) return;
      res.write(frame(Number(row.seq), row.type, present(row)));
      if (res.writableLength > MAX_BUFFERED_BYTES) end();
    });
    channel.end = end;
    const heartbeat = setInterval(() => res.write(': ping\n\n'), HEARTBEAT_MS);
    const lifetime = setTimeout(end, this.config.ENGAGEMENT_INBOX_STREAM_MAX_S * 1000);
    heartbeat.unref();
    lifetime.unref();
    req.raw.on('close', end);
    res.on('close', end);
    res.on('error', end);
  }
}
