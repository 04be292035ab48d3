import { BRAZIL_REGIONS, type BuiltInCheckType, type CheckCountry, type DataSet, type DetailLanguage } from '@kyc/contracts';
import type { DetailGroup, SearchSpec } from '../collector';

/** Declarative description of one sandbox database (see SandboxCollector for its behaviour). */
export interface SandboxDatabaseSpec {
  id: string;
  name: string;
  country: CheckCountry;
  dataSets: DataSet[];
  types: BuiltInCheckType[];
  searches: SearchSpec[];
  /** Nominal answer time (ms) before CHECKS_SANDBOX_LATENCY_SCALE; may depend on the check's region. */
  latencyMs: number | ((region: string | null) => number);
  expectedLatencyMs: number;
  group: DetailGroup;
  language: DetailLanguage;
  needsCredentials?: boolean;
  /** Answers through POST /v1/webhooks/sandbox instead of being polled. */
  webhook?: boolean;
  /** Only for checks whose effective region satisfies this (Brazil's courts). */
  regions?: 'state' | 'nation-wide';
  /** Issues a certificate attachment with every answer. */
  certificate?: boolean;
}

const MIN = 60_000;
const HOUR = 60 * MIN;
const personName: SearchSpec = { by: 'name', inputs: ['first_name', 'last_name'], types: ['person'] };
const companyName: SearchSpec = { by: 'name', inputs: ['company_name'], types: ['company'] };

/** A state court of Brazil answers in 2 to 20 minutes, fixed per state. */
export const brazilRegionLatencyMs = (region: string | null): number => {
  const i = Math.max(0, (BRAZIL_REGIONS as readonly string[]).indexOf(region ?? 'DF'));
  return (2 + ((i * 7) % 19)) * MIN;
};

export const SANDBOX_DATABASES: SandboxDatabaseSpec[] = [
  // International (name searches for person and company checks of every country, and of country ALL)
  { id: 'sandbox-int-sanctions', name: 'Sandbox International Sanctions and Most-Wanted Lists', country: 'ALL', dataSets: ['international_background'], types: ['person', 'company'], searches: [personName, companyName], latencyMs: 600, expectedLatencyMs: 30_000, group: 'global', language: 'en' },
  { id: 'sandbox-int-media', name: 'Sandbox Adverse Media Search', country: 'ALL', dataSets: ['alert_in_media'], types: ['person', 'company'], searches: [personName, companyName], latencyMs: 800, expectedLatencyMs: 60_000, group: 'media', language: 'en' },

  // Colombia
  {
    id: 'sandbox-co-registry', name: 'Sandbox Registraduría Nacional (identidad)', country: 'CO', dataSets: ['personal_identity', 'document_validation'], types: ['person', 'vehicle'],
    searches: [{ by: 'id', inputs: ['national_id'], types: ['person'] }, { by: 'id', inputs: ['foreign_id'], types: ['person'] }, { by: 'id', inputs: ['pep'], types: ['person'] }, { by: 'id', inputs: ['owner_document_id'], types: ['vehicle'] }],
    latencyMs: 500, expectedLatencyMs: 30_000, group: 'profile', language: 'es',
  },
  {
    id: 'sandbox-co-police', name: 'Sandbox Policía Nacional (antecedentes judiciales)', country: 'CO', dataSets: ['criminal_record'], types: ['person', 'vehicle'],
    searches: [{ by: 'id', inputs: ['national_id'], types: ['person'] }, { by: 'id', inputs: ['foreign_id'], types: ['person'] }, { by: 'id', inputs: ['owner_document_id'], types: ['vehicle'] }],
    latencyMs: 700, expectedLatencyMs: 60_000, group: 'legal', language: 'es', certificate: true,
  },
  { id: 'sandbox-co-judicial', name: 'Sandbox Rama Judicial (procesos)', country: 'CO', dataSets: ['legal_background', 'criminal_record'], types: ['person', 'company'], searches: [personName, companyName], latencyMs: 1_200, expectedLatencyMs: 2 * MIN, group: 'legal', language: 'es' },
  {
    id: 'sandbox-co-procuraduria', name: 'Sandbox Procuraduría (antecedentes disciplinarios)', country: 'CO', dataSets: ['legal_background'], types: ['person', 'company'],
    searches: [{ by: 'id', inputs: ['national_id'], types: ['person'] }, { by: 'id', inputs: ['tax_id'], types: ['company'] }], latencyMs: 900, expectedLatencyMs: 60_000, group: 'legal', language: 'es',
  },
  {
    id: 'sandbox-co-simit', name: 'Sandbox SIMIT (multas de tránsito)', country: 'CO', dataSets: ['traffic_fines'], types: ['person', 'vehicle'],
    searches: [{ by: 'id', inputs: ['license_plate'], types: ['vehicle'] }, { by: 'id', inputs: ['national_id'], types: ['person'] }, { by: 'id', inputs: ['foreign_id'], types: ['person'] }],
    latencyMs: 600, expectedLatencyMs: 60_000, group: 'vehicle', language: 'es',
  },
  {
    id: 'sandbox-co-runt', name: 'Sandbox RUNT (vehículos y licencias de conducción)', country: 'CO', dataSets: ['vehicle_information', 'vehicle_permits', 'driving_licenses'], types: ['person', 'vehicle'],
    searches: [{ by: 'id', inputs: ['license_plate'], types: ['vehicle'] }, { by: 'id', inputs: ['vehicle_id'], types: ['vehicle'] }, { by: 'id', inputs: ['national_id'], types: ['person'] }],
    latencyMs: 800, expectedLatencyMs: 60_000, group: 'vehicle', language: 'es',
  },
  { id: 'sandbox-co-rues', name: 'Sandbox RUES (registro mercantil)', country: 'CO', dataSets: ['business_background'], types: ['company'], searches: [{ by: 'id', inputs: ['tax_id'] }], latencyMs: 700, expectedLatencyMs: 60_000, group: 'global', language: 'es' },
  {
    id: 'sandbox-co-bureau', name: 'Sandbox Buró de crédito (comercial, requiere credenciales)', country: 'CO', dataSets: ['taxes_and_finances'], types: ['person', 'company'],
    searches: [{ by: 'id', inputs: ['national_id'], types: ['person'] }, { by: 'id', inputs: ['tax_id'], types: ['company'] }], latencyMs: 800, expectedLatencyMs: 60_000, group: 'global', language: 'es', needsCredentials: true,
  },
  {
    id: 'sandbox-co-copnia', name: 'Sandbox Consejo Profesional (tarjetas profesionales)', country: 'CO', dataSets: ['professional_background'], types: ['person'],
    searches: [{ by: 'id', inputs: ['professional_card'] }, { by: 'id', inputs: ['national_id'] }], latencyMs: 700, expectedLatencyMs: 60_000, group: 'profile', language: 'es',
  },
  { id: 'sandbox-co-ruaf', name: 'Sandbox RUAF (afiliaciones a seguridad social)', country: 'CO', dataSets: ['affiliations_and_insurances'], types: ['person'], searches: [{ by: 'id', inputs: ['national_id'] }], latencyMs: 900, expectedLatencyMs: 60_000, group: 'affiliations', language: 'es' },

  // Mexico
  {
    id: 'sandbox-mx-renapo', name: 'Sandbox RENAPO (CURP)', country: 'MX', dataSets: ['personal_identity', 'document_validation'], types: ['person'],
    searches: [{ by: 'id', inputs: ['national_id'] }, { by: 'id', inputs: ['first_name', 'last_name', 'date_of_birth', 'gender', 'state_id'] }], latencyMs: 1_000, expectedLatencyMs: 60_000, group: 'profile', language: 'es',
  },
  { id: 'sandbox-mx-judicial', name: 'Sandbox Poder Judicial de México (boletines)', country: 'MX', dataSets: ['criminal_record', 'legal_background'], types: ['person', 'company'], searches: [personName, companyName], latencyMs: 1_500, expectedLatencyMs: 3 * MIN, group: 'legal', language: 'es' },
  { id: 'sandbox-mx-sat', name: 'Sandbox SAT (situación fiscal)', country: 'MX', dataSets: ['taxes_and_finances', 'business_background'], types: ['person', 'company'], searches: [{ by: 'id', inputs: ['tax_id'] }], latencyMs: 800, expectedLatencyMs: 60_000, group: 'global', language: 'es' },
  { id: 'sandbox-mx-repuve', name: 'Sandbox REPUVE (registro vehicular)', country: 'MX', dataSets: ['vehicle_information', 'vehicle_permits'], types: ['vehicle'], searches: [{ by: 'id', inputs: ['license_plate'] }, { by: 'id', inputs: ['vehicle_id'] }], latencyMs: 900, expectedLatencyMs: 60_000, group: 'vehicle', language: 'es' },
  { id: 'sandbox-mx-imss', name: 'Sandbox IMSS (afiliación)', country: 'MX', dataSets: ['affiliations_and_insurances'], types: ['person'], searches: [{ by: 'id', inputs: ['national_id'] }], latencyMs: 1_000, expectedLatencyMs: 60_000, group: 'affiliations', language: 'es' },
  {
    id: 'sandbox-mx-traffic', name: 'Sandbox Secretaría de Movilidad (multas y licencias)', country: 'MX', dataSets: ['traffic_fines', 'driving_licenses'], types: ['person', 'vehicle'],
    searches: [{ by: 'id', inputs: ['license_plate'], types: ['vehicle'] }, { by: 'id', inputs: ['driver_license'], types: ['person'] }], latencyMs: 800, expectedLatencyMs: 60_000, group: 'vehicle', language: 'es',
  },
  { id: 'sandbox-mx-sep', name: 'Sandbox SEP (cédulas profesionales)', country: 'MX', dataSets: ['professional_background'], types: ['person'], searches: [{ by: 'id', inputs: ['professional_card'] }, { by: 'id', inputs: ['national_id'] }], latencyMs: 700, expectedLatencyMs: 60_000, group: 'profile', language: 'es' },

  // Peru
  {
    id: 'sandbox-pe-reniec', name: 'Sandbox RENIEC (identidad)', country: 'PE', dataSets: ['personal_identity', 'document_validation'], types: ['person', 'vehicle'],
    searches: [{ by: 'id', inputs: ['national_id'], types: ['person'] }, { by: 'id', inputs: ['foreign_id'], types: ['person'] }, { by: 'id', inputs: ['ptp'], types: ['person'] }, { by: 'id', inputs: ['owner_document_id'], types: ['vehicle'] }],
    latencyMs: 800, expectedLatencyMs: 60_000, group: 'profile', language: 'es',
  },
  { id: 'sandbox-pe-police', name: 'Sandbox Policía Nacional del Perú (antecedentes)', country: 'PE', dataSets: ['criminal_record'], types: ['person'], searches: [{ by: 'id', inputs: ['national_id'] }], latencyMs: 900, expectedLatencyMs: 60_000, group: 'legal', language: 'es', certificate: true },
  { id: 'sandbox-pe-judicial', name: 'Sandbox Poder Judicial del Perú (expedientes)', country: 'PE', dataSets: ['legal_background'], types: ['person', 'company'], searches: [personName, companyName], latencyMs: 1_300, expectedLatencyMs: 2 * MIN, group: 'legal', language: 'es' },
  {
    id: 'sandbox-pe-sat', name: 'Sandbox SAT Lima (papeletas)', country: 'PE', dataSets: ['traffic_fines'], types: ['person', 'vehicle'],
    searches: [{ by: 'id', inputs: ['license_plate'], types: ['vehicle'] }, { by: 'id', inputs: ['national_id'], types: ['person'] }], latencyMs: 700, expectedLatencyMs: 60_000, group: 'vehicle', language: 'es',
  },
  { id: 'sandbox-pe-sunarp', name: 'Sandbox SUNARP (registro vehicular)', country: 'PE', dataSets: ['vehicle_information', 'vehicle_permits'], types: ['vehicle'], searches: [{ by: 'id', inputs: ['license_plate'] }], latencyMs: 900, expectedLatencyMs: 60_000, group: 'vehicle', language: 'es' },
  { id: 'sandbox-pe-sunat', name: 'Sandbox SUNAT (RUC)', country: 'PE', dataSets: ['business_background', 'taxes_and_finances'], types: ['person', 'company'], searches: [{ by: 'id', inputs: ['tax_id'] }], latencyMs: 800, expectedLatencyMs: 60_000, group: 'global', language: 'es' },

  // Brazil
  {
    id: 'sandbox-br-receita', name: 'Sandbox Receita Federal (CPF e CNPJ)', country: 'BR', dataSets: ['personal_identity', 'taxes_and_finances'], types: ['person', 'company'],
    searches: [{ by: 'id', inputs: ['national_id', 'date_of_birth'], types: ['person'] }, { by: 'id', inputs: ['tax_id'], types: ['company'] }], latencyMs: 1_000, expectedLatencyMs: 60_000, group: 'profile', language: 'pt',
  },
  {
    id: 'sandbox-br-tj-state', name: 'Sandbox Tribunal de Justiça estadual (busca na região)', country: 'BR', dataSets: ['criminal_record', 'legal_background'], types: ['person'],
    searches: [{ by: 'id', inputs: ['national_id'] }], latencyMs: brazilRegionLatencyMs, expectedLatencyMs: 20 * MIN, group: 'legal', language: 'pt', regions: 'state',
  },
  {
    id: 'sandbox-br-tj-national', name: 'Sandbox Tribunais de Justiça (busca nacional)', country: 'BR', dataSets: ['criminal_record', 'legal_background'], types: ['person'],
    searches: [{ by: 'id', inputs: ['national_id'] }], latencyMs: 26 * HOUR, expectedLatencyMs: 30 * HOUR, group: 'legal', language: 'pt', regions: 'nation-wide', webhook: true,
  },
  { id: 'sandbox-br-detran', name: 'Sandbox DETRAN (veículos e multas)', country: 'BR', dataSets: ['vehicle_information', 'vehicle_permits', 'traffic_fines'], types: ['vehicle'], searches: [{ by: 'id', inputs: ['license_plate'] }], latencyMs: 1_200, expectedLatencyMs: 60_000, group: 'vehicle', language: 'pt' },
  { id: 'sandbox-br-junta', name: 'Sandbox Junta Comercial', country: 'BR', dataSets: ['business_background'], types: ['company'], searches: [{ by: 'id', inputs: ['tax_id'] }, { by: 'name', inputs: ['company_name'] }], latencyMs: 1_000, expectedLatencyMs: 60_000, group: 'global', language: 'pt' },

  // Chile
  {
    id: 'sandbox-cl-registro-civil', name: 'Sandbox Registro Civil (vigencia de cédula)', country: 'CL', dataSets: ['personal_identity', 'document_validation'], types: ['person', 'vehicle'],
    searches: [{ by: 'id', inputs: ['national_id', 'document_number'], types: ['person'] }, { by: 'id', inputs: ['foreign_id', 'date_of_birth', 'native_country'], types: ['person'] }, { by: 'id', inputs: ['owner_document_id'], types: ['vehicle'] }],
    latencyMs: 900, expectedLatencyMs: 60_000, group: 'profile', language: 'es',
  },
  { id: 'sandbox-cl-poder-judicial', name: 'Sandbox Poder Judicial de Chile (causas)', country: 'CL', dataSets: ['criminal_record', 'legal_background'], types: ['person', 'company'], searches: [personName, companyName], latencyMs: 1_400, expectedLatencyMs: 3 * MIN, group: 'legal', language: 'es' },
  {
    id: 'sandbox-cl-sii', name: 'Sandbox SII (situación tributaria)', country: 'CL', dataSets: ['taxes_and_finances', 'business_background'], types: ['person', 'company'],
    searches: [{ by: 'id', inputs: ['national_id'], types: ['person'] }, { by: 'id', inputs: ['tax_id'], types: ['company'] }], latencyMs: 800, expectedLatencyMs: 60_000, group: 'global', language: 'es',
  },
  { id: 'sandbox-cl-vehiculos', name: 'Sandbox Registro de Vehículos Motorizados', country: 'CL', dataSets: ['vehicle_information', 'vehicle_permits', 'traffic_fines'], types: ['vehicle'], searches: [{ by: 'id', inputs: ['license_plate'] }], latencyMs: 1_000, expectedLatencyMs: 60_000, group: 'vehicle', language: 'es' },

  // Costa Rica
  { id: 'sandbox-cr-tse', name: 'Sandbox Tribunal Supremo de Elecciones (identidad)', country: 'CR', dataSets: ['personal_identity'], types: ['person'], searches: [{ by: 'id', inputs: ['national_id'] }, { by: 'id', inputs: ['foreign_id'] }], latencyMs: 800, expectedLatencyMs: 60_000, group: 'profile', language: 'es' },
  { id: 'sandbox-cr-judicial', name: 'Sandbox Poder Judicial de Costa Rica (antecedentes)', country: 'CR', dataSets: ['criminal_record', 'legal_background'], types: ['person'], searches: [{ by: 'id', inputs: ['national_id'] }], latencyMs: 1_000, expectedLatencyMs: 2 * MIN, group: 'legal', language: 'es' },
  {
    id: 'sandbox-cr-cosevi', name: 'Sandbox COSEVI (tránsito y licencias)', country: 'CR', dataSets: ['traffic_fines', 'driving_licenses', 'vehicle_information'], types: ['person', 'vehicle'],
    searches: [{ by: 'id', inputs: ['license_plate'], types: ['vehicle'] }, { by: 'id', inputs: ['national_id'], types: ['person'] }], latencyMs: 900, expectedLatencyMs: 60_000, group: 'vehicle', language: 'es',
  },
];
