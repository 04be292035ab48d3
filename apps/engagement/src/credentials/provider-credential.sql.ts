/** The SQL of ProviderCredentialStore (provider_credentials). */

/** The credentials of a WABA ($1): read for every webhook. */
export const BY_WABA = 'SELECT tenant_id, waba_id, sealed FROM provider_credentials WHERE waba_id = $1';
