import createClient, { type Client, type ClientOptions } from 'openapi-fetch';

import type { paths as AccountPaths } from './generated/account';
import type { paths as ChecksPaths } from './generated/checks';
import type { paths as CustomersPaths } from './generated/customers';
import type { paths as EngagementPaths } from './generated/engagement';
import type { paths as IdentityPaths } from './generated/identity';
import type { paths as PassPaths } from './generated/pass';
import type { paths as ValidationsPaths } from './generated/validations';

export type { AccountPaths, ChecksPaths, CustomersPaths, EngagementPaths, IdentityPaths, PassPaths, ValidationsPaths };

/** The paths of each service, as its committed openapi/<service>.json describes them. */
export interface ServicePaths {
  checks: ChecksPaths;
  account: AccountPaths;
  identity: IdentityPaths;
  engagement: EngagementPaths;
  customers: CustomersPaths;
  pass: PassPaths;
  validations: ValidationsPaths;
}

export interface KycClientOptions extends Omit<ClientOptions, 'baseUrl'> {
  /** The service's base URL, e.g. http://127.0.0.1:4001 (`.stack/stack.json` → services.<name>). */
  baseUrl: string;
  /** Sent as Service-API-Key on every request. */
  apiKey?: string;
}

/**
 * A typed client of one service (openapi-fetch over the generated types): paths, parameters, bodies
 * and answers are checked at compile time, e.g.
 * `const { data, error } = await checks.POST('/v1/checks', { body: {...} })`.
 * Bodies are sent as JSON (every service accepts JSON where the spec says form-encoded).
 */
export function createKycClient<S extends keyof ServicePaths>(
  _service: S,
  options: KycClientOptions,
): Client<ServicePaths[S], 'application/json'> {
  const { apiKey, headers, ...rest } = options;
  return createClient<ServicePaths[S], 'application/json'>({
    ...rest,
    headers: { ...(apiKey ? { 'Service-API-Key': apiKey } : {}), ...(headers as Record<string, string> | undefined) },
  });
}
