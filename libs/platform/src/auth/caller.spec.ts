import { Caller } from './caller';

describe('Caller.requireAny', () => {
  const caller = new Caller('t', 'u', 'ana', 'k', 'backend', 1, 'r', new Set(['checks.behavior']), []);

  it('names each permission that would allow the operation once', () => {
    // An ALL-country check asks for its country permission, which is checks.country_all itself.
    expect(() => caller.requireAny('checks.country_all', 'checks.country_all')).toThrow(
      'This operation needs one of the permissions: checks.country_all',
    );
    expect(() => caller.requireAny('checks.country_co', 'checks.country_all')).toThrow(
      'This operation needs one of the permissions: checks.country_co, checks.country_all',
    );
    expect(() => caller.requireAny('checks.behavior')).not.toThrow();
  });
});
