import { r, SandboxPerson } from './sandbox-records';

/** Sandbox people of Chile and Costa Rica. */
export const CL_CR_PEOPLE: SandboxPerson[] = [
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
