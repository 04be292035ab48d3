import { db, SandboxMessaging } from '@kyc/testing';

import { ConnectedTenant } from './engagement-helpers';
import { EngagementStack, useEngagementStack } from './engagement-stack';

export const QR = (text: string) => ({ type: 'QUICK_REPLY', text });
export const URL_BUTTON = { type: 'URL', text: 'Ver pedido', url: 'https://shop.example.com/orders/{{.order}}' };
export const PHONE = { type: 'PHONE_NUMBER', text: 'Llamar', phone_number: '+573001112233' };
export const COPY = { type: 'COPY_CODE', text: '' };

/** The outbounds suites' bindings, set by useOutboundsSuite's beforeAll. */
export let engagement: EngagementStack['engagement'];
export let sandbox: SandboxMessaging;
/** The tenant under test, and another one (for the cross-tenant 404s). */
export let t: ConnectedTenant;
export let tenantId: string;
export let other: ConnectedTenant;
/** Another connected tenant of the suite's stack, for tests that change a tenant's provider account. */
export let newTenant: EngagementStack['connectedTenant'];

export const outboundCount = async () =>
  Number(
    (await db().query(`SELECT count(*)::int AS n FROM engagement.outbounds WHERE tenant_id = $1`, [tenantId])).rows[0]
      .n,
  );

let shared: EngagementStack | undefined;

/**
 * Registers the outbounds suites' one stack (outbounds-api.integration-spec.ts runs them all on it):
 * the sandbox provider, account and engagement with wa.me activation links.
 */
export function useOutboundsStack(consumerGroup: string): void {
  const stack = useEngagementStack({ consumerGroup, env: { ENGAGEMENT_MSGAPP_LINK_URL: 'https://wa.me' } });
  shared = stack;
  beforeAll(() => {
    ({ engagement, sandbox } = stack);
    newTenant = () => stack.connectedTenant();
  });
}

/** Registers a suite's own two connected tenants on the shared stack (as each suite had with a stack of its own). */
export function useOutboundsTenants(): void {
  beforeAll(async () => {
    const [a, b] = await Promise.all([shared!.connectedTenant(), shared!.connectedTenant()]);
    tenantId = a.tenant.tenantId;
    t = a.t;
    other = b.t;
  });
}
