/**
 * The inputs collectors see: document_type moves national_id to what it holds (foreign_id, passport,
 * tax_id), and Brazil's region is the effective one.
 */
export function effectiveInputs(
  inputs: Readonly<Record<string, string>>,
  region: string | null,
): Record<string, string> {
  const out = { ...inputs };
  const moved = { 'foreign-id': 'foreign_id', passport: 'passport', 'tax-id': 'tax_id' }[out.document_type ?? ''];
  if (moved && out.national_id && !out[moved]) {
    out[moved] = out.national_id;
    delete out.national_id;
  }
  if (region) out.region = region;
  return out;
}
