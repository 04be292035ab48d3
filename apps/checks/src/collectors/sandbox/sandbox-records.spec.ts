import { DATA_SETS, Severity } from '@kyc/contracts';

import { SANDBOX_DATABASES } from './sandbox-databases';
import { RECORD_SHAPES, SANDBOX_MARK, sandboxFinding } from './sandbox-records';
import { sandboxAnswer } from './sandbox-search';

const NOW = new Date('2030-01-01T00:00:00Z');
const spec = (id: string) => SANDBOX_DATABASES.find((d) => d.id === id)!;
const hasShape = (dataSet: keyof typeof RECORD_SHAPES, keys: string[]) =>
  RECORD_SHAPES[dataSet]!.every((alts) => alts.split('|').some((k) => keys.includes(k)));

describe('sandbox records', () => {
  it('generates records shaped like the real registries, fixed per identity and marked as sandbox', () => {
    for (const ds of DATA_SETS) {
      const a = sandboxFinding(ds, 'medium', 'id:CO:123', { name: 'Laura Sandbox' });
      expect(sandboxFinding(ds, 'medium', 'id:CO:123', { name: 'Laura Sandbox' })).toEqual(a);
      expect(a.fields[a.fields.length - 1]).toEqual(SANDBOX_MARK);
      if (RECORD_SHAPES[ds])
        expect([
          ds,
          hasShape(
            ds,
            a.fields.map((f) => f.key),
          ),
        ]).toEqual([ds, true]);
      for (const f of a.fields) expect(f.value.length).toBeGreaterThan(0);
    }
    const other = sandboxFinding('criminal_record', 'medium', 'id:CO:124', {});
    expect(other).not.toEqual(sandboxFinding('criminal_record', 'medium', 'id:CO:123', {}));
  });

  it('gives the documented identities complete records: CO 1000000002 (criminal, legal by name, fine)', () => {
    const ask = (db: string, search: 'id' | 'name', inputs: Record<string, string>) =>
      sandboxAnswer({
        spec: spec(db),
        search,
        searchInputs: search === 'id' ? ['national_id'] : ['first_name', 'last_name'],
        inputs,
        region: null,
        now: NOW,
      }).records;
    const check = (records: { data_set: string; fields: { key: string; value: string }[] }[], ds: string) => {
      const rec = records.find((r) => r.data_set === ds)!;
      expect(
        hasShape(
          ds as keyof typeof RECORD_SHAPES,
          rec.fields.map((f) => f.key),
        ),
      ).toBe(true);
      expect(rec.fields).toContainEqual(SANDBOX_MARK);
      return Object.fromEntries(rec.fields.map((f) => [f.key, f.value]));
    };
    const police = ask('sandbox-co-police', 'id', { national_id: '1000000002' });
    expect(check(police, 'criminal_record')).toMatchObject({
      case_number: '11001-60-00-2019-00123',
      offense: 'Hurto calificado',
      date: '2019-06-11',
    });
    const judicial = ask('sandbox-co-judicial', 'name', { first_name: 'Carlos Andrés', last_name: 'Rojas Pérez' });
    expect(check(judicial, 'legal_background')).toMatchObject({ case_number: '76001-31-03-2021-00456' });
    const simit = ask('sandbox-co-simit', 'id', { national_id: '1000000002' });
    expect(check(simit, 'traffic_fines')).toMatchObject({ amount: 'COP 468.000', status: 'unpaid' });
  });

  it('gives a plate its vehicle record (plate, make, model, year, permits)', () => {
    const runt = sandboxAnswer({
      spec: spec('sandbox-co-runt'),
      search: 'id',
      searchInputs: ['license_plate'],
      inputs: { license_plate: 'XYZ987' },
      region: null,
      now: NOW,
    }).records;
    const reg = runt.find((r) => r.kind === 'vehicle_registration')!;
    expect(Object.fromEntries(reg.fields.map((f) => [f.key, f.value]))).toMatchObject({
      plate: 'XYZ987',
      make: 'Renault',
      model: 'Logan',
    });
    const severities: Severity[] = runt.map((r) => r.severity);
    expect(severities.length).toBeGreaterThan(1);
    for (const r of runt) expect(r.fields).toContainEqual(SANDBOX_MARK);
  });
});
