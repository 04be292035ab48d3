import type Provider from 'oidc-provider';

type ClientModel = Provider['Client'];
type Client = NonNullable<Awaited<ReturnType<ClientModel['find']>>>;

/** A client is kept this long per replica (an application edit takes effect within it). */
export const CLIENT_CACHE_MS = 5_000;
/** Most client ids kept: any caller can name any id (unknown ones are kept too), so the oldest entry goes first. */
export const MAX_CACHED_CLIENTS = 10_000;

/**
 * Keeps each client oidc-provider finds for CLIENT_CACHE_MS (unknown ids too), per provider instance.
 * oidc-provider reads a client's metadata through the adapter on every request and fingerprints it (a hash
 * of the whole metadata object) to reuse its Client instance; this answers its `Client.find` from the
 * instance it made, for the time the metadata would have been cached anyway.
 */
export function cacheClients(provider: Provider, now: () => number): void {
  const model = provider.Client;
  const find = model.find.bind(model);
  const cache = new Map<string, { at: number; client: Client | undefined }>();
  model.find = async (id: string) => {
    const cached = cache.get(id);
    if (cached && now() - cached.at < CLIENT_CACHE_MS) return cached.client;
    const client = await find(id);
    if (typeof id === 'string') {
      cache.delete(id);
      if (cache.size >= MAX_CACHED_CLIENTS) cache.delete(cache.keys().next().value as string);
      cache.set(id, { at: now(), client });
    }
    return client;
  };
}
