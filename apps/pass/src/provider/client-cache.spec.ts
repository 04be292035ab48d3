import type Provider from 'oidc-provider';

import { cacheClients, CLIENT_CACHE_MS, MAX_CACHED_CLIENTS } from './client-cache';

describe('cacheClients', () => {
  const setup = () => {
    let now = 0;
    const clients = new Map<string, { clientId: string }>([['pc_1', { clientId: 'pc_1' }]]);
    const find = jest.fn((id: string) => Promise.resolve(clients.get(id)));
    const provider = { Client: { find } } as unknown as Provider;
    cacheClients(provider, () => now);
    return { provider, find, clients, advance: (ms: number) => (now += ms) };
  };

  it('answers a client found less than the cache time ago without finding it again', async () => {
    const { provider, find } = setup();
    const first = await provider.Client.find('pc_1');
    expect(await provider.Client.find('pc_1')).toBe(first);
    expect(find).toHaveBeenCalledTimes(1);
  });

  it('finds the client again once the cache time has passed (an edit or a deletion takes effect)', async () => {
    const { provider, find, clients, advance } = setup();
    await provider.Client.find('pc_1');
    clients.delete('pc_1');
    advance(CLIENT_CACHE_MS - 1);
    expect(await provider.Client.find('pc_1')).toEqual({ clientId: 'pc_1' });
    advance(1);
    expect(await provider.Client.find('pc_1')).toBeUndefined();
    expect(find).toHaveBeenCalledTimes(2);
  });

  it('keeps unknown clients apart from known ones', async () => {
    const { provider, find } = setup();
    expect(await provider.Client.find('pc_unknown')).toBeUndefined();
    expect(await provider.Client.find('pc_1')).toEqual({ clientId: 'pc_1' });
    expect(find).toHaveBeenCalledTimes(2);
  });

  it('keeps at most MAX_CACHED_CLIENTS ids, dropping the oldest first', async () => {
    const { provider, find } = setup();
    await provider.Client.find('pc_1');
    for (let i = 0; i < MAX_CACHED_CLIENTS; i++) await provider.Client.find(`pc_unknown_${i}`);
    expect(find).toHaveBeenCalledTimes(MAX_CACHED_CLIENTS + 1);
    await provider.Client.find(`pc_unknown_${MAX_CACHED_CLIENTS - 1}`);
    expect(find).toHaveBeenCalledTimes(MAX_CACHED_CLIENTS + 1);
    await provider.Client.find('pc_1');
    expect(find).toHaveBeenCalledTimes(MAX_CACHED_CLIENTS + 2);
  });
});
