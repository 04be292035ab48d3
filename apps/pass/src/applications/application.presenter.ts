import { ApplicationEntity } from './application.entity';

export const applicationPath = (clientId: string) => `/v1/admin/applications/${clientId}`;

/** Wire form of an application (never the secret; see presentWithSecret). */
export const presentApplication = (a: ApplicationEntity) => ({
  client_id: a.clientId,
  tenant_id: a.tenantId,
  name: a.name,
  redirect_uris: a.redirectUris,
  scopes: a.scopes,
  restricted_scopes: a.restrictedScopes,
  allows_web_message: a.allowsWebMessage,
  allowed_web_message_origins: a.allowedWebMessageOrigins,
  allowed_email_domains: a.allowedEmailDomains,
  required_acr: a.requiredAcr,
  max_auth_age: a.maxAuthAge,
  ciba_enabled: a.cibaEnabled,
  public_client: a.publicClient,
  require_pkce: a.requirePkce,
  created_at: a.createdAt.toISOString(),
  updated_at: a.updatedAt.toISOString(),
});
