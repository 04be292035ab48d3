import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * A signed-in operator's session. The browser holds a random token in an HttpOnly cookie; only its
 * SHA-256 is stored, so a read of this table opens no session.
 */
@Entity({ name: 'sessions' })
@Index('sessions_user_idx', ['tenantId', 'userId'])
export class SessionEntity {
  /** SHA-256 (base64url) of the cookie's token. */
  @PrimaryColumn({ name: 'token_hash', type: 'text' })
  tokenHash!: string;

  @Column({ name: 'tenant_id', type: 'text' })
  tenantId!: string;

  @Column({ name: 'user_id', type: 'text' })
  userId!: string;

  /** The e-mail the operator signed in with. */
  @Column({ type: 'text' })
  username!: string;

  /** Sent back by the page in X-CSRF-Token on every state-changing request. */
  @Column({ name: 'csrf_token', type: 'text' })
  csrfToken!: string;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'last_seen_at', type: 'timestamptz' })
  lastSeenAt!: Date;

  /** The absolute timeout: created_at + CONSOLE_SESSION_ABSOLUTE_HOURS. */
  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt!: Date;

  /** When it was ended (signed out, signed out everywhere, user disabled); null while open. */
  @Column({ name: 'ended_at', type: 'timestamptz', nullable: true })
  endedAt!: Date | null;
}
