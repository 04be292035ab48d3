import { ApiClient, closeDb, createTenant, ServiceProcess, testKafka, TestTenant } from '@kyc/testing';
import type { Producer } from 'kafkajs';

import { startAccount, startChecks, startCustomers, waitFor } from './customers-helpers';

let seq = Math.floor(Math.random() * 1e6);
/** A number of its own for each document, phone or e-mail a test makes. */
export const nextSeq = () => seq++;
export const nextDocument = () => String(7_000_000_000 + seq++);
export const nextPhone = () => `+5731${String(seq++).padStart(8, '0')}`;

/** The suites' bindings, set by useProfilesSuite's beforeAll. */
export let account: ServiceProcess;
export let checks: ServiceProcess;
export let customers: Awaited<ReturnType<typeof startCustomers>>;
export let tenant: TestTenant;
export let other: TestTenant;
export let api: ApiClient;
export let checksApi: ApiClient;
export let producer: Producer;

export const byDocument = async (client: ApiClient, doc: string) =>
  (await client.get(`/v1/customers?basic_info=true&search=${doc}&search_field=document_id`)).body.customers as any[];

export const transactionsOf = async (id: string, query = '') =>
  (await api.get(`/v1/customers/${id}/transactions${query}`)).body.transactions as any[];

export const profileWith = (doc: string, transactions: number) =>
  waitFor(async () => {
    const found = await byDocument(api, doc);
    expect(found).toHaveLength(1);
    expect(await transactionsOf(found[0].id)).toHaveLength(transactions);
    return found[0];
  });

/**
 * Registers a customer profiles suite's setup and teardown: account, checks and customers, a tenant
 * of all three and another of customers only, and a Kafka producer for the events tests publish.
 */
export function useProfilesSuite(): void {
  beforeAll(async () => {
    [account, checks, customers] = await Promise.all([startAccount(), startChecks(), startCustomers()]);
    [tenant, other] = await Promise.all([
      createTenant(account.url, [customers.url, checks.url]),
      createTenant(account.url, [customers.url]),
    ]);
    api = new ApiClient(customers.url, tenant.apiKey);
    checksApi = new ApiClient(checks.url, tenant.apiKey);
    producer = testKafka().producer();
    await producer.connect();
  });

  afterAll(async () => {
    await producer?.disconnect();
    await customers?.close();
    await Promise.all([checks?.close(), account?.close()]);
    await closeDb();
  });
}
