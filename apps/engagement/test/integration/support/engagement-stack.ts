import { ServiceOptions } from '@kyc/platform';
import {
  ApiClient,
  closeDb,
  createTenant,
  RunningService,
  SandboxMessaging,
  SandboxMessagingOptions,
  startInProcess,
  startSandboxMessaging,
  startService,
  TestTenant,
} from '@kyc/testing';

import { engagementService } from '../../../src/app.module';
import { ConnectedTenant, connectTenant } from './engagement-helpers';

export interface EngagementStackOptions {
  /** The account service's Kafka consumer group: one per suite, so suites never share access events. */
  consumerGroup: string;
  /** The sandbox provider's options (default: a review after 150 ms, statuses 60 ms apart). */
  sandbox?: SandboxMessagingOptions;
  /** Engagement variables besides the sandbox's Graph URL (JOBS_POLL_MS is 50 unless given). */
  env?: Record<string, string>;
  /** The engagement service's options (e.g. a ManualClock). */
  options?: ServiceOptions;
}

/** A suite's running services; filled in by the suite's beforeAll (see useEngagementStack). */
export interface EngagementStack {
  account: RunningService;
  engagement: Awaited<ReturnType<typeof startInProcess>>;
  sandbox: SandboxMessaging;
  /** A new tenant of the account service with its own WABA connected at the sandbox provider. */
  connectedTenant(): Promise<{ tenant: TestTenant; t: ConnectedTenant }>;
}

/**
 * Registers the suite's beforeAll and afterAll: the sandbox provider, the account service and the
 * engagement service on the sandbox's Graph API, with the sandbox's webhooks posted to engagement.
 * The returned object's fields are set once beforeAll ran.
 */
export function useEngagementStack(o: EngagementStackOptions): EngagementStack {
  const stack = {} as EngagementStack;
  beforeAll(async () => {
    const sandbox = await startSandboxMessaging(o.sandbox ?? { reviewDelayMs: 150, statusDelayMs: 60 });
    stack.sandbox = sandbox;
    [stack.account, stack.engagement] = await Promise.all([
      startService('account', { KAFKA_CONSUMER_GROUP: o.consumerGroup }),
      startInProcess(
        'engagement',
        engagementService,
        { ENGAGEMENT_GRAPH_BASE_URL: sandbox.graphUrl, JOBS_POLL_MS: '50', ...o.env },
        o.options,
      ),
    ]);
    sandbox.setWebhookUrl(`${stack.engagement.url}/v1/msg/whatsapp/statuses`);
    stack.connectedTenant = async () => {
      const tenant = await createTenant(stack.account.url, [stack.engagement.url]);
      return { tenant, t: await connectTenant(new ApiClient(stack.engagement.url, tenant.apiKey), sandbox) };
    };
  });

  afterAll(async () => {
    await Promise.all([stack.engagement?.close(), stack.account?.close(), stack.sandbox?.stop()]);
    await closeDb();
  });
  return stack;
}
