import { compile, EvaluationBudgetExceeded } from './compile';
import { DEFAULT_MAX_COST, estimateCost, validate } from './validate';

const list = (n: number) => Array.from({ length: n }, (_, i) => i);
/** `levels` nested `some` over literal lists of `n` items, the innermost comparing to a var. */
const nestedSome = (levels: number, n: number): unknown => {
  let body: unknown = { '==': [{ var: '' }, { var: 'x' }] };
  for (let i = 0; i < levels; i++) body = { some: [list(n), body] };
  return body;
};

describe('rule cost (write time) and step budget (run time)', () => {
  it('estimates iterations as multiplying: three nested some over 450 items is ~91 million steps', () => {
    expect(estimateCost(nestedSome(1, 450)).cost).toBeLessThan(5_000);
    expect(estimateCost(nestedSome(3, 450), { maxCost: Infinity }).cost).toBeGreaterThan(91_000_000);
  });

  it('refuses a rule over the budget with a path to the operation, and keeps ordinary rules', () => {
    const bomb = validate(nestedSome(3, 450));
    expect(bomb.valid).toBe(false);
    const budgetMessage: unknown = expect.stringContaining(`budget of ${DEFAULT_MAX_COST.toLocaleString('en-US')}`);
    expect(!bomb.valid && bomb.errors[0]).toMatchObject({ path: 'some[1].some', message: budgetMessage });
    expect(validate(nestedSome(4, 1_200)).valid).toBe(false);
    expect(validate(nestedSome(2, 100)).valid).toBe(true);
    expect(validate({ in: [{ var: 'country' }, ['CO', 'MX', 'BR']] }).valid).toBe(true);
    // A list from the data counts as 100 items: two nested iterations over data are fine, four are not.
    const overData = (levels: number) => {
      let body: unknown = { '>': [{ var: 'score' }, 1] };
      for (let i = 0; i < levels; i++) body = { some: [{ var: 'items' }, body] };
      return body;
    };
    expect(validate(overData(2)).valid).toBe(true);
    expect(validate(overData(4)).valid).toBe(false);
  });

  it('stops an evaluation that goes over its step budget, and leaves unbudgeted evaluations alone', () => {
    // 2,000 items from the data, each compared with a literal list of 100: 200,000 steps.
    const rule = { some: [{ var: 'items' }, { some: [list(100), { '==': [{ var: '' }, -1] }] }] };
    const data = { items: list(2_000) };
    expect(() => compile(rule, { maxSteps: 100_000 })(data)).toThrow(EvaluationBudgetExceeded);
    expect(compile(rule)(data)).toBe(false);
    // The budget is per evaluation: a small one passes again and again.
    const small = compile(rule, { maxSteps: 100_000 });
    for (let i = 0; i < 5; i++) expect(small({ items: list(100) })).toBe(false);
  });
});
