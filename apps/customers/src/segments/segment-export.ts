import { ProfileEntity } from '../profiles/profile.entity';

/** The columns of a segment's members export, in order. */
export const EXPORT_COLUMNS = [
  'customer_id',
  'name',
  'country',
  'phone_number',
  'email',
  'document_type',
  'document_number',
  'tags',
  'latest_check_score',
  'latest_check_status',
  'last_transaction_date',
] as const;

/**
 * One CSV field (RFC 4180): quoted when it holds a comma, quote or line break. Text a spreadsheet
 * would run as a formula (starting with `=`, `@`, a tab or a carriage return, or `+`/`-` not
 * followed by a number, as a phone number is) gets a leading `'` (OWASP's CSV injection advice).
 */
export function csvField(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (typeof value === 'string' && (/^[=@\t\r]/.test(text) || /^[+-](?![\d.]+$)/.test(text))) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export const csvLine = (values: (string | number | null | undefined)[]) => `${values.map(csvField).join(',')}\r\n`;

/** A member as one CSV line (tags joined with `;`, the last transaction's day as `YYYY-MM-DD`). */
export const memberLine = (p: ProfileEntity) =>
  csvLine([
    p.id,
    p.name,
    p.country,
    p.phoneNumber,
    p.email,
    p.documentType,
    p.documentNumber,
    p.tags.join(';'),
    p.latestCheckScore,
    p.latestCheckStatus,
    p.lastTransactionAt ? p.lastTransactionAt.toISOString().slice(0, 10) : null,
  ]);
