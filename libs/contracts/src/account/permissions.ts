/** The master permission set of an account (spec 1, Roles), with the agent workspace's (engagement/permissions.ts). */
export const PERMISSIONS = [
  'checks.behavior',
  'checks.country_all',
  'checks.country_ar',
  'checks.country_br',
  'checks.country_cl',
  'checks.country_co',
  'checks.country_co_premium',
  'checks.country_cr',
  'checks.country_ec',
  'checks.country_mx',
  'checks.country_pa',
  'checks.country_pe',
  'engagement.agents.manage',
  'engagement.chats.agent',
  'engagement.chats.export',
  'engagement.chats.read',
  'identity.process.read.own',
  'svc.keys',
  'svc.users',
  'validations.cell_phone_validation_br',
  'validations.cell_phone_validation_co',
  'validations.cell_phone_validation_mx',
  'validations.documents_validation_br',
  'validations.documents_validation_co',
  'validations.documents_validation_mx',
  'validations.email_validation',
  'validations.enterprise_data',
  'validations.face_recognition',
  'validations.identity_questions',
  'validations.voice_recognition',
] as const;

export type Permission = (typeof PERMISSIONS)[number];

/**
 * Permissions that narrow what a role sees instead of granting more: `identity.process.read.own`
 * limits process reads to the caller's own processes. Built-in roles never hold them.
 */
export const SCOPING_PERMISSIONS: readonly Permission[] = ['identity.process.read.own'];

/** Every permission that grants access (PERMISSIONS without the scoping ones): what full_access holds. */
export const GRANTING_PERMISSIONS: readonly Permission[] = PERMISSIONS.filter((p) => !SCOPING_PERMISSIONS.includes(p));

export const FULL_ACCESS_ROLE = 'full_access';
export const DEFAULT_ACCESS_ROLE = 'default_access';

/** Built-in roles: full_access holds every granting permission; default_access everything but administration. */
export const BUILT_IN_ROLES: Record<string, { description: string; permissions: readonly Permission[] }> = {
  [FULL_ACCESS_ROLE]: { description: 'Every permission of the account', permissions: GRANTING_PERMISSIONS },
  [DEFAULT_ACCESS_ROLE]: {
    description: 'Every product permission, without user and key administration',
    permissions: GRANTING_PERMISSIONS.filter((p) => !p.startsWith('svc.')),
  },
};

/** The permission that lets a caller run checks of a country (besides checks.country_all). */
export const countryPermission = (country: string): Permission | undefined => {
  const candidate = `checks.country_${country.toLowerCase()}`;
  return (PERMISSIONS as readonly string[]).includes(candidate) ? (candidate as Permission) : undefined;
};
