import { createHash } from 'node:crypto';

import type { DataSet, Severity } from '@kyc/contracts';

import type { RecordField } from '../collector';

/** The field every sandbox record carries so nobody mistakes it for a real registry's record. */
export const SANDBOX_MARK: RecordField = { key: 'data_source', value: 'sandbox_fictitious', valueKey: true };

const pickOf = (seed: string) => {
  let n = 0;
  return <T>(list: readonly T[]): T => {
    const digest = createHash('sha256').update(`${seed}\u0001${n++}`).digest();
    return list[digest.readUInt32BE(0) % list.length];
  };
};
const num = (pick: <T>(l: readonly T[]) => T, digits: number) =>
  Array.from({ length: digits }, () => pick(['0', '1', '2', '3', '4', '5', '6', '7', '8', '9'])).join('');
const date = (pick: <T>(l: readonly T[]) => T, from: number, to: number) => {
  const years = Array.from({ length: to - from + 1 }, (_, i) => from + i);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${pick(years)}-${two(pick([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]))}-${two(pick([1, 5, 9, 12, 16, 20, 23, 27]))}`;
};

const CITIES = ['Bogotá', 'Medellín', 'Cali', 'Barranquilla', 'Bucaramanga', 'Pereira'] as const;
const OFFENSES = ['Hurto calificado', 'Estafa', 'Lesiones personales', 'Falsedad en documento', 'Fraude procesal'];
const CRIMINAL_STATUS = ['sentenced', 'sentence_served', 'under_investigation'] as const;
const PROCESS_TYPES = ['Proceso ejecutivo', 'Proceso verbal', 'Acción de tutela', 'Proceso laboral ordinario'];
const STAGES = ['admission', 'evidence', 'first_instance_ruling', 'appeal', 'archived'] as const;
const PLAINTIFFS = ['Banco Sandbox S.A.', 'Cooperativa Sandbox Ltda.', 'Inmobiliaria Ficticia S.A.S.', 'María Sandbox'];
const LISTS = [
  { list: 'OFAC SDN (sandbox)', program: 'SDNTK' },
  { list: 'UN Security Council Consolidated List (sandbox)', program: 'ISIL (Da’esh) and Al-Qaida' },
  { list: 'EU Financial Sanctions (sandbox)', program: 'EU.RESTRICTIVE.MEASURES' },
  { list: 'Interpol Red Notices (sandbox)', program: 'Red notice' },
];
const FINE_STATUS = ['unpaid', 'in_payment_agreement', 'in_collection'] as const;
const INFRACTIONS = [
  'C02 Estacionar en sitio prohibido',
  'C29 Exceso de velocidad',
  'D12 Sin revisión técnico-mecánica',
];
const MAKES = [
  { make: 'Renault', models: ['Logan', 'Sandero', 'Duster'] },
  { make: 'Chevrolet', models: ['Onix', 'Spark GT', 'Tracker'] },
  { make: 'Mazda', models: ['2', '3', 'CX-30'] },
  { make: 'Kia', models: ['Picanto', 'Rio', 'Sportage'] },
] as const;
const MEDIA = ['El Diario Sandbox', 'Noticias Ficticias', 'Revista Sandbox'];

/** What a generated record may name: the subject's name, and a known vehicle's own data. */
export interface SandboxSubject {
  name?: string;
  plate?: string;
  vehicle?: { make: string; model: string; year: number };
}

/**
 * A sandbox record shaped like the real registry's record of its dataset, fixed by `seed` (the
 * searched document, plate or name) so the same identity always gets the same record: criminal
 * records (case number, court, date, offense, status), legal background (process number, court,
 * parties, stage), international lists (list, entry, program, date), traffic fines (fine number,
 * amount, date, status), vehicles (plate, make, model, year, permits), and so on. Every record
 * carries SANDBOX_MARK.
 */
export function sandboxFinding(
  dataSet: DataSet,
  severity: Severity,
  seed: string,
  subject: SandboxSubject,
): { kind: string; fields: RecordField[]; date: string } {
  const pick = pickOf(`${dataSet}|${seed}`);
  const city = pick(CITIES);
  const d = date(pick, 2012, 2024);
  const year = d.slice(0, 4);
  const f = (key: string, value: string, valueKey = false): RecordField => ({
    key,
    value,
    ...(valueKey ? { valueKey } : {}),
  });
  const out = (kind: string, fields: RecordField[]) => ({ kind, fields: [...fields, SANDBOX_MARK], date: d });
  switch (dataSet) {
    case 'criminal_record':
      return out('criminal_record_entry', [
        f('case_number', `11001-60-00-${year}-${num(pick, 5)}`),
        f('court', `Juzgado ${pick([1, 2, 3, 4, 5, 6, 7, 8])} Penal Municipal Sandbox de ${city}`),
        f('date', d),
        f('offense', pick(OFFENSES)),
        f('status', pick(CRIMINAL_STATUS), true),
      ]);
    case 'legal_background':
      return out('judicial_process', [
        f('process_number', `76001-31-03-${year}-${num(pick, 5)}`),
        f('court', `Juzgado ${pick([1, 2, 3, 4, 5])} Civil del Circuito Sandbox de ${city}`),
        f('parties', `${pick(PLAINTIFFS)} vs. ${subject.name ?? 'Demandado'}`),
        f('description', pick(PROCESS_TYPES)),
        f('stage', pick(STAGES), true),
        f('date', d),
      ]);
    case 'international_background': {
      const l = pick(LISTS);
      return out('sanctions_list_entry', [
        f('list', l.list),
        f('entry', `${subject.name ?? 'SANDBOX ENTRY'} (SBX-${num(pick, 5)})`),
        f('program', l.program),
        f('date', d),
      ]);
    }
    case 'traffic_fines':
      return out('traffic_fine', [
        f('fine_number', `SBX${num(pick, 14)}`),
        f('amount', `COP ${Number(num(pick, 3)) * 1000 + 100000}`.replace(/\B(?=(\d{3})+(?!\d))/g, '.')),
        f('date', d),
        f('status', pick(FINE_STATUS), true),
        f('description', pick(INFRACTIONS)),
        f('authority', `Secretaría de Movilidad Sandbox de ${city}`),
      ]);
    case 'vehicle_information':
    case 'vehicle_permits': {
      const m = pick(MAKES);
      return out(dataSet === 'vehicle_permits' ? 'circulation_permit' : 'vehicle_registration', [
        f('plate', subject.plate ?? `${pick(['ABC', 'KLM', 'XYZ', 'RST'])}${num(pick, 3)}`),
        f('make', subject.vehicle?.make ?? m.make),
        f('model', subject.vehicle?.model ?? pick(m.models)),
        f('year', String(subject.vehicle?.year ?? 2008 + Number(num(pick, 1)) + Number(num(pick, 1)))),
        f('permits', pick(['SOAT vencido', 'Revisión técnico-mecánica vencida', 'Licencia de tránsito suspendida'])),
      ]);
    }
    case 'alert_in_media':
      return out('media_article', [
        f('source', pick(MEDIA)),
        f('headline', `Investigan a ${subject.name ?? 'persona'} por presunta ${pick(OFFENSES).toLowerCase()}`),
        f('date', d),
      ]);
    case 'taxes_and_finances':
      return out('tax_debt', [
        f('authority', 'Dirección de Impuestos Sandbox'),
        f('amount', `COP ${num(pick, 1)}.${num(pick, 3)}.000`),
        f('status', pick(['unpaid', 'in_collection'] as const), true),
        f('date', d),
      ]);
    case 'professional_background':
      return out('disciplinary_sanction', [
        f('authority', 'Consejo Profesional Sandbox'),
        f('sentence', pick(['Amonestación escrita', 'Suspensión de 6 meses', 'Multa'])),
        f('case_number', `CPS-${year}-${num(pick, 4)}`),
        f('date', d),
      ]);
    default:
      return out('sandbox_generated_finding', [
        f('description', `${dataSet}: ${severity}`),
        f('case_number', `SBX-${year}-${num(pick, 6)}`),
        f('date', d),
      ]);
  }
}

/** The fields a real registry's record of each dataset always has (alternatives separated by `|`). */
export const RECORD_SHAPES: Partial<Record<DataSet, string[]>> = {
  criminal_record: ['case_number', 'court', 'date', 'offense', 'status'],
  legal_background: ['process_number|case_number', 'court', 'parties', 'stage'],
  international_background: ['list', 'entry', 'program', 'date'],
  traffic_fines: ['fine_number', 'amount', 'date', 'status'],
  vehicle_information: ['plate', 'make', 'model', 'year', 'permits'],
  vehicle_permits: ['plate', 'make', 'model', 'year', 'permits'],
};

/**
 * A documented identity's record completed to its dataset's shape: the fields it lacks are taken
 * from the generated record of the same dataset and seed (so they stay fixed per identity); its
 * own fields come first and are kept as written.
 */
export function completeSandboxRecord(
  dataSet: DataSet,
  severity: Severity,
  fields: RecordField[],
  seed: string,
  subject: SandboxSubject,
): RecordField[] {
  const shape = RECORD_SHAPES[dataSet];
  const own = fields.filter((f) => f.key !== SANDBOX_MARK.key);
  if (!shape) return [...own, SANDBOX_MARK];
  const has = new Set(own.map((f) => f.key));
  const filler = sandboxFinding(dataSet, severity, seed, subject).fields;
  const missing = shape
    .filter((alts) => !alts.split('|').some((k) => has.has(k)))
    .map((alts) => filler.find((f) => f.key === alts.split('|')[0]))
    .filter((f): f is RecordField => !!f);
  return [...own, ...missing, SANDBOX_MARK];
}
