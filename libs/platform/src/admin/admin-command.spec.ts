import { AdminUsageError, parseAdminFlags } from './admin-command';

describe('parseAdminFlags', () => {
  const command = { aliases: { tenant: 'tenant_id', 'billing-hub': 'billing_hubs' }, arrays: ['billing_hubs'] };

  it('maps --kebab-case flags to snake_case fields, aliases to their field, repeated array flags to a list', () => {
    expect(
      parseAdminFlags(
        ['--tenant', 'acme', '--admin-email=a@b.co', '--billing-hub', 'HUB-A', '--billing-hub', 'HUB-B', '--name', ''],
        command,
      ),
    ).toEqual({ tenant_id: 'acme', admin_email: 'a@b.co', billing_hubs: ['HUB-A', 'HUB-B'], name: '' });
    expect(parseAdminFlags(['--billing-hub', 'HUB-A'], command)).toEqual({ billing_hubs: ['HUB-A'] });
  });

  it.each([
    [['acme'], 'unexpected argument "acme" (flags are --name value)'],
    [['--tenant'], '--tenant needs a value'],
    [['--tenant', '--name', 'x'], '--tenant needs a value'],
    [['--name', 'a', '--name', 'b'], '--name is given twice'],
    [['-n', 'x'], 'unexpected argument "-n" (flags are --name value)'],
  ])('refuses %j', (argv, message) => {
    expect(() => parseAdminFlags(argv, command)).toThrow(new AdminUsageError(message));
  });
});
