import { toFieldErrors } from '@kyc/platform';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';

import { billingHubProblem } from './billing-hubs';
import { UpdateBillingHubsDto } from './dto/update-billing-hubs.dto';

describe('billing hubs of a tenant', () => {
  const parse = (billing_hubs: unknown) => {
    const dto = plainToInstance(UpdateBillingHubsDto, { billing_hubs });
    return { hubs: dto.billing_hubs, fields: toFieldErrors(validateSync(dto)).map((f) => f.field) };
  };

  it('keeps them uppercase and without duplicates; a single empty value or [] is no hubs', () => {
    expect(parse(['hub-a', 'HUB-A', ' hub_b '])).toEqual({ hubs: ['HUB-A', 'HUB_B'], fields: [] });
    expect(parse('')).toEqual({ hubs: [], fields: [] });
    expect(parse([])).toEqual({ hubs: [], fields: [] });
  });

  it('refuses bad hub names and a missing list', () => {
    expect(parse(['ok', 'not ok']).fields).toEqual(['billing_hubs']);
    expect(parse(undefined).fields).toEqual(['billing_hubs']);
    expect(parse(Array.from({ length: 51 }, (_, i) => `h${i}`)).fields).toEqual(['billing_hubs']);
  });

  it("requires a user's hub, exactly as listed, when the tenant has hubs; none when it has none", () => {
    expect(billingHubProblem(['HUB-A', 'HUB-B'], 'HUB-B', true)).toBeUndefined();
    expect(billingHubProblem(['HUB-A'], undefined, true)).toMatch(/required: one of HUB-A/);
    expect(billingHubProblem(['HUB-A'], undefined, false)).toBeUndefined();
    expect(billingHubProblem(['HUB-A'], 'hub-a', true)).toMatch(/exactly as listed/);
    expect(billingHubProblem([], undefined, true)).toBeUndefined();
    expect(billingHubProblem([], 'HUB-A', true)).toMatch(/no billing hubs/);
  });
});
