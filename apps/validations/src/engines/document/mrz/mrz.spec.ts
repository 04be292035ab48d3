import { td1Lines, td3Lines, TEST_PERSON } from '../../../../test/support/engines';
import { mrzCheckDigit } from './check-digit';
import { extractMrz } from './mrz-lines';
import { mrzDateToIso, verifyMrz } from './mrz-parse';

const NOW = new Date('2026-01-15T00:00:00Z');

describe('MRZ reading', () => {
  it('computes ICAO 9303 check digits (7-3-1 weights, letters 10-35, filler 0)', () => {
    // ICAO 9303 part 3 example: document number L898902C3 → 6, date 740812 → 2.
    expect(mrzCheckDigit('L898902C3')).toBe('6');
    expect(mrzCheckDigit('740812')).toBe('2');
    expect(mrzCheckDigit('<<<<')).toBe('0');
  });

  it('finds a TD1 MRZ in OCR text with noise, dropped fillers and spaces, and corrects O/0 in alphabetic fields', () => {
    const [l1, l2, l3] = td1Lines(TEST_PERSON);
    const ocr = `REPUBLICA DE COLOMBIA\nPLACE 0F BIRTH UTOPIA\n${l1}\n${l2.replace('COL', 'C0L')}\n${l3.replace(/<+$/, '<<').replace('<<', ' << ')}\n`;
    const found = extractMrz(ocr);
    expect(found?.format).toBe('TD1');
    const mrz = verifyMrz(found!.lines, NOW);
    expect(mrz).toMatchObject({ valid: true, failedCheckDigits: [] });
    expect(mrz?.extracted).toMatchObject({ lastName: 'PEREZ GOMEZ', firstName: 'MARIA JOSE', nationality: 'COL' });
    expect(mrz?.extracted.mrz).toEqual([l1, l2, l3]);
    expect(mrz?.optionalData).toEqual(['1020304050']);
  });

  it('finds a TD3 MRZ and names the field whose check digit is wrong', () => {
    const found = extractMrz(td3Lines(TEST_PERSON, 'expiration_date').join('\n'));
    expect(found?.format).toBe('TD3');
    expect(verifyMrz(found!.lines, NOW)?.failedCheckDigits).toEqual(['expiration_date']);
  });

  it('reads no MRZ in ordinary text', () => {
    expect(extractMrz('APELLIDOS PEREZ GOMEZ\nNOMBRES MARIA JOSE\n17 05 1990')).toBeUndefined();
  });

  it('puts two-digit birth years in the past and expiry years in this century', () => {
    expect(mrzDateToIso('900517', 'birth', NOW)).toBe('1990-05-17');
    expect(mrzDateToIso('050101', 'birth', NOW)).toBe('2005-01-01');
    expect(mrzDateToIso('340516', 'expiry', NOW)).toBe('2034-05-16');
  });
});
