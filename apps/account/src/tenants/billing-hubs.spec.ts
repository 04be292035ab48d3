import { toFieldErrors } from '@kyc/platform';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';

import { billingHubProblem } from './billing-hubs';
import { UpdateBillingHubsDto } from './dto/update-billing-hubs.dto';

describe('billing hubs of a tenant', () => {
  /** As the form parser or JSON.parse builds the body. */
  const parse = (billing_hubs: unknown, form = false) => {
    const body = form ? Object.assign(Object.create(null) as object, { billing_hubs }) : { billing_hubs };
    const dto = plainToInstance(UpdateBillingHubsDto, body);
    return { hubs: dto.billing_hubs, fields: toFieldErrors(validateSync(dto)).map((f) => f.field) };
  };

  it('keeps them uppercase and without duplicates; a single empty form value or [] is no hubs', () => {
    expect(parse(['hub-a', 'HUB-A', 'hub_b'])).toEqual({ hubs: ['HUB-A', 'HUB_B'], fields: [] });
    expect(parse(['hub-a', ' hub_b ', ''], true)).toEqual({ hubs: ['HUB-A', 'HUB_B'], fields: [] });
    expect(parse('', true)).toEqual({ hubs: [], fields: [] });
    expect(parse('hub-a', true)).toEqual({ hubs: ['HUB-A'], fields: [] });
    expect(parse('hub-a').fields).toEqual(['billing_hubs']);
    expect(parse([])).toEqual({ hubs: [], fields: [] });
  });

  it('refuses bad hub names and a missing list', () => {
    expect(parse(['ok', 'not ok']).fields).toEqual(['billing_hubs']);
    // in JSON a name is as sent: an empty or padded one is refused, never dropped or trimmed
    expect(parse(['']).fields).toEqual(['billing_hubs']);
    expect(parse(['ok', ' hub_b ']).fields).toEqual(['billing_hubs']);
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
