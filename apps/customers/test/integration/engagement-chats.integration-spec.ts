import { randomUUID } from 'node:crypto';

import { ChatAssignedEvent, ChatClosedEvent, ChatOpenedEvent, EventEnvelope, TOPICS } from '@kyc/contracts';
import { ApiClient, closeDb, createTenant, ServiceProcess, testKafka, TestTenant } from '@kyc/testing';
import type { Producer } from 'kafkajs';

import { publish, startAccount, startCustomers, waitFor } from './support/customers-helpers';

const envelope = <T>(tenantId: string, type: string, chatId: string, payload: T, at: Date): EventEnvelope<T> => ({
  id: randomUUID(),
  type,
  version: 1,
  tenant_id: tenantId,
  occurred_at: at.toISOString(),
  aggregate_id: chatId,
  payload,
});

/**
 * The engagement service's chat events (engagement.chat.opened / assigned / closed, as
 * libs/contracts types them) become one `engagement-chat` transaction per chat on the user's
 * profile, through Kafka, following the chat's status.
 */
describe('customers: chats of the agent workspace as engagement-chat transactions', () => {
  let account: ServiceProcess;
  let customers: Awaited<ReturnType<typeof startCustomers>>;
  let tenant: TestTenant;
  let api: ApiClient;
  let producer: Producer;

  beforeAll(async () => {
    [account, customers] = await Promise.all([startAccount(), startCustomers()]);
    tenant = await createTenant(account.url, [customers.url]);
    api = new ApiClient(customers.url, tenant.apiKey);
    producer = testKafka().producer();
    await producer.connect();
  });

  afterAll(async () => {
    await producer?.disconnect();
    await customers?.close();
    await account?.close();
    await closeDb();
  });

  it('folds a chat opened, assigned and closed into one transaction on the profile of the phone', async () => {
    const chatId = `CHT${randomUUID().replace(/-/g, '')}`;
    const phone = `+5732${String(Date.now()).slice(-8)}`;
    const base = {
      chat_id: chatId,
      waba_phone_number: '+573000000001',
      user_phone_number: phone,
      contact_name: 'Ana Gómez',
      tags: ['vip'],
    };
    const t0 = Date.now() - 60_000;
    await publish(
      producer,
      envelope<ChatOpenedEvent>(
        tenant.tenantId,
        TOPICS.engagementChatOpened,
        chatId,
        { ...base, status: 'open', opened_at: new Date(t0).toISOString() },
        new Date(t0),
      ),
      envelope<ChatAssignedEvent>(
        tenant.tenantId,
        TOPICS.engagementChatAssigned,
        chatId,
        {
          ...base,
          status: 'open',
          owner: 'agent@acme.com',
          assigned_by: 'ruleset',
          assigned_at: new Date(t0 + 1000).toISOString(),
        },
        new Date(t0 + 1000),
      ),
      envelope<ChatClosedEvent>(
        tenant.tenantId,
        TOPICS.engagementChatClosed,
        chatId,
        {
          ...base,
          status: 'closed',
          owner: 'agent@acme.com',
          opened_at: new Date(t0).toISOString(),
          closed_at: new Date(t0 + 5000).toISOString(),
          messages: 3,
        },
        new Date(t0 + 5000),
      ),
    );
    const profile = await waitFor(async () => {
      const found = (
        await api.get(`/v1/customers?basic_info=true&search=${encodeURIComponent(phone)}&search_field=phone_number`)
      ).body.customers;
      if (!found?.length) throw new Error('no profile yet');
      return found[0];
    });
    expect(profile).toMatchObject({ phone, name: 'Ana Gómez' });
    const transactions = await waitFor(async () => {
      const list = (await api.get(`/v1/customers/${profile.id}/transactions?product=engagement-chat`)).body
        .transactions as any[];
      if (list[0]?.status !== 'closed') throw new Error(`transaction not closed yet: ${JSON.stringify(list)}`);
      return list;
    });
    expect(transactions).toHaveLength(1);
    expect(transactions[0]).toMatchObject({ product: 'engagement-chat', status: 'closed' });
    const full = (await api.get(`/v1/customers/${profile.id}`)).body.customer;
    expect(full.summary.chats_count).toBe(1);
    expect(full.tags).toEqual(['vip']);
  });
});
