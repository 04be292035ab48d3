import { CheckRequestedPayload, EventEnvelope } from '@kyc/contracts';
import { InboxService } from '@kyc/platform';

import { RuleCheckCreator, RuleCheckInputs, RuleCheckMeta, RuleCheckRejected } from './rule-check-creator';
import { RuleCheckRequestedConsumer } from './rule-check-requested.consumer';

const payload: CheckRequestedPayload = {
  tenant_id: 't1',
  requested_by: 'u1',
  rule_id: 'RUL1',
  rule_version: 2,
  action_id: 'ACT1',
  execution_id: 'EXE1',
  source_event_id: 'ev0',
  source_check_id: 'CHK0',
  depth: 2,
  type: 'person',
  country: 'CO',
  inputs: { national_id: '123' },
  user_authorized: true,
};
const event: EventEnvelope<CheckRequestedPayload> = {
  id: 'ev1',
  type: 'account.check.requested',
  version: 1,
  tenant_id: 't1',
  occurred_at: new Date().toISOString(),
  aggregate_id: 'EXE1',
  payload,
};

/** An inbox that runs the effect once per event id, like the real one. */
function fakeInbox() {
  const seen = new Set<string>();
  const manager = { marker: 'tx' };
  return {
    manager,
    inbox: {
      handle: async (_consumer: string, e: EventEnvelope, effect: (m: unknown, e: EventEnvelope) => Promise<void>) => {
        if (seen.has(e.id)) return 'duplicate';
        await effect(manager, e);
        seen.add(e.id);
        return 'processed';
      },
    } as unknown as InboxService,
  };
}

class RecordingCreator extends RuleCheckCreator {
  calls: [string, RuleCheckInputs, RuleCheckMeta][] = [];
  failWith?: Error;
  async create(tenantId: string, inputs: RuleCheckInputs, meta: RuleCheckMeta) {
    if (this.failWith) throw this.failWith;
    this.calls.push([tenantId, inputs, meta]);
    return { checkId: 'CHK1' };
  }
}

describe('RuleCheckRequestedConsumer', () => {
  it('creates the check for the tenant with the mapped inputs, depth and execution, in the inbox transaction', async () => {
    const { inbox, manager } = fakeInbox();
    const creator = new RecordingCreator();
    await new RuleCheckRequestedConsumer(inbox, creator).onCheckRequested(event);
    expect(creator.calls).toEqual([
      [
        't1',
        { type: 'person', country: 'CO', inputs: { national_id: '123' }, user_authorized: true },
        expect.objectContaining({
          manager,
          commandId: 'ev1',
          requestedBy: 'u1',
          executionId: 'EXE1',
          depth: 2,
          ruleId: 'RUL1',
          sourceCheckId: 'CHK0',
        }),
      ],
    ]);
  });

  it('creates nothing for a redelivered command', async () => {
    const { inbox } = fakeInbox();
    const creator = new RecordingCreator();
    const consumer = new RuleCheckRequestedConsumer(inbox, creator);
    await consumer.onCheckRequested(event);
    await consumer.onCheckRequested(event);
    expect(creator.calls).toHaveLength(1);
  });

  it('acknowledges a command the creation rules refuse, and lets other errors through for retry', async () => {
    const { inbox } = fakeInbox();
    const creator = new RecordingCreator();
    const consumer = new RuleCheckRequestedConsumer(inbox, creator);
    creator.failWith = new RuleCheckRejected('unknown check type');
    await expect(consumer.onCheckRequested(event)).resolves.toBeUndefined();
    creator.failWith = new Error('database down');
    await expect(consumer.onCheckRequested({ ...event, id: 'ev2' })).rejects.toThrow('database down');
  });
});
