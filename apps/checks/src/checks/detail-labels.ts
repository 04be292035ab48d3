import type { DetailLanguage } from '@kyc/contracts';

type Labels = Record<string, Record<DetailLanguage, string>>;

/**
 * Labels of check details (table titles, cell labels, enumerated values) in the languages of
 * GET /v1/checks/{id}/details?lang=es|en|pt. Without lang, details come in the database's own
 * language. A key without a label is shown as is.
 */
export const DETAIL_LABELS: Labels = {
  // record kinds (table titles)
  identity_record: { es: 'Registro de identidad', en: 'Identity record', pt: 'Registro de identidade' },
  identity_not_found: {
    es: 'Documento no encontrado en el registro',
    en: 'Document not found in the registry',
    pt: 'Documento não encontrado no registro',
  },
  identity_deceased: { es: 'Persona fallecida', en: 'Deceased person', pt: 'Pessoa falecida' },
  document_validation_match: {
    es: 'Datos del documento coinciden',
    en: 'Document data match',
    pt: 'Dados do documento conferem',
  },
  document_validation_mismatch: {
    es: 'Datos del documento no coinciden',
    en: 'Document data mismatch',
    pt: 'Dados do documento divergentes',
  },
  criminal_record_entry: { es: 'Antecedente penal', en: 'Criminal record', pt: 'Antecedente criminal' },
  judicial_process: { es: 'Proceso judicial', en: 'Judicial process', pt: 'Processo judicial' },
  disciplinary_sanction: { es: 'Sanción disciplinaria', en: 'Disciplinary sanction', pt: 'Sanção disciplinar' },
  traffic_fine: { es: 'Multa de tránsito', en: 'Traffic fine', pt: 'Multa de trânsito' },
  vehicle_registration: { es: 'Registro del vehículo', en: 'Vehicle registration', pt: 'Registro do veículo' },
  vehicle_stolen_report: {
    es: 'Reporte de robo del vehículo',
    en: 'Stolen vehicle report',
    pt: 'Registro de roubo do veículo',
  },
  insurance_status: { es: 'Seguro obligatorio', en: 'Compulsory insurance', pt: 'Seguro obrigatório' },
  technical_inspection: { es: 'Revisión técnico-mecánica', en: 'Technical inspection', pt: 'Vistoria técnica' },
  circulation_permit: { es: 'Permiso de circulación', en: 'Circulation permit', pt: 'Licenciamento' },
  driving_license: { es: 'Licencia de conducción', en: 'Driving license', pt: 'Carteira de habilitação' },
  business_registration: { es: 'Registro mercantil', en: 'Business registration', pt: 'Registro empresarial' },
  tax_debt: { es: 'Deuda tributaria', en: 'Tax debt', pt: 'Dívida tributária' },
  tax_blacklist: {
    es: 'Lista de contribuyentes incumplidos',
    en: 'Tax non-compliance list',
    pt: 'Lista de contribuintes irregulares',
  },
  credit_default: { es: 'Incumplimiento de crédito', en: 'Credit default', pt: 'Inadimplência' },
  professional_license: { es: 'Tarjeta profesional', en: 'Professional license', pt: 'Registro profissional' },
  affiliation: { es: 'Afiliación', en: 'Affiliation', pt: 'Filiação' },
  sanctions_list_entry: {
    es: 'Lista de sanciones o de búsqueda',
    en: 'Sanctions or wanted list',
    pt: 'Lista de sanções ou procurados',
  },
  media_article: { es: 'Noticia en medios', en: 'Media article', pt: 'Notícia na mídia' },
  sandbox_generated_finding: { es: 'Hallazgo (sandbox)', en: 'Finding (sandbox)', pt: 'Achado (sandbox)' },
  // cell labels
  name: { es: 'Nombre', en: 'Name', pt: 'Nome' },
  document: { es: 'Documento', en: 'Document', pt: 'Documento' },
  date: { es: 'Fecha', en: 'Date', pt: 'Data' },
  date_of_birth: { es: 'Fecha de nacimiento', en: 'Date of birth', pt: 'Data de nascimento' },
  death_date: { es: 'Fecha de defunción', en: 'Date of death', pt: 'Data de óbito' },
  status: { es: 'Estado', en: 'Status', pt: 'Situação' },
  offense: { es: 'Delito', en: 'Offense', pt: 'Crime' },
  sentence: { es: 'Condena', en: 'Sentence', pt: 'Pena' },
  court: { es: 'Juzgado', en: 'Court', pt: 'Tribunal' },
  case_number: { es: 'Número de proceso', en: 'Case number', pt: 'Número do processo' },
  description: { es: 'Descripción', en: 'Description', pt: 'Descrição' },
  amount: { es: 'Valor', en: 'Amount', pt: 'Valor' },
  authority: { es: 'Autoridad', en: 'Authority', pt: 'Autoridade' },
  source: { es: 'Fuente', en: 'Source', pt: 'Fonte' },
  list: { es: 'Lista', en: 'List', pt: 'Lista' },
  headline: { es: 'Titular', en: 'Headline', pt: 'Manchete' },
  plate: { es: 'Placa', en: 'License plate', pt: 'Placa' },
  vehicle: { es: 'Vehículo', en: 'Vehicle', pt: 'Veículo' },
  category: { es: 'Categoría', en: 'Category', pt: 'Categoria' },
  expiration_date: { es: 'Fecha de vencimiento', en: 'Expiration date', pt: 'Data de vencimento' },
  mismatch: { es: 'Dato que no coincide', en: 'Mismatching input', pt: 'Dado divergente' },
  process_number: { es: 'Número de radicado', en: 'Process number', pt: 'Número do processo' },
  parties: { es: 'Partes', en: 'Parties', pt: 'Partes' },
  stage: { es: 'Etapa', en: 'Stage', pt: 'Fase' },
  entry: { es: 'Registro en la lista', en: 'List entry', pt: 'Registro na lista' },
  program: { es: 'Programa', en: 'Program', pt: 'Programa' },
  fine_number: { es: 'Número de comparendo', en: 'Fine number', pt: 'Número da multa' },
  make: { es: 'Marca', en: 'Make', pt: 'Marca' },
  model: { es: 'Línea', en: 'Model', pt: 'Modelo' },
  year: { es: 'Modelo (año)', en: 'Year', pt: 'Ano' },
  permits: { es: 'Permisos', en: 'Permits', pt: 'Licenças' },
  data_source: { es: 'Origen de los datos', en: 'Data source', pt: 'Origem dos dados' },
  // enumerated values
  'value.valid': { es: 'vigente', en: 'valid', pt: 'válido' },
  'value.deceased': { es: 'fallecido', en: 'deceased', pt: 'falecido' },
  'value.active': { es: 'activo', en: 'active', pt: 'ativo' },
  'value.inactive': { es: 'inactivo', en: 'inactive', pt: 'inativo' },
  'value.open': { es: 'abierto', en: 'open', pt: 'em andamento' },
  'value.closed': { es: 'cerrado', en: 'closed', pt: 'encerrado' },
  'value.paid': { es: 'pagada', en: 'paid', pt: 'paga' },
  'value.unpaid': { es: 'pendiente de pago', en: 'unpaid', pt: 'não paga' },
  'value.expired': { es: 'vencido', en: 'expired', pt: 'vencido' },
  'value.suspended': { es: 'suspendida', en: 'suspended', pt: 'suspensa' },
  'value.late': { es: 'en mora', en: 'late', pt: 'em atraso' },
  'value.in_collection': { es: 'en cobro jurídico', en: 'in collection', pt: 'em cobrança' },
  'value.in_liquidation': { es: 'en liquidación', en: 'in liquidation', pt: 'em liquidação' },
  'value.definitive': { es: 'definitivo', en: 'definitive', pt: 'definitivo' },
  'value.active_debt': { es: 'deuda activa', en: 'active debt', pt: 'dívida ativa' },
  'value.sandbox_fictitious': {
    es: 'SANDBOX: registro ficticio',
    en: 'SANDBOX: fictitious record',
    pt: 'SANDBOX: registro fictício',
  },
  'value.sentenced': { es: 'condenado', en: 'sentenced', pt: 'condenado' },
  'value.sentence_served': { es: 'pena cumplida', en: 'sentence served', pt: 'pena cumprida' },
  'value.under_investigation': { es: 'en investigación', en: 'under investigation', pt: 'em investigação' },
  'value.admission': { es: 'admisión', en: 'admission', pt: 'admissão' },
  'value.evidence': { es: 'pruebas', en: 'evidence', pt: 'instrução' },
  'value.first_instance_ruling': {
    es: 'fallo de primera instancia',
    en: 'first-instance ruling',
    pt: 'sentença de primeira instância',
  },
  'value.appeal': { es: 'apelación', en: 'appeal', pt: 'recurso' },
  'value.archived': { es: 'archivado', en: 'archived', pt: 'arquivado' },
  'value.in_payment_agreement': { es: 'en acuerdo de pago', en: 'in payment agreement', pt: 'em acordo de pagamento' },
};

export function label(key: string, lang: DetailLanguage): string {
  return DETAIL_LABELS[key]?.[lang] ?? key;
}

export function valueLabel(value: string, lang: DetailLanguage): string {
  return DETAIL_LABELS[`value.${value}`]?.[lang] ?? value;
}
