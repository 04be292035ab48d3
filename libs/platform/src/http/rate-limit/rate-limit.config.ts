/** An operator's limits for one tenant (RATE_LIMIT_TENANTS); what is left out keeps the default. */
export interface TenantRateLimit {
  per_second?: number;
  burst?: number;
  key_per_second?: number;
  key_burst?: number;
}

const FIELDS = ['per_second', 'burst', 'key_per_second', 'key_burst'] as const;

/**
 * RATE_LIMIT_TENANTS: a JSON object {"<tenant_id>": {"per_second": n, "burst": n, "key_per_second": n,
 * "key_burst": n}} of non-negative numbers; undefined when it is anything else.
 */
export function parseTenantRateLimits(value: unknown): Record<string, TenantRateLimit> | undefined {
  if (typeof value !== 'string') return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    return undefined;
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return undefined;
  for (const entry of Object.values(parsed as Record<string, unknown>)) {
    if (!entry || typeof entry !== 'object' || Array.isArray(entry)) return undefined;
    for (const [field, n] of Object.entries(entry as Record<string, unknown>)) {
      if (!(FIELDS as readonly string[]).includes(field)) return undefined;
      if (typeof n !== 'number' || !Number.isFinite(n) || n < 0) return undefined;
    }
  }
  return parsed as Record<string, TenantRateLimit>;
}
