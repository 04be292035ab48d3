/** One server-sent event as a client reads it. */
export interface SseEvent {
  id?: string;
  event: string;
  data: any;
  /** When the client read it (performance.now()). */
  at: number;
}

/**
 * A server-sent events client over fetch (Node has no EventSource): keeps every event read, resumes
 * with Last-Event-ID when asked to, and waits for conditions.
 */
export class SseClient {
  readonly events: SseEvent[] = [];
  lastEventId?: string;
  status = 0;
  private abort?: AbortController;
  private listeners = new Set<() => void>();
  private done?: Promise<void>;

  constructor(
    private readonly url: string,
    private readonly headers: Record<string, string>,
  ) {}

  /** Opens the stream (resuming after `lastEventId` when given) and answers once the headers came. */
  async open(lastEventId?: string): Promise<number> {
    this.abort = new AbortController();
    const res = await fetch(this.url, {
      headers: {
        accept: 'text/event-stream',
        ...this.headers,
        ...(lastEventId !== undefined ? { 'last-event-id': lastEventId } : {}),
      },
      signal: this.abort.signal,
    });
    this.status = res.status;
    if (res.status !== 200 || !res.body) {
      this.body = await res.json().catch(() => undefined);
      return res.status;
    }
    this.done = this.read(res.body).catch(() => undefined);
    return res.status;
  }

  /** The error envelope when the stream was refused. */
  body?: any;

  close(): void {
    this.abort?.abort();
  }

  /** Events of these types. */
  of(...types: string[]): SseEvent[] {
    return this.events.filter((e) => types.includes(e.event));
  }

  /** Waits until `check` holds for the events read (or fails after `timeoutMs`). */
  waitFor<T>(check: (events: SseEvent[]) => T | undefined | false, timeoutMs = 10_000): Promise<T> {
    return new Promise((resolve, reject) => {
      const test = () => {
        const v = check(this.events);
        if (v) {
          cleanup();
          resolve(v);
        }
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(
          new Error(
            `condition not met in ${timeoutMs} ms; events: ${JSON.stringify(this.events.map((e) => [e.id, e.event]))}`,
          ),
        );
      }, timeoutMs);
      const cleanup = () => {
        clearTimeout(timer);
        this.listeners.delete(test);
      };
      this.listeners.add(test);
      test();
    });
  }

  private async read(body: ReadableStream<Uint8Array>): Promise<void> {
    const decoder = new TextDecoder();
    let buffer = '';
    for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
      buffer += decoder.decode(chunk, { stream: true });
      let cut: number;
      while ((cut = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        let id: string | undefined;
        let event = 'message';
        const data: string[] = [];
        for (const line of block.split('\n')) {
          if (line.startsWith(':')) continue;
          const [field, ...rest] = line.split(':');
          const value = rest.join(':').replace(/^ /, '');
          if (field === 'id') id = value;
          else if (field === 'event') event = value;
          else if (field === 'data') data.push(value);
        }
        if (!data.length) continue;
        if (id !== undefined) this.lastEventId = id;
        this.events.push({ id, event, data: JSON.parse(data.join('\n')), at: performance.now() });
        for (const l of [...this.listeners]) l();
      }
    }
  }

  /** Resolves when the server ended the stream. */
  ended(): Promise<void> {
    return this.done ?? Promise.resolve();
  }
}
