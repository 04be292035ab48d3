import type { DetailLanguage } from '@kyc/contracts';

export const PDF_LANGUAGES = ['es', 'en', 'pt'] as const;
export type PdfLanguage = DetailLanguage;
/** The language of a PDF when `lang` is not given. */
export const DEFAULT_PDF_LANGUAGE: PdfLanguage = 'es';

type Labels = Record<string, Record<PdfLanguage, string>>;

/** Headings and field names of the check PDF. */
export const PDF_TEXT: Labels = {
  title: { es: 'Reporte de antecedentes', en: 'Background check report', pt: 'Relatório de antecedentes' },
  check_id: { es: 'ID del chequeo', en: 'Check ID', pt: 'ID da consulta' },
  country: { es: 'País', en: 'Country', pt: 'País' },
  type: { es: 'Tipo', en: 'Type', pt: 'Tipo' },
  status: { es: 'Estado', en: 'Status', pt: 'Status' },
  creation_date: { es: 'Fecha de creación', en: 'Creation date', pt: 'Data de criação' },
  generated_at: { es: 'Generado el', en: 'Generated on', pt: 'Gerado em' },
  inputs: { es: 'Información consultada', en: 'Information searched', pt: 'Informações consultadas' },
  scores: { es: 'Puntajes', en: 'Scores', pt: 'Pontuações' },
  score: { es: 'Puntaje global', en: 'Global score', pt: 'Pontuação global' },
  id_score: { es: 'Puntaje por documento', en: 'ID score', pt: 'Pontuação por documento' },
  homonym_score: { es: 'Puntaje por nombre', en: 'Name score', pt: 'Pontuação por nome' },
  score_scale: {
    es: '0 es riesgo alto, 1 es riesgo bajo; -1 sin resultado',
    en: '0 is high risk, 1 is low risk; -1 no result',
    pt: '0 é risco alto, 1 é risco baixo; -1 sem resultado',
  },
  datasets: { es: 'Conjuntos de datos consultados', en: 'Datasets consulted', pt: 'Conjuntos de dados consultados' },
  dataset: { es: 'Conjunto de datos', en: 'Dataset', pt: 'Conjunto de dados' },
  result: { es: 'Resultado', en: 'Result', pt: 'Resultado' },
  severity: { es: 'Severidad', en: 'Severity', pt: 'Severidade' },
  databases: { es: 'Bases de datos', en: 'Databases', pt: 'Bases de dados' },
  records: { es: 'Registros encontrados', en: 'Records found', pt: 'Registros encontrados' },
  none: { es: 'Ninguno', en: 'None', pt: 'Nenhum' },
  input: { es: 'Dato', en: 'Input', pt: 'Dado' },
  value: { es: 'Valor', en: 'Value', pt: 'Valor' },
  score_short: { es: 'Puntaje', en: 'Score', pt: 'Pontuação' },
  band_high: { es: 'Riesgo alto', en: 'High risk', pt: 'Risco alto' },
  band_medium: { es: 'Riesgo medio', en: 'Medium risk', pt: 'Risco médio' },
  band_low: { es: 'Riesgo bajo', en: 'Low risk', pt: 'Risco baixo' },
  no_result: { es: 'Sin resultado', en: 'No result', pt: 'Sem resultado' },
  records_found: { es: 'Información encontrada', en: 'Information found', pt: 'Informações encontradas' },
  no_records: {
    es: 'Ninguna base de datos encontró registros.',
    en: 'No database found any record.',
    pt: 'Nenhuma base de dados encontrou registros.',
  },
  found_by: { es: 'Encontrado por', en: 'Found by', pt: 'Encontrado por' },
  by_id: { es: 'documento', en: 'ID', pt: 'documento' },
  by_name: { es: 'nombre', en: 'name', pt: 'nome' },
  homonym_warning: {
    es: 'Encontrado solo por nombre: puede pertenecer a un homónimo; confírmelo con el documento.',
    en: 'Found by name only: it may belong to a homonym; confirm it with the ID document.',
    pt: 'Encontrado apenas pelo nome: pode pertencer a um homônimo; confirme-o com o documento.',
  },
  database: { es: 'Base de datos', en: 'Database', pt: 'Base de dados' },
  page_of: { es: 'Página {x} de {y}', en: 'Page {x} of {y}', pt: 'Página {x} de {y}' },
  batch_title: { es: 'Reporte de lote de chequeos', en: 'Batch check report', pt: 'Relatório de lote de consultas' },
  batch_id: { es: 'ID del lote', en: 'Batch ID', pt: 'ID do lote' },
  batch_rows: { es: 'Filas del lote', en: 'Batch rows', pt: 'Linhas do lote' },
  band: {
    es: 'Franja de riesgo (puntaje global)',
    en: 'Risk band (global score)',
    pt: 'Faixa de risco (pontuação global)',
  },
  rows: { es: 'Filas', en: 'Rows', pt: 'Linhas' },
  col_row_number: { es: 'Fila', en: 'Row', pt: 'Linha' },
  col_status: { es: 'Estado de la fila', en: 'Row status', pt: 'Status da linha' },
  col_check_id: { es: 'ID del chequeo', en: 'Check ID', pt: 'ID da consulta' },
  col_check_status: { es: 'Estado del chequeo', en: 'Check status', pt: 'Status da consulta' },
  col_score: { es: 'Puntaje global', en: 'Global score', pt: 'Pontuação global' },
  col_id_score: { es: 'Puntaje por documento', en: 'ID score', pt: 'Pontuação por documento' },
  col_homonym_score: { es: 'Puntaje por nombre', en: 'Name score', pt: 'Pontuação por nome' },
  col_error_fields: { es: 'Campos con error', en: 'Error fields', pt: 'Campos com erro' },
  col_error_messages: { es: 'Errores', en: 'Errors', pt: 'Erros' },
  legal_title: { es: 'Nota legal', en: 'Legal note', pt: 'Nota legal' },
  legal_note: {
    es: 'Los puntajes resumen lo que respondieron las fuentes consultadas en la fecha indicada: 1 significa que no se encontró información de riesgo y 0 que se encontró información de riesgo alto. No constituyen una decisión ni un certificado; la información debe usarse conforme a la ley de protección de datos y con la autorización del titular. Los registros del entorno sandbox son ficticios y no corresponden a personas reales.',
    en: "The scores summarise what the consulted sources answered on the date shown: 1 means no risk information was found and 0 that high-risk information was found. They are neither a decision nor a certificate; use this information under data protection law and with the data subject's authorisation. Records of the sandbox environment are fictitious and do not belong to real people.",
    pt: 'As pontuações resumem o que as fontes consultadas responderam na data indicada: 1 significa que não foi encontrada informação de risco e 0 que foi encontrada informação de risco alto. Não constituem uma decisão nem um certificado; use esta informação conforme a lei de proteção de dados e com a autorização do titular. Os registros do ambiente sandbox são fictícios e não pertencem a pessoas reais.',
  },
};

/** Datasets, results, severities and statuses. */
export const PDF_VALUES: Labels = {
  affiliations_and_insurances: {
    es: 'Afiliaciones y seguros',
    en: 'Affiliations and insurances',
    pt: 'Afiliações e seguros',
  },
  alert_in_media: { es: 'Alertas en medios', en: 'Alerts in media', pt: 'Alertas na mídia' },
  business_background: { es: 'Antecedentes empresariales', en: 'Business background', pt: 'Antecedentes empresariais' },
  criminal_record: { es: 'Antecedentes penales', en: 'Criminal record', pt: 'Antecedentes criminais' },
  driving_licenses: { es: 'Licencias de conducción', en: 'Driving licenses', pt: 'Carteiras de habilitação' },
  international_background: {
    es: 'Antecedentes internacionales',
    en: 'International background',
    pt: 'Antecedentes internacionais',
  },
  legal_background: { es: 'Antecedentes legales', en: 'Legal background', pt: 'Antecedentes legais' },
  personal_identity: { es: 'Identidad personal', en: 'Personal identity', pt: 'Identidade pessoal' },
  professional_background: {
    es: 'Antecedentes profesionales',
    en: 'Professional background',
    pt: 'Antecedentes profissionais',
  },
  taxes_and_finances: { es: 'Impuestos y finanzas', en: 'Taxes and finances', pt: 'Impostos e finanças' },
  traffic_fines: { es: 'Multas de tránsito', en: 'Traffic fines', pt: 'Multas de trânsito' },
  vehicle_information: { es: 'Información del vehículo', en: 'Vehicle information', pt: 'Informações do veículo' },
  vehicle_permits: { es: 'Permisos del vehículo', en: 'Vehicle permits', pt: 'Licenças do veículo' },
  document_validation: { es: 'Validación de documento', en: 'Document validation', pt: 'Validação de documento' },
  found: { es: 'Encontrado', en: 'Found', pt: 'Encontrado' },
  not_found: { es: 'No encontrado', en: 'Not found', pt: 'Não encontrado' },
  pending: { es: 'Pendiente', en: 'Pending', pt: 'Pendente' },
  error: { es: 'Error', en: 'Error', pt: 'Erro' },
  delayed: { es: 'Demorado', en: 'Delayed', pt: 'Atrasado' },
  ignored: { es: 'Omitido', en: 'Skipped', pt: 'Ignorado' },
  skipped: { es: 'Omitido', en: 'Skipped', pt: 'Ignorado' },
  expired: { es: 'Vencido', en: 'Expired', pt: 'Expirado' },
  completed: { es: 'Completado', en: 'Completed', pt: 'Concluído' },
  not_started: { es: 'No iniciado', en: 'Not started', pt: 'Não iniciado' },
  in_progress: { es: 'En proceso', en: 'In progress', pt: 'Em andamento' },
  unknown: { es: 'Desconocida', en: 'Unknown', pt: 'Desconhecida' },
  very_low: { es: 'Muy baja', en: 'Very low', pt: 'Muito baixa' },
  low: { es: 'Baja', en: 'Low', pt: 'Baixa' },
  medium: { es: 'Media', en: 'Medium', pt: 'Média' },
  high: { es: 'Alta', en: 'High', pt: 'Alta' },
  very_high: { es: 'Muy alta', en: 'Very high', pt: 'Muito alta' },
  none: { es: 'Ninguna', en: 'None', pt: 'Nenhuma' },
  person: { es: 'Persona', en: 'Person', pt: 'Pessoa' },
  vehicle: { es: 'Vehículo', en: 'Vehicle', pt: 'Veículo' },
  company: { es: 'Empresa', en: 'Company', pt: 'Empresa' },
  created: { es: 'Creado', en: 'Created', pt: 'Criado' },
  failed: { es: 'Fallido', en: 'Failed', pt: 'Falhou' },
  stopped: { es: 'Detenido', en: 'Stopped', pt: 'Parado' },
  file_uploaded: { es: 'Archivo cargado', en: 'File uploaded', pt: 'Arquivo carregado' },
  processing: { es: 'En proceso', en: 'Processing', pt: 'Em processamento' },
};

/** Names of the most common inputs; others are shown by their wire name. */
export const PDF_INPUTS: Labels = {
  national_id: { es: 'Número de documento', en: 'National ID', pt: 'Número do documento' },
  document_type: { es: 'Tipo de documento', en: 'Document type', pt: 'Tipo de documento' },
  first_name: { es: 'Nombres', en: 'First name', pt: 'Nome' },
  last_name: { es: 'Apellidos', en: 'Last name', pt: 'Sobrenome' },
  date_of_birth: { es: 'Fecha de nacimiento', en: 'Date of birth', pt: 'Data de nascimento' },
  license_plate: { es: 'Placa', en: 'License plate', pt: 'Placa' },
  company_name: { es: 'Razón social', en: 'Company name', pt: 'Razão social' },
  tax_id: { es: 'Identificación tributaria', en: 'Tax ID', pt: 'Identificação fiscal' },
  phone_number: { es: 'Teléfono', en: 'Phone number', pt: 'Telefone' },
  custom_input: { es: 'Identificador externo', en: 'External identifier', pt: 'Identificador externo' },
  region: { es: 'Región', en: 'Region', pt: 'Região' },
};

export const pdfText = (key: string, lang: PdfLanguage) => PDF_TEXT[key]?.[lang] ?? key;
export const pdfValue = (key: string, lang: PdfLanguage) => PDF_VALUES[key]?.[lang] ?? key;
export const pdfInput = (key: string, lang: PdfLanguage) => PDF_INPUTS[key]?.[lang] ?? key;
