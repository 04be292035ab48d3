import { routePattern } from './method-not-allowed';

describe('routePattern', () => {
  it('matches path parameters within one segment and a wildcard over the rest', () => {
    expect(routePattern('/v1/checks/:check_id').test('/v1/checks/CHK1')).toBe(true);
    expect(routePattern('/v1/checks/:check_id').test('/v1/checks/CHK1/pdf')).toBe(false);
    expect(routePattern('/v1/uploads/*').test('/v1/uploads/a/b/c')).toBe(true);
    expect(routePattern('/.well-known/openid-configuration').test('/x.well-known/openid-configuration')).toBe(false);
  });
});
