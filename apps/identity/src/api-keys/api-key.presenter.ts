import { ApiKeyEntity } from './api-key.entity';

export const presentApiKey = (key: ApiKeyEntity) => ({
  key_id: key.id,
  key_name: key.name,
  key_type: key.keyType,
  api_key_version: key.version,
  user_id: key.userId,
  creation_date: key.createdAt.toISOString(),
  ...(key.expiresAt ? { expiration_date: key.expiresAt.toISOString() } : {}),
  ...(key.revokedAt ? { revocation_date: key.revokedAt.toISOString() } : {}),
});
