import { effectiveInputs } from '../engine/effective-inputs';
import { brazilRegionFromCpf, parseCheckInputs } from './check-inputs';

const NOW = new Date('2030-06-15T12:00:00Z');
const fields = (body: Record<string, unknown>) =>
  parseCheckInputs(body, NOW)
    .errors.map((e) => e.field)
    .sort();
const person = (over: Record<string, unknown> = {}) => ({
  country: 'CO',
  type: 'person',
  national_id: '1000000001',
  ...over,
});

describe('check inputs', () => {
  it('accepts a minimal person check with form strings, lowercase country included', () => {
    const parsed = parseCheckInputs(
      { country: 'co', type: 'person', national_id: '29478657', user_authorized: 'true', force_creation: 'FALSE' },
      NOW,
    );
    expect(parsed.errors).toEqual([]);
    expect(parsed.dto).toMatchObject({ country: 'CO', user_authorized: true, force_creation: false });
    expect(parsed.inputs).toEqual({ national_id: '29478657' });
  });

  it.each([
    [{ country: 'AR' }, 'country'],
    [{ user_authorized: 'yes' }, 'user_authorized'],
    [{ force_creation: 'maybe' }, 'force_creation'],
    [{ custom_input: 'x'.repeat(129) }, 'custom_input'],
    [{ date_of_birth: '1990-13-01' }, 'date_of_birth'],
    [{ date_of_birth: '1990-02-30' }, 'date_of_birth'],
    [{ date_of_birth: '01/02/1990' }, 'date_of_birth'],
    [{ date_of_birth: '2031-01-01' }, 'date_of_birth'],
    [{ issue_date: '2020-1-1' }, 'issue_date'],
    [{ issue_date: '2031-01-01' }, 'issue_date'],
    [{ issue_date: '1980-01-01', date_of_birth: '1990-01-01' }, 'issue_date'],
    [{ gender: 'x' }, 'gender'],
    [{ native_country: 'AR' }, 'native_country'],
    [{ native_national_id: 'V123' }, 'native_country'],
    [{ document_type: 'license' }, 'document_type'],
    [{ phone_number: '12' }, 'phone_number'],
    [{ state_id: 'AB#12' }, 'state_id'],
    [{ region: 'SP' }, 'region'],
    [{ payment_date: '2025-01-01' }, 'payment_date'],
    [{ imei: '12345678901234' }, 'imei'],
    [{ imei: '12345678901234a' }, 'imei'],
    [{ watch: 'hourly' }, 'watch'],
    [{ watch: '0d' }, 'watch'],
    [{ owner_document_type: 'passport', owner_document_id: '1' }, 'owner_document_type'],
    [{ owner_document_type: 'national-id' }, 'owner_document_id'],
    [{ report_id: 'a b' }, 'report_id'],
    [{ license_plate: '!' }, 'license_plate'],
    [{ vehicle_id: 'ab' }, 'vehicle_id'],
    [{ tax_id: '#' }, 'tax_id'],
    [{ foreign_id: '' }, 'foreign_id'],
  ])('refuses %j naming %s', (bad, field) => {
    expect(fields(person(bad))).toEqual([field]);
  });

  it('takes an optional field sent as null as absent (a generated client sends unset nullable fields so)', () => {
    const parsed = parseCheckInputs(person({ region: null, payment_date: null, first_name: null }), NOW);
    expect(parsed.errors).toEqual([]);
    expect(parsed.inputs).not.toHaveProperty('first_name');
    expect(fields(person({ country: null }))).toEqual(['country']);
  });

  it('accepts every gender value of the spec, in any case', () => {
    for (const gender of ['male', 'masculino', 'hombre', 'h', 'female', 'femenino', 'mujer', 'm', 'MUJER'])
      expect(fields(person({ country: 'MX', gender }))).toEqual([]);
  });

  it('accepts the watch frequencies of the spec', () => {
    for (const watch of ['daily', 'weekly', 'monthly', 'yearly', '3d', '2w', '6m', '1y'])
      expect(fields(person({ watch }))).toEqual([]);
  });

  it('omits - * , . from state_id and keeps letters and digits', () => {
    const parsed = parseCheckInputs(person({ country: 'MX', state_id: '12.345-67*8,x' }), NOW);
    expect(parsed.errors).toEqual([]);
    expect(parsed.inputs.state_id).toBe('12345678X');
  });

  it('accepts a 128-character custom_input, payment_date in Chile and a 15-digit IMEI', () => {
    expect(fields(person({ custom_input: 'x'.repeat(128) }))).toEqual([]);
    expect(
      fields({
        country: 'CL',
        type: 'vehicle',
        license_plate: 'GHJK34',
        payment_date: '2025-03-31',
        imei: '490154203237518',
      }),
    ).toEqual([]);
  });

  it('treats a body that is not an object as empty', () => {
    expect(
      parseCheckInputs([1, 2] as unknown as Record<string, unknown>, NOW)
        .errors.map((e) => e.field)
        .sort(),
    ).toEqual(['country', 'type']);
  });

  it('lists every offending field at once', () => {
    expect(
      fields({
        country: 'XX',
        type: 'person',
        date_of_birth: '1990-02-31',
        custom_input: 'x'.repeat(129),
        gender: 'x',
      }),
    ).toEqual(['country', 'custom_input', 'date_of_birth', 'gender']);
  });

  describe('inputs each type needs', () => {
    it('person: national_id (or another document) or first_name and last_name', () => {
      expect(fields({ country: 'CO', type: 'person' })).toEqual(['national_id']);
      expect(fields({ country: 'CO', type: 'person', first_name: 'Ana' })).toEqual(['last_name']);
      expect(fields({ country: 'CO', type: 'person', first_name: 'Ana', last_name: 'Gómez' })).toEqual([]);
      expect(fields({ country: 'CO', type: 'person', foreign_id: 'E100001' })).toEqual([]);
    });

    it('person in ALL searches by name', () => {
      expect(fields({ country: 'ALL', type: 'person', national_id: '1' })).toEqual(['first_name']);
      expect(fields({ country: 'ALL', type: 'person', first_name: 'Viktor', last_name: 'Sokolov' })).toEqual([]);
    });

    it('vehicle: license_plate or vehicle_id, never in ALL', () => {
      expect(fields({ country: 'CO', type: 'vehicle', national_id: '1' })).toEqual(['license_plate']);
      expect(fields({ country: 'CO', type: 'vehicle', vehicle_id: '9GAMF48D0FB000001' })).toEqual([]);
      expect(fields({ country: 'ALL', type: 'vehicle', license_plate: 'ABC123' })).toEqual(['country']);
    });

    it('company: tax_id or company_name (company_name in ALL)', () => {
      expect(fields({ country: 'CO', type: 'company' })).toEqual(['tax_id']);
      expect(fields({ country: 'CO', type: 'company', company_name: 'Andina' })).toEqual([]);
      expect(fields({ country: 'ALL', type: 'company', tax_id: '900100200-1' })).toEqual(['company_name']);
    });

    it('custom types need some identifying input', () => {
      expect(fields({ country: 'CO', type: 'my-type', phone_number: '+573001234567' })).toEqual(['national_id']);
      expect(fields({ country: 'CO', type: 'my-type', license_plate: 'ABC123' })).toEqual([]);
    });
  });

  describe('Brazil', () => {
    it('derives the region from the CPF (9th digit: fiscal region)', () => {
      expect(brazilRegionFromCpf('123.456.789-09')).toBe('PR');
      expect(brazilRegionFromCpf('98765432100')).toBe('DF');
      expect(brazilRegionFromCpf('00011122286')).toBe('PA');
      expect(brazilRegionFromCpf('12345')).toBeNull();
      expect(parseCheckInputs({ country: 'BR', type: 'person', national_id: '12345678909' }, NOW).region).toBe('PR');
    });

    it('keeps a given region, ALL included', () => {
      expect(
        parseCheckInputs({ country: 'BR', type: 'person', national_id: '12345678909', region: 'all' }, NOW).region,
      ).toBe('ALL');
    });

    it('requires a region when the CPF does not give one, and a CPF as national_id', () => {
      expect(fields({ country: 'BR', type: 'person', first_name: 'Bruno', last_name: 'Cecatto' })).toEqual(['region']);
      expect(
        fields({ country: 'BR', type: 'person', first_name: 'Bruno', last_name: 'Cecatto', region: 'SP' }),
      ).toEqual([]);
      expect(fields({ country: 'BR', type: 'person', national_id: '123' })).toEqual(['national_id', 'region']);
      expect(fields({ country: 'BR', type: 'person', national_id: '12345678909', region: 'XX' })).toEqual(['region']);
    });
  });

  it('gives collectors what document_type says national_id holds, and the effective region', () => {
    expect(effectiveInputs({ national_id: 'E100001', document_type: 'foreign-id' }, null)).toEqual({
      foreign_id: 'E100001',
      document_type: 'foreign-id',
    });
    expect(effectiveInputs({ national_id: '12345678909' }, 'PR')).toEqual({ national_id: '12345678909', region: 'PR' });
  });
});
