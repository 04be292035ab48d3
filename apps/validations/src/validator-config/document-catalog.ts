/** The documents each country's validator reads: types, versions, the sides to upload and what each side carries. */
export interface CatalogEntry {
  document_type: string;
  versions: string[];
  /** Sides the validation asks for (passports: the photo page only). */
  sides: ('front' | 'reverse')[];
  /** Where the machine-readable zone is, when the document has one. */
  mrz_side?: 'front' | 'reverse';
  /** Only on request to sales (spec). */
  on_request?: boolean;
}

const passport: CatalogEntry = {
  document_type: 'passport',
  versions: ['passport'],
  sides: ['front'],
  mrz_side: 'front',
};
const card = (document_type: string, versions: string[] = [], mrz_side?: 'reverse'): CatalogEntry => ({
  document_type,
  versions,
  sides: ['front', 'reverse'],
  ...(mrz_side ? { mrz_side } : {}),
});

export const DOCUMENT_CATALOG: Record<string, CatalogEntry[]> = {
  CO: [
    card('national-id', ['co_national-id-2000', 'co_national-id-2020'], 'reverse'),
    card('foreign-id', ['co_foreign-id']),
    { ...card('ppt', ['co_ppt']), on_request: true },
    card('driver-license'),
    passport,
  ],
  CL: [card('national-id', [], 'reverse'), card('foreign-id', [], 'reverse'), card('driver-license'), passport],
  MX: [
    card('national-id', ['mx_ine-c', 'mx_ine-d', 'mx_ine-e', 'mx_ife-f', 'mx_ife-g'], 'reverse'),
    card('foreign-id', ['mx_fm3']),
    card('driver-license'),
    passport,
  ],
  PE: [card('national-id', [], 'reverse'), card('foreign-id'), card('driver-license'), passport],
  BR: [
    { ...card('cnh'), on_request: true },
    { ...card('national-id'), on_request: true },
    { ...passport, on_request: true },
  ],
  CR: [
    { ...card('national-id'), on_request: true },
    { ...passport, on_request: true },
  ],
  SV: [card('national-id', [], 'reverse'), passport],
  ALL: [passport],
};

/** Sides a document validation asks for (unknown combinations: front and reverse). */
export const sidesOf = (country: string, documentType: string): ('front' | 'reverse')[] =>
  DOCUMENT_CATALOG[country]?.find((e) => e.document_type === documentType)?.sides ??
  (documentType === 'passport' ? ['front'] : ['front', 'reverse']);
