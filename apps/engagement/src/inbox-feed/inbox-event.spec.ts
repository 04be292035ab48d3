import { TOPICS } from '@kyc/contracts';

import { agentEventRow, InboxView, visibleTo } from './inbox-event';

const manager: InboxView = { tenantId: 't1', all: true };
const ana: InboxView = { tenantId: 't1', me: 'ana@acme.com', all: false };
const bea: InboxView = { tenantId: 't1', me: 'bea@acme.com', all: false };
const otherManager: InboxView = { tenantId: 't2', all: true };

const envelope = (payload: Record<string, unknown>) => ({
  id: 'e1',
  type: TOPICS.engagementAgentStatusChanged,
  version: 1,
  tenant_id: 't1',
  occurred_at: '2026-11-28T10:00:00.000Z',
  aggregate_id: 'u1',
  payload,
});

describe('inbox feed scoping of agents’ events', () => {
  const status = agentEventRow(
    TOPICS.engagementAgentStatusChanged,
    envelope({ username: 'Ana@Acme.com', status: 'offline', previous_status: 'online' }) as never,
  )!;

  it('an agent’s status is a row without a chat, owned by the agent it names (lowercased)', () => {
    expect(status).toMatchObject({ chat_id: null, owner: 'ana@acme.com', type: 'agent.status', tenant_id: 't1' });
  });

  it('reaches the tenant’s managers and the agent herself, never another agent nor another tenant', () => {
    expect(visibleTo(status, manager)).toBe(true);
    expect(visibleTo(status, ana)).toBe(true);
    expect(visibleTo(status, bea)).toBe(false);
    expect(visibleTo(status, otherManager)).toBe(false);
  });

  it('a change of the tenant’s capacity settings names no agent: managers only', () => {
    const settings = agentEventRow(
      TOPICS.engagementAgentCapacityChanged,
      envelope({ update_type: 'default', default_capacity: 4, capacity_enabled: true }) as never,
    )!;
    expect(settings).toMatchObject({ chat_id: null, owner: null, type: 'agent.capacity' });
    expect(visibleTo(settings, manager)).toBe(true);
    expect(visibleTo(settings, ana)).toBe(false);
  });

  it('a queued chat’s row (no owner) still reaches every agent of the tenant', () => {
    const queued = { tenant_id: 't1', chat_id: 'CHT-1', owner: null, previous_owner: null };
    expect(visibleTo(queued, ana)).toBe(true);
    expect(visibleTo(queued, bea)).toBe(true);
  });

  it('another topic is no agent row', () => {
    expect(agentEventRow(TOPICS.engagementChatOpened, envelope({ username: 'ana@acme.com' }) as never)).toBeUndefined();
  });
});
