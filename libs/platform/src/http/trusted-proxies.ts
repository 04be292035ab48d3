import { isIP } from 'node:net';

/** The names proxy-addr (Fastify's trustProxy) knows besides addresses and CIDR ranges. */
const NAMED_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);

const isProxyEntry = (entry: string): boolean => {
  if (NAMED_RANGES.has(entry)) return true;
  const [address, bits, extra] = entry.split('/');
  const family = isIP(address);
  if (!family || extra !== undefined) return false;
  if (bits === undefined) return true;
  if (!/^\d{1,3}$/.test(bits)) return false;
  return Number(bits) <= (family === 4 ? 32 : 128);
};

/**
 * The proxies whose `X-Forwarded-*` headers a service believes, from TRUSTED_PROXIES (comma-separated
 * addresses, CIDR ranges or proxy-addr's names `loopback`, `linklocal`, `uniquelocal`): the list for
 * Fastify's `trustProxy`, `false` when empty (a client's own X-Forwarded-For is then ignored and its
 * address is the socket's). `undefined` when an entry is not one of those (bad configuration).
 */
export function trustedProxies(value: string | undefined): string[] | false | undefined {
  const entries = (value ?? '')
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean);
  if (!entries.length) return false;
  return entries.every(isProxyEntry) ? entries : undefined;
}
