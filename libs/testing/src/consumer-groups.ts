// A started service's Kafka consumer group in a test run: placed at the topics' ends the first time a
// suite starts it, and waited for until it has consumed what its topics held when it joined.
import { Admin, AssignerProtocol, Kafka } from 'kafkajs';

/** The consumer groups this suite (this test file) has started a service in, placed at the topics' ends. */
const placedGroups = new Map<string, Promise<void>>();

/**
 * The first time a suite starts a service in a consumer group, the group's offsets move to the end of
 * every topic: the service consumes what is published from then on, not the run's earlier events (other
 * suites' events, among them the poison events some publish on purpose, which a fresh group would retry
 * with backoff before parking them). A later start in the same group (a restart, a second replica)
 * resumes where the group stopped, as a deployed service does. A group that has members (another
 * process of the suite's) is left as it is. Best effort, like the lag wait: an error is one line on stderr.
 */
export function startsAtTopicEnds(kafka: Kafka, groupId: string): Promise<void> {
  let placed = placedGroups.get(groupId);
  if (!placed) {
    placed = placeAtTopicEnds(kafka, groupId).catch((err: unknown) => {
      process.stderr.write(`consumer group ${groupId}: not placed at the topics' ends (${String(err)}); going on\n`);
    });
    placedGroups.set(groupId, placed);
  }
  return placed;
}

async function placeAtTopicEnds(kafka: Kafka, groupId: string): Promise<void> {
  const admin = kafka.admin();
  await admin.connect();
  let offsets: { topic: string; partition: number; offset: string }[];
  try {
    const [group] = (await admin.describeGroups([groupId])).groups;
    if (group?.members.length) return;
    const topics = (await admin.listTopics()).filter((topic) => !topic.startsWith('__'));
    offsets = (
      await Promise.all(
        topics.map(async (topic) =>
          (await admin.fetchTopicOffsets(topic)).map((p) => ({ topic, partition: p.partition, offset: p.high })),
        ),
      )
    ).flat();
  } finally {
    await admin.disconnect();
  }
  if (!offsets.length) return;
  // One member joins, commits the ends of every partition and leaves (admin.setOffsets joins once per topic).
  // A short fetch wait: leaving waits for the fetch under way (kafkajs' default would add 5 s to each start).
  const consumer = kafka.consumer({ groupId, allowAutoTopicCreation: false, maxWaitTimeInMs: 50 });
  await consumer.connect();
  try {
    await consumer.subscribe({ topics: [...new Set(offsets.map((o) => o.topic))] });
    const joined = new Promise<void>((resolve) => consumer.on(consumer.events.GROUP_JOIN, () => resolve()));
    await consumer.run({ autoCommit: false, eachBatchAutoResolve: false, eachBatch: async () => undefined });
    await joined;
    await consumer.commitOffsets(offsets);
  } finally {
    await consumer.disconnect();
  }
}

/**
 * Waits until a service's consumer group has committed every record its topics held when it joined.
 *
 * A suite that starts a service in a consumer group of its own (or the shared group after other suites)
 * replays the run's earlier events first, among them the poison events other suites publish on purpose
 * (each is retried with backoff before it is parked). Waiting for that backlog here, under the hook's
 * timeout, keeps it out of the first test's own waiting. A group with no member (a service that consumes
 * nothing) returns at once; a backlog not drained in `timeoutMs` is reported on stderr, not thrown, so a
 * suite whose consumer is blocked on purpose still runs.
 */
export async function consumerGroupCaughtUp(kafka: Kafka, groupId: string, timeoutMs = 120_000): Promise<void> {
  // Never thrown: the service is up, and a caller that failed here would leave it running unreferenced,
  // consuming later suites' events in the group.
  await waitForGroup(kafka, groupId, timeoutMs).catch((err: unknown) =>
    process.stderr.write(`consumer group ${groupId}: could not tell its lag (${String(err)}); going on\n`),
  );
}

async function waitForGroup(kafka: Kafka, groupId: string, timeoutMs: number): Promise<void> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    const deadline = Date.now() + timeoutMs;
    const topics = await subscribedTopics(admin, groupId, deadline);
    if (!topics.length) return;
    const ends = new Map<string, number>();
    for (const topic of topics)
      for (const p of await admin.fetchTopicOffsets(topic)) ends.set(`${topic}/${p.partition}`, Number(p.high));
    for (;;) {
      const committed = await admin.fetchOffsets({ groupId, topics });
      const behind = committed.flatMap(({ topic, partitions }) =>
        partitions.filter((p) => Math.max(0, Number(p.offset)) < (ends.get(`${topic}/${p.partition}`) ?? 0)),
      );
      if (!behind.length) return;
      if (Date.now() > deadline) {
        process.stderr.write(`consumer group ${groupId} still behind after ${timeoutMs} ms; going on\n`);
        return;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  } finally {
    await admin.disconnect();
  }
}

/**
 * The topics a consumer group's members subscribe to, read once the group is stable: while members
 * join (replicas started side by side), their metadata is not complete yet. None for a group without
 * members; what the members said, if the group is still rebalancing at the deadline.
 */
async function subscribedTopics(admin: Admin, groupId: string, deadline: number): Promise<string[]> {
  for (;;) {
    const [group] = (await admin.describeGroups([groupId])).groups;
    if (!group?.members.length) return [];
    const stable = group.state === 'Stable';
    const topics = new Set<string>();
    for (const m of group.members) {
      try {
        for (const t of AssignerProtocol.MemberMetadata.decode(m.memberMetadata)?.topics ?? []) topics.add(t);
      } catch {
        // Metadata of a member still joining: asked again below.
      }
    }
    if ((stable && topics.size) || Date.now() > deadline) return [...topics];
    await new Promise((r) => setTimeout(r, 100));
  }
}
