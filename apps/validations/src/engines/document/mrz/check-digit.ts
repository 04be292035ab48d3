// ICAO 9303 part 3, 4.9: the check digit of an MRZ field (weights 7, 3, 1; digits as themselves,
// A..Z as 10..35, the filler < as 0).

export function mrzCharValue(ch: string): number {
  if (ch >= '0' && ch <= '9') return ch.charCodeAt(0) - 48;
  if (ch >= 'A' && ch <= 'Z') return ch.charCodeAt(0) - 55;
  if (ch === '<') return 0;
  throw new Error(`not an MRZ character: ${JSON.stringify(ch)}`);
}

export function mrzCheckDigit(field: string): string {
  const weights = [7, 3, 1];
  let sum = 0;
  for (let i = 0; i < field.length; i++) sum += mrzCharValue(field[i]) * weights[i % 3];
  return String(sum % 10);
}
