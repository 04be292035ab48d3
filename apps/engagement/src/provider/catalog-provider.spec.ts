import { CatalogProvider } from './catalog-provider';
import { MessagingProvider, ProviderCredentials, ProviderError } from './messaging-provider';

const creds: ProviderCredentials = { accessToken: 't', wabaId: 'w1', appSecret: 's', verifyToken: 'v' };

describe('CatalogProvider (Graph API catalog calls)', () => {
  const calls: unknown[][] = [];
  let answer: unknown = {};
  const graph = {
    call: (...args: unknown[]) => {
      calls.push(args.slice(1));
      return answer instanceof Error ? Promise.reject(answer) : Promise.resolve(answer);
    },
  } as unknown as MessagingProvider;
  const provider = new CatalogProvider(graph);
  beforeEach(() => (calls.length = 0));

  it('reads the business that owns the WABA, and refuses an answer without one', async () => {
    answer = { id: 'w1', owner_business_info: { id: 'b1' } };
    expect(await provider.ownerBusiness(creds, 'w1')).toBe('b1');
    expect(calls[0]).toEqual(['GET', 'w1?fields=owner_business_info']);
    answer = { id: 'w1' };
    await expect(provider.ownerBusiness(creds, 'w1')).rejects.toBeInstanceOf(ProviderError);
  });

  it('sends products as items_batch requests and reads each refused item from validation_status', async () => {
    answer = { handles: ['h1'], validation_status: [{ retailer_id: 'B', errors: [{ message: 'bad price' }] }] };
    const results = await provider.itemsBatch(creds, 'c1', [
      {
        method: 'CREATE',
        retailerId: 'A',
        data: { title: 'A', price: '10.00 COP', availability: 'in stock', condition: 'new' },
      },
      { method: 'DELETE', retailerId: 'B' },
    ]);
    expect(calls[0]).toEqual([
      'POST',
      'c1/items_batch',
      {
        item_type: 'PRODUCT_ITEM',
        requests: [
          {
            method: 'CREATE',
            data: { id: 'A', title: 'A', price: '10.00 COP', availability: 'in stock', condition: 'new' },
          },
          { method: 'DELETE', data: { id: 'B' } },
        ],
      },
    ]);
    expect(results).toEqual([
      { retailerId: 'A', errors: [] },
      { retailerId: 'B', errors: ['bad price'] },
    ]);
  });

  it('treats a catalog already gone at the provider as deleted', async () => {
    answer = new ProviderError('not found', 404);
    await expect(provider.deleteCatalog(creds, 'c1')).resolves.toBeUndefined();
    answer = new ProviderError('server error', 500);
    await expect(provider.deleteCatalog(creds, 'c1')).rejects.toThrow('server error');
  });
});
