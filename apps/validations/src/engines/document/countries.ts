// ISO 3166 alpha-2 → alpha-3 (the MRZ's issuing state and nationality) for the countries the validators
// serve, plus a few common passport issuers.

export const ALPHA3: Readonly<Record<string, string>> = {
  AR: 'ARG',
  BO: 'BOL',
  BR: 'BRA',
  CA: 'CAN',
  CL: 'CHL',
  CO: 'COL',
  CR: 'CRI',
  DE: 'D<<',
  DO: 'DOM',
  EC: 'ECU',
  ES: 'ESP',
  FR: 'FRA',
  GB: 'GBR',
  GT: 'GTM',
  HN: 'HND',
  IT: 'ITA',
  MX: 'MEX',
  NI: 'NIC',
  PA: 'PAN',
  PE: 'PER',
  PT: 'PRT',
  PY: 'PRY',
  SV: 'SLV',
  US: 'USA',
  UY: 'URY',
  VE: 'VEN',
};

export function alpha3(country: string): string | undefined {
  return ALPHA3[country.toUpperCase()];
}

/** Upper case without accents (Ñ → N), as names are written in an MRZ and compared here. */
export function normalizeName(value: string): string {
  return value
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, ' ')
    .trim()
    .replace(/\s+/g, ' ');
}
