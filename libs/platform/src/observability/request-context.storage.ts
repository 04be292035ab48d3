import { AsyncLocalStorage } from 'node:async_hooks';

/** Per-request (or per-consumed-event) values that logs and outbox events pick up. */
export interface AmbientContext {
  requestId: string;
  tenantId?: string;
}

export const ambientContext = new AsyncLocalStorage<AmbientContext>();

export const currentRequestId = (): string | undefined => ambientContext.getStore()?.requestId;
