import { Collector } from '../collectors/collector';
import { CollectorRegistry } from '../collectors/collector.registry';
import { asksInline } from './collector-call';

const collector = (databaseId: string, over: Partial<Collector> = {}): Collector => ({
  databaseId,
  databaseName: databaseId,
  country: 'CO',
  dataSets: ['criminal_record'],
  checkTypes: ['person'],
  searches: [{ by: 'id', inputs: ['national_id'] }],
  needsCredentials: false,
  expectedLatencyMs: 60_000,
  language: 'es',
  group: 'legal',
  answerLatencyMs: () => 1_500,
  collect: () => Promise.resolve({ kind: 'answer', records: [] }),
  ...over,
});

const registry = new CollectorRegistry(
  [
    collector('quick'),
    collector('no-latency-declared', { answerLatencyMs: undefined }),
    collector('delayed-first-ask', { firstAskDelayMs: () => 700 }),
    collector('credentials', { needsCredentials: true }),
    collector('webhook', { webhookType: 'sandbox', answerLatencyMs: () => 0 }),
    collector('slow', { answerLatencyMs: () => 5_000 }),
  ],
  [],
);
const check = { country: 'CO', type: 'person', region: null } as const;
const inline = (max: number) =>
  registry
    .all()
    .filter((c) => asksInline(registry, max, check, c.databaseId))
    .map((c) => c.databaseId);

describe('which databases the start job asks inline', () => {
  it('asks synchronous databases without credentials or first-ask delay whose declared answer time is at most CHECKS_INLINE_COLLECT_MAX_MS', () => {
    expect(inline(2_000)).toEqual(['quick']);
    expect(inline(5_000)).toEqual(['quick', 'slow']);
    expect(inline(1_000)).toEqual([]);
  });

  it('asks none when CHECKS_INLINE_COLLECT_MAX_MS is 0', () => {
    expect(inline(0)).toEqual([]);
  });
});
