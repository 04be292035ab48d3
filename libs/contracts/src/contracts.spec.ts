import {
  BUILT_IN_ROLES,
  countryPermission,
  ENGAGEMENT_AGENT,
  ENGAGEMENT_EXPORT,
  ENGAGEMENT_MANAGE,
  ENGAGEMENT_READ,
  GRANTING_PERMISSIONS,
  PERMISSIONS,
  SERVICES,
  TOPIC_SPECS,
} from './index';

describe('contracts', () => {
  it('lists the 25 permissions of spec 1, identity.process.read.own and the 4 of the agent workspace, each once', () => {
    expect(PERMISSIONS).toHaveLength(30);
    expect(new Set(PERMISSIONS).size).toBe(30);
    expect(PERMISSIONS).toEqual(
      expect.arrayContaining([ENGAGEMENT_READ, ENGAGEMENT_AGENT, ENGAGEMENT_MANAGE, ENGAGEMENT_EXPORT]),
    );
    expect(PERMISSIONS).toContain('identity.process.read.own');
  });

  it('maps a check country to its permission', () => {
    expect(countryPermission('BR')).toBe('checks.country_br');
    expect(countryPermission('ALL')).toBe('checks.country_all');
    expect(countryPermission('XX')).toBeUndefined();
  });

  it('gives full_access every granting permission (not the narrowing .own) and default_access no administration', () => {
    expect(BUILT_IN_ROLES.full_access.permissions).toEqual(GRANTING_PERMISSIONS);
    expect(BUILT_IN_ROLES.full_access.permissions).not.toContain('identity.process.read.own');
    expect(BUILT_IN_ROLES.default_access.permissions).not.toContain('svc.users');
    expect(BUILT_IN_ROLES.default_access.permissions).toContain('checks.country_co');
  });

  it('names topics <service>.<resource>[.<past-tense>] after a known service', () => {
    for (const t of TOPIC_SPECS) expect(Object.keys(SERVICES)).toContain(t.name.split('.')[0]);
    expect(TOPIC_SPECS.filter((t) => t.compacted).map((t) => t.name)).toEqual([
      'account.users',
      'account.roles',
      'identity.api-keys',
    ]);
  });

  it('gives the seven services ports 4001 to 4007', () => {
    expect(Object.values(SERVICES).map((s) => s.port)).toEqual([4001, 4002, 4003, 4004, 4005, 4006, 4007]);
  });
});
