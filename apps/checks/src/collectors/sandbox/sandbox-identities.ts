import type { CheckCountry, DataSet, Severity } from '@kyc/contracts';

import type { SearchRoute } from '../collector';

/**
 * The fictitious people, vehicles and companies the sandbox databases know (documented in
 * docs/services/checks.md, "Sandbox identities", like a payment API documents its test cards).
 * Everything here is invented; any resemblance to real people or companies is accidental.
 *
 * A record is filed in one dataset and found either by ID (document, plate, tax ID) or by name
 * only. By-name records are filed under `name` (default: the subject's name), so a search for a
 * homonym finds them too, and names filed in another token order only match with soft matching.
 * BR court records carry the state (`region`) of the court that holds them: a region search only
 * sees its own state, a nation-wide search (region ALL) sees them all.
 */
export interface SandboxRecord {
  data_set: DataSet;
  by: SearchRoute;
  severity: Severity;
  kind: string;
  fields: Record<string, string>;
  name?: string;
  region?: string;
  date?: string;
}

export interface SandboxPerson {
  ref: string;
  country: Exclude<CheckCountry, 'ALL'>;
  national_id?: string;
  foreign_id?: string;
  pep?: string;
  ptp?: string;
  document_number?: string;
  first_name: string;
  last_name: string;
  gender: 'male' | 'female';
  date_of_birth: string;
  issue_date?: string;
  status: 'found' | 'dead';
  death_date?: string;
  drivers_license?: string;
  professional_card?: string;
  rfc?: string;
  nss?: string;
  /** Databases that fail (transient error) whenever they are asked about this person. */
  failing?: string[];
  records: SandboxRecord[];
}

export interface SandboxVehicle {
  ref: string;
  country: Exclude<CheckCountry, 'ALL'>;
  license_plate: string;
  vehicle_id?: string;
  owner_national_id?: string;
  manufacturer: string;
  model: string;
  year: number;
  color: string;
  vehicle_type: string;
  service_type: string;
  vehicle_category: string;
  number_of_doors: number;
  capacity: number;
  obligatory_insurance_status: string;
  obligatory_insurance_expiration_date: string;
  records: SandboxRecord[];
}

export interface SandboxCompany {
  ref: string;
  country: Exclude<CheckCountry, 'ALL'>;
  tax_id: string;
  company_name: string;
  status: 'active' | 'inactive';
  records: SandboxRecord[];
}

/** Names that only appear in lists and media (no identity document known to the sandbox). */
export interface SandboxListedName {
  ref: string;
  country: CheckCountry;
  name: string;
  records: SandboxRecord[];
}

const r = (
  data_set: DataSet,
  by: SearchRoute,
  severity: Severity,
  kind: string,
  fields: Record<string, string>,
  extra: Partial<SandboxRecord> = {},
): SandboxRecord => ({
  data_set,
  by,
  severity,
  kind,
  fields,
  ...extra,
});

export const SANDBOX_PEOPLE: SandboxPerson[] = [
  // ---------------------------------------------------------------- Colombia
  {
    ref: 'co-clean',
    country: 'CO',
    national_id: '1000000001',
    first_name: 'Ana María',
    last_name: 'Gómez Ruiz',
    gender: 'female',
    date_of_birth: '1990-04-12',
    issue_date: '2008-05-02',
    status: 'found',
    drivers_license: '1000000001',
    professional_card: 'TP-25001',
    records: [
      r('professional_background', 'id', 'none', 'professional_license', {
        document: 'TP-25001',
        status: 'valid',
        authority: 'Consejo Profesional Sandbox',
      }),
      r('affiliations_and_insurances', 'id', 'none', 'affiliation', { source: 'EPS Sandbox Salud', status: 'active' }),
      r('driving_licenses', 'id', 'none', 'driving_license', {
        document: '1000000001',
        category: 'B1',
        status: 'valid',
        expiration_date: '2031-04-12',
      }),
    ],
  },
  {
    ref: 'co-convicted',
    country: 'CO',
    national_id: '1000000002',
    first_name: 'Carlos Andrés',
    last_name: 'Rojas Pérez',
    gender: 'male',
    date_of_birth: '1985-09-30',
    issue_date: '2003-10-15',
    status: 'found',
    records: [
      r(
        'criminal_record',
        'id',
        'high',
        'criminal_record_entry',
        {
          offense: 'Hurto calificado',
          sentence: '36 meses',
          court: 'Juzgado 4 Penal Sandbox de Bogotá',
          case_number: '11001-60-00-2019-00123',
        },
        { date: '2019-06-11' },
      ),
      r(
        'legal_background',
        'name',
        'medium',
        'judicial_process',
        {
          court: 'Juzgado 2 Civil Sandbox de Cali',
          case_number: '76001-31-03-2021-00456',
          status: 'open',
          description: 'Proceso ejecutivo',
        },
        { date: '2021-03-02' },
      ),
      r(
        'traffic_fines',
        'id',
        'low',
        'traffic_fine',
        { amount: 'COP 468.000', status: 'unpaid', authority: 'Secretaría de Movilidad Sandbox' },
        { date: '2023-08-19' },
      ),
    ],
  },
  {
    // Homonym of co-homonym-b: clean by ID; a name search finds the other one's records.
    ref: 'co-homonym-a',
    country: 'CO',
    national_id: '1000000003',
    first_name: 'Juan Carlos',
    last_name: 'Pérez Gómez',
    gender: 'male',
    date_of_birth: '1979-01-15',
    issue_date: '1997-02-20',
    status: 'found',
    records: [],
  },
  {
    ref: 'co-homonym-b',
    country: 'CO',
    national_id: '1000000004',
    first_name: 'Juan Carlos',
    last_name: 'Pérez Gómez',
    gender: 'male',
    date_of_birth: '1981-07-07',
    issue_date: '1999-08-01',
    status: 'found',
    records: [
      // Filed by the court with the surnames first: soft matching finds it, exact matching does not.
      r(
        'criminal_record',
        'name',
        'very_high',
        'criminal_record_entry',
        {
          offense: 'Homicidio',
          sentence: '20 años',
          court: 'Juzgado 1 Penal Sandbox de Medellín',
          case_number: '05001-60-00-2015-00987',
        },
        { name: 'PEREZ GOMEZ JUAN CARLOS', date: '2015-11-23' },
      ),
      r(
        'international_background',
        'name',
        'high',
        'sanctions_list_entry',
        {
          list: 'Sandbox Most Wanted List',
          authority: 'Sandbox International Police',
          description: 'Wanted for questioning',
        },
        { date: '2020-01-10' },
      ),
      r(
        'criminal_record',
        'id',
        'very_high',
        'criminal_record_entry',
        {
          offense: 'Homicidio',
          sentence: '20 años',
          court: 'Juzgado 1 Penal Sandbox de Medellín',
          case_number: '05001-60-00-2015-00987',
        },
        { date: '2015-11-23' },
      ),
    ],
  },
  {
    ref: 'co-media',
    country: 'CO',
    national_id: '1000000005',
    first_name: 'Luisa Fernanda',
    last_name: 'Torres Díaz',
    gender: 'female',
    date_of_birth: '1995-02-20',
    issue_date: '2013-03-01',
    status: 'found',
    professional_card: 'TP-25005',
    records: [
      r(
        'alert_in_media',
        'name',
        'very_low',
        'media_article',
        { headline: 'Vecinos reconocen a emprendedora local', source: 'Diario Sandbox' },
        { date: '2022-05-14' },
      ),
      r('professional_background', 'id', 'none', 'professional_license', {
        document: 'TP-25005',
        status: 'valid',
        authority: 'Consejo Profesional Sandbox',
      }),
      r(
        'taxes_and_finances',
        'id',
        'low',
        'credit_default',
        { amount: 'COP 1.250.000', status: 'late', source: 'Buró Sandbox' },
        { date: '2024-01-31' },
      ),
    ],
  },
  {
    ref: 'co-deceased',
    country: 'CO',
    national_id: '1000000006',
    first_name: 'Pedro Pablo',
    last_name: 'Martínez Castro',
    gender: 'male',
    date_of_birth: '1950-03-03',
    issue_date: '1968-04-04',
    status: 'dead',
    death_date: '2021-11-10',
    records: [],
  },
  {
    ref: 'co-sanctioned-official',
    country: 'CO',
    national_id: '1000000007',
    first_name: 'María José',
    last_name: 'Vargas León',
    gender: 'female',
    date_of_birth: '1988-06-06',
    issue_date: '2006-07-07',
    status: 'found',
    records: [
      r(
        'legal_background',
        'id',
        'medium',
        'disciplinary_sanction',
        { authority: 'Procuraduría Sandbox', sentence: 'Suspensión 6 meses', case_number: 'D-2020-1188' },
        { date: '2020-09-09' },
      ),
      r(
        'taxes_and_finances',
        'id',
        'high',
        'credit_default',
        { amount: 'COP 54.900.000', status: 'in_collection', source: 'Buró Sandbox' },
        { date: '2023-02-28' },
      ),
    ],
  },
  {
    // The Colombian police database fails (transient error) for this person: retries vs timeout.
    ref: 'co-police-down',
    country: 'CO',
    national_id: '1000000099',
    first_name: 'Sergio',
    last_name: 'Ramírez Ortiz',
    gender: 'male',
    date_of_birth: '1992-12-12',
    issue_date: '2010-12-20',
    status: 'found',
    failing: ['sandbox-co-police'],
    records: [],
  },
  {
    ref: 'co-foreigner',
    country: 'CO',
    foreign_id: 'E100001',
    pep: 'PEP100001',
    first_name: 'Carmen Elena',
    last_name: 'Rivas Mora',
    gender: 'female',
    date_of_birth: '1993-08-08',
    issue_date: '2019-09-09',
    status: 'found',
    records: [
      r(
        'traffic_fines',
        'id',
        'very_low',
        'traffic_fine',
        { amount: 'COP 98.000', status: 'paid', authority: 'Secretaría de Movilidad Sandbox' },
        { date: '2022-02-02' },
      ),
    ],
  },
  // ---------------------------------------------------------------- Mexico
  {
    ref: 'mx-clean',
    country: 'MX',
    national_id: 'ROLJ850930HDFRPN02',
    first_name: 'Jorge Luis',
    last_name: 'Rodríguez López',
    gender: 'male',
    date_of_birth: '1985-09-30',
    status: 'found',
    rfc: 'ROLJ850930AB1',
    nss: '12345678901',
    drivers_license: 'MXL-850930',
    records: [
      r('affiliations_and_insurances', 'id', 'none', 'affiliation', { source: 'IMSS Sandbox', status: 'active' }),
    ],
  },
  {
    ref: 'mx-tax-listed',
    country: 'MX',
    national_id: 'HEMS920115MJCRRF03',
    first_name: 'Sofía',
    last_name: 'Hernández Martínez',
    gender: 'female',
    date_of_birth: '1992-01-15',
    status: 'found',
    rfc: 'HEMS920115XY2',
    records: [
      r(
        'legal_background',
        'name',
        'high',
        'judicial_process',
        {
          court: 'Juzgado 3 Penal Sandbox de Guadalajara',
          case_number: '145/2022',
          status: 'open',
          description: 'Fraude',
        },
        { date: '2022-04-04' },
      ),
      r(
        'taxes_and_finances',
        'id',
        'very_high',
        'tax_blacklist',
        { list: 'Lista 69-B Sandbox', authority: 'SAT Sandbox', status: 'definitive' },
        { date: '2021-07-01' },
      ),
    ],
  },
  {
    ref: 'mx-homonym-a',
    country: 'MX',
    national_id: 'GAPM780707HNLRRR04',
    first_name: 'Mario',
    last_name: 'García Pérez',
    gender: 'male',
    date_of_birth: '1978-07-07',
    status: 'found',
    records: [],
  },
  {
    ref: 'mx-homonym-b',
    country: 'MX',
    national_id: 'GAPM800101HNLRRR05',
    first_name: 'Mario',
    last_name: 'García Pérez',
    gender: 'male',
    date_of_birth: '1980-01-01',
    status: 'found',
    records: [
      r(
        'criminal_record',
        'name',
        'medium',
        'criminal_record_entry',
        {
          offense: 'Lesiones',
          sentence: '2 años',
          court: 'Juzgado 5 Penal Sandbox de Monterrey',
          case_number: '88/2018',
        },
        { date: '2018-10-10' },
      ),
    ],
  },
  // ---------------------------------------------------------------- Peru
  {
    ref: 'pe-clean',
    country: 'PE',
    national_id: '40000001',
    first_name: 'Rosa',
    last_name: 'Quispe Mamani',
    gender: 'female',
    date_of_birth: '1991-05-05',
    issue_date: '2015-06-06',
    status: 'found',
    records: [],
  },
  {
    ref: 'pe-convicted',
    country: 'PE',
    national_id: '40000002',
    first_name: 'Luis Alberto',
    last_name: 'Huamán Flores',
    gender: 'male',
    date_of_birth: '1983-03-13',
    issue_date: '2012-01-20',
    status: 'found',
    records: [
      r(
        'criminal_record',
        'id',
        'high',
        'criminal_record_entry',
        {
          offense: 'Robo agravado',
          sentence: '8 años',
          court: 'Corte Superior Sandbox de Lima',
          case_number: '00231-2017',
        },
        { date: '2017-05-30' },
      ),
      r(
        'traffic_fines',
        'id',
        'medium',
        'traffic_fine',
        { amount: 'PEN 1.980', status: 'unpaid', authority: 'SAT Sandbox Lima' },
        { date: '2024-03-03' },
      ),
    ],
  },
  {
    ref: 'pe-deceased',
    country: 'PE',
    national_id: '40000003',
    first_name: 'Julio',
    last_name: 'Chávez Rojas',
    gender: 'male',
    date_of_birth: '1940-10-10',
    status: 'dead',
    death_date: '2019-04-01',
    records: [],
  },
  {
    ref: 'pe-venezuelan',
    country: 'PE',
    foreign_id: 'CE400004',
    ptp: 'PTP400004',
    first_name: 'Daniela',
    last_name: 'Pérez Salazar',
    gender: 'female',
    date_of_birth: '1996-06-16',
    status: 'found',
    records: [],
  },
  // ---------------------------------------------------------------- Brazil (CPF: the 9th digit gives the region)
  {
    ref: 'br-clean',
    country: 'BR',
    national_id: '12345678909',
    first_name: 'Bruno',
    last_name: 'Cecatto Silva',
    gender: 'male',
    date_of_birth: '1987-02-02',
    status: 'found',
    records: [],
  },
  {
    ref: 'br-convicted-df',
    country: 'BR',
    national_id: '98765432100',
    first_name: 'Lessandra',
    last_name: 'Ludke',
    gender: 'female',
    date_of_birth: '1990-09-09',
    status: 'found',
    records: [
      r(
        'criminal_record',
        'id',
        'high',
        'criminal_record_entry',
        {
          offense: 'Estelionato',
          sentence: '3 anos',
          court: 'TJDFT Sandbox',
          case_number: '0701234-55.2020.8.07.0001',
        },
        { region: 'DF', date: '2020-08-08' },
      ),
    ],
  },
  {
    // Region PA by CPF; the only record sits in a São Paulo court: a PA search is clean, a nation-wide one is not.
    ref: 'br-elsewhere',
    country: 'BR',
    national_id: '00011122286',
    first_name: 'Marcos Vinícius',
    last_name: 'Almeida',
    gender: 'male',
    date_of_birth: '1984-04-04',
    status: 'found',
    records: [
      r(
        'criminal_record',
        'id',
        'very_high',
        'criminal_record_entry',
        { offense: 'Roubo', sentence: '9 anos', court: 'TJSP Sandbox', case_number: '1501234-11.2016.8.26.0050' },
        { region: 'SP', date: '2016-02-15' },
      ),
    ],
  },
  {
    ref: 'br-homonym-a',
    country: 'BR',
    national_id: '11122233344',
    first_name: 'João',
    last_name: 'da Silva Santos',
    gender: 'male',
    date_of_birth: '1975-05-25',
    status: 'found',
    records: [],
  },
  {
    ref: 'br-homonym-b',
    country: 'BR',
    national_id: '55566677788',
    first_name: 'João',
    last_name: 'da Silva Santos',
    gender: 'male',
    date_of_birth: '1979-09-19',
    status: 'found',
    records: [
      r(
        'legal_background',
        'id',
        'low',
        'judicial_process',
        {
          court: 'TJRJ Sandbox',
          case_number: '0012345-67.2019.8.19.0001',
          status: 'closed',
          description: 'Ação de cobrança',
        },
        { region: 'RJ', date: '2019-03-03' },
      ),
      r(
        'alert_in_media',
        'name',
        'medium',
        'media_article',
        { headline: 'Empresário investigado por fraude em licitação', source: 'Jornal Sandbox' },
        { date: '2023-06-06' },
      ),
    ],
  },
  // ---------------------------------------------------------------- Chile
  {
    ref: 'cl-clean',
    country: 'CL',
    national_id: '12345678-5',
    document_number: '100200300',
    first_name: 'Camila',
    last_name: 'Fernández Soto',
    gender: 'female',
    date_of_birth: '1994-11-11',
    status: 'found',
    records: [],
  },
  {
    ref: 'cl-criminal',
    country: 'CL',
    national_id: '15555555-5',
    document_number: '100200301',
    first_name: 'Diego',
    last_name: 'Muñoz Rojas',
    gender: 'male',
    date_of_birth: '1982-12-02',
    status: 'found',
    records: [
      r(
        'criminal_record',
        'name',
        'high',
        'criminal_record_entry',
        {
          offense: 'Tráfico de drogas',
          sentence: '5 años',
          court: 'Juzgado de Garantía Sandbox de Santiago',
          case_number: 'RIT 1234-2018',
        },
        { date: '2018-07-07' },
      ),
      r(
        'legal_background',
        'name',
        'low',
        'judicial_process',
        {
          court: 'Juzgado Civil Sandbox de Valparaíso',
          case_number: 'C-555-2022',
          status: 'closed',
          description: 'Cobro de pesos',
        },
        { date: '2022-10-10' },
      ),
    ],
  },
  // ---------------------------------------------------------------- Costa Rica
  {
    ref: 'cr-clean',
    country: 'CR',
    national_id: '101110111',
    first_name: 'Andrea',
    last_name: 'Solís Vargas',
    gender: 'female',
    date_of_birth: '1989-01-21',
    status: 'found',
    records: [],
  },
  {
    ref: 'cr-convicted',
    country: 'CR',
    national_id: '202220222',
    first_name: 'Esteban',
    last_name: 'Mora Jiménez',
    gender: 'male',
    date_of_birth: '1986-06-26',
    status: 'found',
    records: [
      r(
        'criminal_record',
        'id',
        'high',
        'criminal_record_entry',
        {
          offense: 'Asalto',
          sentence: '4 años',
          court: 'Tribunal Penal Sandbox de San José',
          case_number: '19-000123-0042-PE',
        },
        { date: '2019-09-19' },
      ),
      r(
        'traffic_fines',
        'id',
        'low',
        'traffic_fine',
        { amount: 'CRC 52.000', status: 'unpaid', authority: 'COSEVI Sandbox' },
        { date: '2024-05-05' },
      ),
    ],
  },
];

export const SANDBOX_VEHICLES: SandboxVehicle[] = [
  {
    ref: 'co-car-clean',
    country: 'CO',
    license_plate: 'ABC123',
    vehicle_id: '9GAMF48D0FB000001',
    owner_national_id: '1000000001',
    manufacturer: 'Chevrolet',
    model: 'Spark GT',
    year: 2015,
    color: 'rojo',
    vehicle_type: 'Automóvil',
    service_type: 'particular',
    vehicle_category: 'M1',
    number_of_doors: 5,
    capacity: 5,
    obligatory_insurance_status: 'VIGENTE',
    obligatory_insurance_expiration_date: '2031-01-31',
    records: [
      r('vehicle_permits', 'id', 'none', 'technical_inspection', { status: 'valid', expiration_date: '2031-01-31' }),
    ],
  },
  {
    ref: 'co-car-stolen',
    country: 'CO',
    license_plate: 'XYZ987',
    vehicle_id: '9FBHSRAJ0CM000002',
    owner_national_id: '1000000002',
    manufacturer: 'Renault',
    model: 'Logan',
    year: 2012,
    color: 'gris',
    vehicle_type: 'Automóvil',
    service_type: 'particular',
    vehicle_category: 'M1',
    number_of_doors: 4,
    capacity: 5,
    obligatory_insurance_status: 'VENCIDO',
    obligatory_insurance_expiration_date: '2022-06-30',
    records: [
      r(
        'vehicle_information',
        'id',
        'very_high',
        'vehicle_stolen_report',
        { authority: 'Policía Nacional Sandbox', status: 'active', description: 'Denuncia por hurto' },
        { date: '2024-02-14' },
      ),
      r('vehicle_permits', 'id', 'high', 'insurance_status', { status: 'expired', expiration_date: '2022-06-30' }),
      r(
        'traffic_fines',
        'id',
        'medium',
        'traffic_fine',
        { amount: 'COP 2.340.000', status: 'unpaid', authority: 'SIMIT Sandbox', description: '3 comparendos' },
        { date: '2023-12-01' },
      ),
    ],
  },
  {
    ref: 'co-car-fined',
    country: 'CO',
    license_plate: 'DEF456',
    owner_national_id: '1000000005',
    manufacturer: 'Mazda',
    model: '3 Touring',
    year: 2019,
    color: 'blanco',
    vehicle_type: 'Automóvil',
    service_type: 'particular',
    vehicle_category: 'M1',
    number_of_doors: 4,
    capacity: 5,
    obligatory_insurance_status: 'VIGENTE',
    obligatory_insurance_expiration_date: '2030-08-31',
    records: [
      r(
        'traffic_fines',
        'id',
        'low',
        'traffic_fine',
        { amount: 'COP 468.000', status: 'unpaid', authority: 'SIMIT Sandbox' },
        { date: '2024-04-04' },
      ),
    ],
  },
  {
    ref: 'mx-car-clean',
    country: 'MX',
    license_plate: 'MXA1234',
    manufacturer: 'Nissan',
    model: 'Versa',
    year: 2020,
    color: 'azul',
    vehicle_type: 'Sedán',
    service_type: 'particular',
    vehicle_category: 'M1',
    number_of_doors: 4,
    capacity: 5,
    obligatory_insurance_status: 'VIGENTE',
    obligatory_insurance_expiration_date: '2030-12-31',
    records: [],
  },
  {
    ref: 'mx-car-stolen',
    country: 'MX',
    license_plate: 'MXB5678',
    vehicle_id: '3VWFE21C04M000001',
    manufacturer: 'Volkswagen',
    model: 'Jetta',
    year: 2004,
    color: 'negro',
    vehicle_type: 'Sedán',
    service_type: 'particular',
    vehicle_category: 'M1',
    number_of_doors: 4,
    capacity: 5,
    obligatory_insurance_status: 'SIN SEGURO',
    obligatory_insurance_expiration_date: '2015-01-01',
    records: [
      r(
        'vehicle_information',
        'id',
        'very_high',
        'vehicle_stolen_report',
        { authority: 'REPUVE Sandbox', status: 'active', description: 'Reporte de robo' },
        { date: '2021-01-21' },
      ),
    ],
  },
  {
    ref: 'pe-car-fined',
    country: 'PE',
    license_plate: 'PEA123',
    owner_national_id: '40000002',
    manufacturer: 'Toyota',
    model: 'Yaris',
    year: 2016,
    color: 'plata',
    vehicle_type: 'Automóvil',
    service_type: 'particular',
    vehicle_category: 'M1',
    number_of_doors: 4,
    capacity: 5,
    obligatory_insurance_status: 'VIGENTE',
    obligatory_insurance_expiration_date: '2030-03-31',
    records: [
      r(
        'traffic_fines',
        'id',
        'medium',
        'traffic_fine',
        { amount: 'PEN 1.980', status: 'unpaid', authority: 'SAT Sandbox Lima', description: 'Papeletas' },
        { date: '2024-03-03' },
      ),
    ],
  },
  {
    ref: 'br-car-fined',
    country: 'BR',
    license_plate: 'BRA2E19',
    manufacturer: 'Fiat',
    model: 'Argo',
    year: 2021,
    color: 'branco',
    vehicle_type: 'Automóvel',
    service_type: 'particular',
    vehicle_category: 'M1',
    number_of_doors: 4,
    capacity: 5,
    obligatory_insurance_status: 'EM DIA',
    obligatory_insurance_expiration_date: '2030-12-31',
    records: [
      r(
        'traffic_fines',
        'id',
        'medium',
        'traffic_fine',
        { amount: 'BRL 880,41', status: 'unpaid', authority: 'DETRAN-SP Sandbox' },
        { date: '2024-07-07' },
      ),
    ],
  },
  {
    ref: 'cl-car-permit',
    country: 'CL',
    license_plate: 'GHJK34',
    manufacturer: 'Kia',
    model: 'Rio',
    year: 2017,
    color: 'rojo',
    vehicle_type: 'Automóvil',
    service_type: 'particular',
    vehicle_category: 'M1',
    number_of_doors: 4,
    capacity: 5,
    obligatory_insurance_status: 'VIGENTE',
    obligatory_insurance_expiration_date: '2030-03-31',
    records: [
      r(
        'vehicle_permits',
        'id',
        'high',
        'circulation_permit',
        { status: 'unpaid', description: 'Permiso de circulación impago' },
        { date: '2025-03-31' },
      ),
      r(
        'traffic_fines',
        'id',
        'medium',
        'traffic_fine',
        { amount: 'CLP 180.000', status: 'unpaid', authority: 'Registro de Multas Sandbox' },
        { date: '2024-11-11' },
      ),
    ],
  },
  {
    ref: 'cr-car-license',
    country: 'CR',
    license_plate: 'CRC987',
    owner_national_id: '202220222',
    manufacturer: 'Hyundai',
    model: 'Accent',
    year: 2014,
    color: 'verde',
    vehicle_type: 'Automóvil',
    service_type: 'particular',
    vehicle_category: 'M1',
    number_of_doors: 4,
    capacity: 5,
    obligatory_insurance_status: 'VIGENTE',
    obligatory_insurance_expiration_date: '2030-12-31',
    records: [
      r(
        'driving_licenses',
        'id',
        'high',
        'driving_license',
        { status: 'suspended', description: 'Licencia del propietario suspendida' },
        { date: '2024-01-01' },
      ),
    ],
  },
];

export const SANDBOX_COMPANIES: SandboxCompany[] = [
  {
    ref: 'co-company-clean',
    country: 'CO',
    tax_id: '900100200-1',
    company_name: 'Comercializadora Andina S.A.S.',
    status: 'active',
    records: [],
  },
  {
    ref: 'co-company-liquidation',
    country: 'CO',
    tax_id: '900300400-5',
    company_name: 'Inversiones El Dorado Ltda.',
    status: 'inactive',
    records: [
      r(
        'business_background',
        'id',
        'medium',
        'business_registration',
        { status: 'in_liquidation', authority: 'Cámara de Comercio Sandbox' },
        { date: '2023-09-01' },
      ),
      r(
        'legal_background',
        'name',
        'high',
        'judicial_process',
        {
          court: 'Juzgado 8 Civil Sandbox de Bogotá',
          case_number: '11001-31-03-2022-00777',
          status: 'open',
          description: 'Demanda laboral colectiva',
        },
        { date: '2022-12-12' },
      ),
      r(
        'taxes_and_finances',
        'id',
        'high',
        'tax_debt',
        { amount: 'COP 310.000.000', status: 'in_collection', source: 'Buró Sandbox' },
        { date: '2024-02-29' },
      ),
      r(
        'alert_in_media',
        'name',
        'low',
        'media_article',
        { headline: 'Inversiones El Dorado anuncia reestructuración', source: 'Portafolio Sandbox' },
        { date: '2023-09-05' },
      ),
    ],
  },
  {
    ref: 'co-company-sanctioned',
    country: 'CO',
    tax_id: '800500600-2',
    company_name: 'Transportes Rápidos del Sur S.A.',
    status: 'active',
    records: [
      r(
        'international_background',
        'name',
        'very_high',
        'sanctions_list_entry',
        {
          list: 'Sandbox Consolidated Sanctions List',
          authority: 'Sandbox Treasury',
          description: 'Designated entity',
        },
        { date: '2021-05-05' },
      ),
    ],
  },
  {
    ref: 'mx-company-clean',
    country: 'MX',
    tax_id: 'CAN010101AB1',
    company_name: 'Comercializadora Azteca Norte S.A. de C.V.',
    status: 'active',
    records: [],
  },
  {
    ref: 'mx-company-efos',
    country: 'MX',
    tax_id: 'IDM050505XY9',
    company_name: 'Importadora del Mar S.A. de C.V.',
    status: 'active',
    records: [
      r(
        'taxes_and_finances',
        'id',
        'very_high',
        'tax_blacklist',
        { list: 'Lista 69-B Sandbox (EFOS)', authority: 'SAT Sandbox', status: 'definitive' },
        { date: '2020-02-02' },
      ),
    ],
  },
  {
    ref: 'pe-company-mining',
    country: 'PE',
    tax_id: '20100000001',
    company_name: 'Minera Andes del Sur S.A.C.',
    status: 'active',
    records: [
      r(
        'legal_background',
        'name',
        'medium',
        'judicial_process',
        {
          court: 'Corte Superior Sandbox de Arequipa',
          case_number: '01234-2021',
          status: 'open',
          description: 'Proceso ambiental',
        },
        { date: '2021-06-06' },
      ),
    ],
  },
  {
    ref: 'pe-company-clean',
    country: 'PE',
    tax_id: '20100000002',
    company_name: 'Textiles Pacífico S.A.',
    status: 'active',
    records: [],
  },
  {
    ref: 'br-company-clean',
    country: 'BR',
    tax_id: '12345678000195',
    company_name: 'Padaria Pão Dourado Ltda',
    status: 'active',
    records: [],
  },
  {
    ref: 'br-company-suspended',
    country: 'BR',
    tax_id: '98765432000110',
    company_name: 'Construtora Horizonte S.A.',
    status: 'inactive',
    records: [
      r(
        'business_background',
        'id',
        'high',
        'business_registration',
        { status: 'suspended', authority: 'Junta Comercial Sandbox' },
        { date: '2022-02-22' },
      ),
      r(
        'taxes_and_finances',
        'id',
        'very_high',
        'tax_debt',
        { amount: 'BRL 12.400.000,00', status: 'active_debt', source: 'Receita Federal Sandbox' },
        { date: '2023-03-31' },
      ),
    ],
  },
  {
    ref: 'cl-company-clean',
    country: 'CL',
    tax_id: '76123456-7',
    company_name: 'Servicios Australes SpA',
    status: 'active',
    records: [],
  },
];

export const SANDBOX_LISTED_NAMES: SandboxListedName[] = [
  {
    ref: 'int-sanctioned',
    country: 'ALL',
    name: 'Viktor Sokolov',
    records: [
      r(
        'international_background',
        'name',
        'very_high',
        'sanctions_list_entry',
        {
          list: 'Sandbox Consolidated Sanctions List',
          authority: 'Sandbox Treasury',
          description: 'Designated individual',
        },
        { date: '2019-03-19' },
      ),
      r(
        'alert_in_media',
        'name',
        'high',
        'media_article',
        { headline: 'Sanctioned businessman linked to shell companies', source: 'Sandbox Wire' },
        { date: '2022-08-08' },
      ),
    ],
  },
  {
    ref: 'int-pep',
    country: 'ALL',
    name: 'Helena Marković',
    records: [
      r(
        'international_background',
        'name',
        'low',
        'sanctions_list_entry',
        {
          list: 'Sandbox Politically Exposed Persons',
          authority: 'Sandbox Registry',
          description: 'Former deputy minister',
        },
        { date: '2018-01-01' },
      ),
    ],
  },
];
