export const DV_CATEGORIES = ['risk', 'activity', 'identity'] as const;
export const DV_PRODUCTS = ['check', 'process'] as const;
export const DV_DATA_TYPES = ['boolean', 'string', 'number', 'date'] as const;

export interface DecisionVariable {
  id: string;
  name: string;
  description: string;
  category: (typeof DV_CATEGORIES)[number];
  /** 1: read from one transaction (a latest result); 2: aggregated over the transactions of the range. */
  level: number;
  product: (typeof DV_PRODUCTS)[number];
  data_type: (typeof DV_DATA_TYPES)[number];
  active: boolean;
  /** SQL aggregate over the profile's transactions `t` in the date range (no parameters). */
  sql: string;
}

const latest = (product: string, column: string, extra = '') =>
  `(array_agg(t.${column} ORDER BY t.occurred_at DESC, t.id DESC) FILTER (WHERE t.product = '${product}'${extra}))[1]`;
const count = (condition: string) => `count(*) FILTER (WHERE ${condition})::int`;
const lastDay = (product: string) =>
  `to_char(max(t.occurred_at) FILTER (WHERE t.product = '${product}') AT TIME ZONE 'UTC', 'YYYY-MM-DD')`;

/**
 * The decision variables: values per customer derived from their transactions over a date range.
 * Validations count as product `process` (they are the steps of identity processes). The same
 * names (over all transactions) are segment variables.
 */
export const DECISION_VARIABLES: readonly DecisionVariable[] = [
  {
    id: 'DV01',
    name: 'latest_check_score',
    description: 'Global score (0 high risk to 1 low risk) of the latest finished check',
    category: 'risk',
    level: 1,
    product: 'check',
    data_type: 'number',
    active: true,
    sql: latest('check', 'score', ' AND t.score IS NOT NULL'),
  },
  {
    id: 'DV02',
    name: 'latest_check_status',
    description: 'Status of the latest check',
    category: 'risk',
    level: 1,
    product: 'check',
    data_type: 'string',
    active: true,
    sql: latest('check', 'status'),
  },
  {
    id: 'DV03',
    name: 'checks_count',
    description: 'Number of checks',
    category: 'activity',
    level: 2,
    product: 'check',
    data_type: 'number',
    active: true,
    sql: count(`t.product = 'check'`),
  },
  {
    id: 'DV04',
    name: 'has_high_risk_check',
    description: 'Some check scored below 0.5',
    category: 'risk',
    level: 2,
    product: 'check',
    data_type: 'boolean',
    active: true,
    sql: `coalesce(bool_or(t.product = 'check' AND t.score < 0.5), false)`,
  },
  {
    id: 'DV05',
    name: 'last_check_date',
    description: 'Day of the latest check',
    category: 'activity',
    level: 1,
    product: 'check',
    data_type: 'date',
    active: true,
    sql: lastDay('check'),
  },
  {
    id: 'DV06',
    name: 'validations_count',
    description: 'Number of validations (document, face, phone, e-mail)',
    category: 'activity',
    level: 2,
    product: 'process',
    data_type: 'number',
    active: true,
    sql: count(`t.product = 'validation'`),
  },
  {
    id: 'DV07',
    name: 'failed_validations_count',
    description: 'Number of validations that ended in failure',
    category: 'risk',
    level: 2,
    product: 'process',
    data_type: 'number',
    active: true,
    sql: count(`t.product = 'validation' AND t.status = 'failure'`),
  },
  {
    id: 'DV08',
    name: 'latest_validation_status',
    description: 'Status of the latest validation',
    category: 'identity',
    level: 1,
    product: 'process',
    data_type: 'string',
    active: true,
    sql: latest('validation', 'status'),
  },
  {
    id: 'DV09',
    name: 'processes_count',
    description: 'Number of identity processes',
    category: 'activity',
    level: 2,
    product: 'process',
    data_type: 'number',
    active: true,
    sql: count(`t.product = 'process'`),
  },
  {
    id: 'DV10',
    name: 'latest_process_status',
    description: 'Status of the latest identity process',
    category: 'identity',
    level: 1,
    product: 'process',
    data_type: 'string',
    active: true,
    sql: latest('process', 'status'),
  },
  {
    id: 'DV11',
    name: 'last_process_date',
    description: 'Day of the latest identity process',
    category: 'activity',
    level: 1,
    product: 'process',
    data_type: 'date',
    active: true,
    sql: lastDay('process'),
  },
  {
    id: 'DV12',
    name: 'identity_verified',
    description: 'Some validation succeeded',
    category: 'identity',
    level: 2,
    product: 'process',
    data_type: 'boolean',
    active: true,
    sql: `coalesce(bool_or(t.product = 'validation' AND t.status = 'success'), false)`,
  },
  {
    id: 'DV13',
    name: 'document_validation_score',
    description: 'Reserved: confidence of the latest document validation (not produced by the validators yet)',
    category: 'identity',
    level: 1,
    product: 'process',
    data_type: 'number',
    active: false,
    sql: `(array_agg((t.data->>'confidence_score')::double precision ORDER BY t.occurred_at DESC) FILTER (WHERE t.product = 'validation' AND t.data ? 'confidence_score'))[1]`,
  },
];
