import { isIPv4, isIPv6 } from 'node:net';

/**
 * The bucket a client address counts in: an IPv4 address itself (also written IPv4-mapped,
 * `::ffff:1.2.3.4`), an IPv6 address by its /64 network (one host gets a whole /64, so counting
 * single IPv6 addresses would give one client millions of buckets).
 */
export function clientBucketOf(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped && isIPv4(mapped[1])) return mapped[1];
  if (!isIPv6(ip)) return ip;
  const [head, tail = ''] = ip.split('%')[0].toLowerCase().split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = ip.includes('::')
    ? [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right]
    : left;
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}
