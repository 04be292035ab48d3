import { Column, Entity, PrimaryColumn } from 'typeorm';

/** An application (OAuth client) registered with pass by an operator for a tenant. */
@Entity({ name: 'applications' })
export class ApplicationEntity {
  @PrimaryColumn({ name: 'client_id', type: 'text' })
  clientId!: string;

  @Column({ name: 'tenant_id', type: 'text' })
  tenantId!: string;

  @Column({ type: 'text' })
  name!: string;

  /** The client secret sealed with PASS_SECRETS_KEY (AAD: the client id); shown once at registration. */
  @Column({ name: 'client_secret_sealed', type: 'text' })
  clientSecretSealed!: string;

  @Column({ name: 'redirect_uris', type: 'text', array: true })
  redirectUris!: string[];

  /** Every scope the application may request (restricted ones only when also in restrictedScopes). */
  @Column({ type: 'text', array: true })
  scopes!: string[];

  /** Restricted scopes the operator enabled for this application (validations:write, thirdparty:*). */
  @Column({ name: 'restricted_scopes', type: 'text', array: true })
  restrictedScopes!: string[];

  @Column({ name: 'allows_web_message', type: 'boolean' })
  allowsWebMessage!: boolean;

  @Column({ name: 'allowed_web_message_origins', type: 'text', array: true })
  allowedWebMessageOrigins!: string[];

  /** Empty: any e-mail domain may sign in. */
  @Column({ name: 'allowed_email_domains', type: 'text', array: true })
  allowedEmailDomains!: string[];

  /** Assurance policy: the authentication level a sign-in must reach (acr). */
  @Column({ name: 'required_acr', type: 'text', nullable: true })
  requiredAcr!: string | null;

  /** Assurance policy: a session older than this many seconds must sign in again. */
  @Column({ name: 'max_auth_age', type: 'integer', nullable: true })
  maxAuthAge!: number | null;

  /** Public client (a browser or native app): no secret, token_endpoint_auth_method none, PKCE S256 required. */
  @Column({ name: 'public_client', type: 'boolean' })
  publicClient!: boolean;

  /** Authorization requests must carry a PKCE S256 code_challenge (always true for a public client). */
  @Column({ name: 'require_pkce', type: 'boolean' })
  requirePkce!: boolean;

  @Column({ name: 'ciba_enabled', type: 'boolean' })
  cibaEnabled!: boolean;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
