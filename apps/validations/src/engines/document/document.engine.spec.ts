import {
  mismatchedNameExpectation,
  type RenderedIdCard,
  renderIdCard,
  renderPassport,
} from '../../../test/support/engines';
import type { DocumentEngineInput } from '../engine.ports';
import { SandboxGovernmentRegistry } from '../government/sandbox-government-registry';
import { OcrDocumentEngine } from './document.engine';
import { TesseractRecognizer } from './ocr';
import { WorkerDocumentImageAnalyzer } from './worker-analyzer';

const ALL_CHECKS = {
  manipulation: true,
  photoOfPhoto: true,
  photocopy: true,
  dataConsistency: true,
  governmentDatabase: true,
};

jest.setTimeout(120_000);

describe('OcrDocumentEngine', () => {
  const ocr = new TesseractRecognizer();
  const analyzer = new WorkerDocumentImageAnalyzer();
  const engine = new OcrDocumentEngine({
    analyzer,
    ocr,
    registry: new SandboxGovernmentRegistry({ latencyMs: 0 }),
    now: () => new Date('2026-01-15T12:00:00Z'),
  });
  afterAll(() => Promise.all([ocr.close(), analyzer.close()]));

  const idCardInput = (card: RenderedIdCard, over: Partial<DocumentEngineInput> = {}): DocumentEngineInput => ({
    country: 'CO',
    documentType: 'national-id',
    front: card.front,
    reverse: card.reverse,
    expected: card.expected,
    checks: ALL_CHECKS,
    ...over,
  });

  it('validates an identity card whose MRZ is valid and matches the account (every subvalidation passes)', async () => {
    const card = await renderIdCard();
    const started = performance.now();
    const result = await engine.validate(idCardInput(card));
    console.log(`document engine, TD1 card (2 sides, all checks): ${Math.round(performance.now() - started)} ms`);
    expect(result.subvalidations.filter((s) => s.status !== 'success')).toEqual([]);
    expect(result.status).toBe('success');
    expect(result.extracted).toMatchObject({
      firstName: 'MARIA JOSE',
      lastName: 'PEREZ GOMEZ',
      documentNumber: card.person.documentNumber,
      dateOfBirth: '1990-05-17',
      expirationDate: '2034-05-16',
      issuingCountry: 'COL',
    });
    expect(result.extracted.mrz).toEqual(card.mrz);
  });

  it('fails a passport whose MRZ has a wrong check digit, naming the field', async () => {
    const passport = await renderPassport({ corruptCheckDigit: 'birth_date' });
    const result = await engine.validate({
      country: 'ALL',
      documentType: 'passport',
      front: passport.image,
      expected: passport.expected,
      checks: { ...ALL_CHECKS, manipulation: false, governmentDatabase: false },
    });
    expect(result.status).toBe('failure');
    expect(result.declinedReason).toBe('invalid_mrz_check_digit');
    expect(result.subvalidations.find((s) => s.name === 'mrz')).toMatchObject({
      status: 'failure',
      details: { failed_check_digits: ['birth_date'] },
    });
  });

  it('fails manipulation when the visual zone carries another surname than the MRZ (read strip by strip)', async () => {
    const passport = await renderPassport({
      encoding: 'jpeg',
      visualName: { firstName: 'Carlos Andrés', lastName: 'Rodríguez Silva' },
    });
    const result = await engine.validate({
      country: 'ALL',
      documentType: 'passport',
      front: passport.image,
      expected: {},
      checks: { ...ALL_CHECKS, governmentDatabase: false },
    });
    expect(result.declinedReason).toBe('manipulated_document');
    expect(result.subvalidations.find((s) => s.name === 'manipulation')).toMatchObject({
      status: 'failure',
      details: { rule: 'visual_zone_mismatch', mrz_words_missing: ['PEREZ', 'GOMEZ'] },
    });
  });

  it('fails data consistency when the account holder has another name than the document', async () => {
    const card = await renderIdCard();
    const result = await engine.validate(
      idCardInput(card, {
        expected: mismatchedNameExpectation(card.person),
        checks: { ...ALL_CHECKS, manipulation: false },
      }),
    );
    expect(result.status).toBe('failure');
    expect(result.declinedReason).toBe('data_mismatch');
    const consistency = result.subvalidations.find((s) => s.name === 'data_consistency');
    expect(consistency?.details?.mismatches).toEqual([
      { field: 'first_name', expected: 'Carlos Andrés', document: 'MARIA JOSE' },
      { field: 'last_name', expected: 'Rodríguez Silva', document: 'PEREZ GOMEZ' },
    ]);
  });

  it("reads the visual zone's first strip on the text worker while the MRZ is read, only when manipulation is checked", async () => {
    const calls: { kind: 'mrz' | 'text'; start: number; end: number }[] = [];
    const timed =
      (kind: 'mrz' | 'text', read: (image: Buffer) => Promise<string>) =>
      async (image: Buffer): Promise<string> => {
        const call = { kind, start: performance.now(), end: Infinity };
        calls.push(call);
        try {
          return await read(image);
        } finally {
          call.end = performance.now();
        }
      };
    const timing = new OcrDocumentEngine({
      analyzer,
      ocr: {
        readMrz: timed('mrz', (image) => ocr.readMrz(image)),
        readText: timed('text', (image) => ocr.readText(image)),
        close: () => Promise.resolve(),
      },
      registry: new SandboxGovernmentRegistry({ latencyMs: 0 }),
      now: () => new Date('2026-01-15T12:00:00Z'),
    });
    const passport = await renderPassport({ encoding: 'jpeg' });
    const input = (manipulation: boolean): DocumentEngineInput => ({
      country: 'ALL',
      documentType: 'passport',
      front: passport.image,
      expected: {},
      checks: { ...ALL_CHECKS, manipulation, governmentDatabase: false },
    });

    const checked = await timing.validate(input(true));
    expect(checked.status).toBe('success');
    expect(checked.subvalidations.find((s) => s.name === 'manipulation')).toMatchObject({ status: 'success' });
    const [mrz] = calls.filter((c) => c.kind === 'mrz');
    const [text] = calls.filter((c) => c.kind === 'text');
    expect(text.start).toBeLessThan(mrz.end); // started before the MRZ was read, not after

    calls.length = 0;
    const unchecked = await timing.validate(input(false));
    expect(unchecked.status).toBe('success');
    expect(calls.map((c) => c.kind)).toEqual(['mrz']); // no visual zone read when manipulation is off
  });
});
