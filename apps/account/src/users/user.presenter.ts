import { UserEntity } from './user.entity';

/** The user as the API returns it; optional fields are left out when not set. */
export function presentUser(user: UserEntity) {
  return {
    user_id: user.id,
    username: user.username,
    email: user.username,
    role: user.role,
    status: user.status,
    ...(user.country ? { country: user.country } : {}),
    ...(user.phoneNumber ? { phone_number: user.phoneNumber } : {}),
    ...(user.language ? { language: user.language } : {}),
    ...(user.billingHub ? { billing_hub: user.billingHub } : {}),
    ...(user.displayName ? { display_name: user.displayName } : {}),
    creation_date: user.createdAt.toISOString(),
    update_date: user.updatedAt.toISOString(),
  };
}

/** The fields of a user the audit log compares. */
export function auditedUser(user: UserEntity): Record<string, unknown> {
  return {
    username: user.username,
    role: user.role,
    status: user.status,
    country: user.country,
    phone_number: user.phoneNumber,
    language: user.language,
    billing_hub: user.billingHub,
    display_name: user.displayName,
  };
}

/** The set fields of a user (for the audit entry of a creation or deletion). */
export const setFields = (fields: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== null && v !== undefined));

export const userPath = (username: string) => `/v1/account/users/${encodeURIComponent(username)}`;
