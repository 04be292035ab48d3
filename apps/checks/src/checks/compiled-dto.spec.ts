import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';

import { compileDto } from './compiled-dto';
import { CreateCheckDto } from './dto/create-check.dto';

const fast = compileDto(CreateCheckDto)!;

/** What parseCheckInputs did before the fast path: class-transformer, then class-validator. */
function slow(plain: Record<string, unknown>) {
  const dto = plainToInstance(CreateCheckDto, plain, { exposeDefaultValues: true });
  const errors = validateSync(dto, {
    whitelist: true,
    forbidUnknownValues: false,
    validationError: { target: false, value: false },
  });
  return { dto, errors };
}

/** Candidate values per field: valid ones in every spelling the transforms accept, and invalid ones. */
const CANDIDATES: Record<string, unknown[]> = {
  country: ['CO', ' co ', 'br', 'ALL', 'XX', '', 7, null, ['CO']],
  type: ['person', ' vehicle ', 'company', 'my-type', '', '   ', 'x'.repeat(64), 'x'.repeat(65), 3, null],
  user_authorized: ['true', 'TRUE', ' false ', true, false, 'yes', 1, '1', '', null],
  force_creation: ['true', false, 'no', 0],
  first_name: ['Ana', '  Ana  ', '', '  ', 'a'.repeat(200), 'a'.repeat(201), 5, null],
  last_name: ['Perez', 'Pérez Gómez', '', 'b'.repeat(201)],
  national_id: ['1020304050', ' 10.203.040-5 ', 123456, 1.5, 'abc def', '', 'x'.repeat(33), null, { a: 1 }],
  document_type: ['national-id', ' PASSPORT ', 'tax-id', 'nope', ''],
  date_of_birth: ['1990-05-31', '1990-02-30', '31/05/1990', '', 19900531],
  custom_input: ['ref-1', '  spaced  ', 'c'.repeat(128), 'c'.repeat(129), 12],
  license_plate: ['ABC123', 'a', 'ABC 123', 'ABC_123'],
  tax_id: ['900.123.456-7', 'ab', ' 9001234567 '],
  company_name: ['ACME', ' ', ''],
  state_id: ['12.345.678-9', 'ab*c', 42],
  region: ['SP', 'sp', 'XX'],
  watch: ['daily', '3d', '0d', 'hourly'],
  not_a_field: ['x'],
};

/** A small deterministic generator (no Math.random: a failure is reproducible). */
function* bodies(count: number): Generator<Record<string, unknown>> {
  let seed = 39;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const fields = Object.keys(CANDIDATES);
  for (let i = 0; i < count; i++) {
    const body: Record<string, unknown> = {};
    for (const field of fields) {
      // Valid-looking bodies most of the time, so both paths are exercised.
      if (next() < (field === 'country' || field === 'type' ? 0.9 : field === 'not_a_field' ? 0.05 : 0.2)) {
        const values = CANDIDATES[field];
        body[field] = values[Math.floor(next() * values.length)];
      }
    }
    yield body;
  }
}

describe('compileDto(CreateCheckDto): the fast path of a valid create-check body', () => {
  it('compiles (every decorator of the DTO is one it reproduces)', () => {
    expect(typeof fast).toBe('function');
  });

  it('gives the DTO the libraries give, only for bodies they find valid, over 3,000 generated bodies', () => {
    let taken = 0;
    let refused = 0;
    for (const body of bodies(3_000)) {
      const got = fast({ ...body });
      const expected = slow({ ...body });
      if (got === undefined) {
        refused++;
        continue;
      }
      taken++;
      expect({ body, errors: expected.errors }).toEqual({ body, errors: [] });
      expect(got).toBeInstanceOf(CreateCheckDto);
      expect({ body, dto: { ...got } }).toEqual({ body, dto: { ...expected.dto } });
    }
    // Both paths ran: the comparison above compared something.
    expect(taken).toBeGreaterThan(50);
    expect(refused).toBeGreaterThan(200);
  });

  it('takes the benchmark and documentation bodies (form fields as strings)', () => {
    const body = {
      country: 'CO',
      type: 'person',
      user_authorized: 'true',
      first_name: 'Ana',
      last_name: 'Perez',
      national_id: 'lq2x9a0',
    };
    const got = fast(body);
    expect(got).toBeDefined();
    expect({ ...got }).toEqual({ ...slow(body).dto });
    expect(got!.user_authorized).toBe(true);
  });

  it('leaves every invalid or unknown field to the libraries (their errors are the 400 body)', () => {
    expect(fast({ country: 'XX', type: 'person' })).toBeUndefined();
    expect(fast({ country: 'CO', type: 'person', national_id: 'a b' })).toBeUndefined();
    expect(fast({ country: 'CO', type: 'person', unknown: 'x' })).toBeUndefined();
    expect(fast({ country: 'CO', type: 'person', first_name: null })).toBeUndefined();
    expect(fast({ type: 'person' })).toBeUndefined();
  });
});
