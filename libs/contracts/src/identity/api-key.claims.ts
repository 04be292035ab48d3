export const API_KEY_TYPES = ['backend', 'web', 'sdk'] as const;
export type ApiKeyType = (typeof API_KEY_TYPES)[number];

/** Claims of an API key (a JWT signed with the platform key, verified offline by every service). */
export interface ApiKeyClaims {
  /** Key id. */
  jti: string;
  /** The user the key acts for. */
  sub: string;
  tenant_id: string;
  key_type: ApiKeyType;
  /** API key version: 0 (default) or 1. */
  ver: 0 | 1;
  username?: string;
  grant?: string;
  flow_id?: string;
  iat: number;
  exp?: number;
}

/** A platform operator token (minted with the platform private key) for tenant administration. */
export interface PlatformAdminClaims {
  jti: string;
  sub: string;
  key_type: 'platform_admin';
  iat: number;
  exp: number;
}
