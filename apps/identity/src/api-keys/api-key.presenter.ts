import { ApiKeyEntity } from './api-key.entity';

export const presentApiKey = (key: ApiKeyEntity) => ({
  key_id: key.id,
  key_name: key.name,
  key_type: key.keyType,
  api_key_version: key.version,
  user_id: key.userId,
  ...(key.grant ? { grant: key.grant } : {}),
  ...(key.flowId ? { flow_id: key.flowId } : {}),
  ...(key.country ? { country: key.country } : {}),
  ...(key.documentType ? { document_type: key.documentType } : {}),
  ...(key.redirectUrl ? { redirect_url: key.redirectUrl } : {}),
  ...(key.accountId ? { account_id: key.accountId } : {}),
  ...(key.emails ? { emails: key.emails } : {}),
  ...(key.phones ? { phone: key.phones } : {}),
  ...(key.billingHub ? { billing_hub: key.billingHub } : {}),
  creation_date: key.createdAt.toISOString(),
  ...(key.expiresAt ? { expiration_date: key.expiresAt.toISOString() } : {}),
  ...(key.revokedAt ? { revocation_date: key.revokedAt.toISOString() } : {}),
});
