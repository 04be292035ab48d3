import { renderIdCard } from '../../../../test/support/engines';
import type { DocumentEngineInput } from '../../engine.ports';
import { WorkerDocumentImageAnalyzer } from '../worker-analyzer';
import { ManipulationSubvalidation, PhotocopySubvalidation, PhotoOfPhotoSubvalidation } from './image-checks';
import type { DocumentContext } from './subvalidation';

const CHECKS = {
  manipulation: true,
  photoOfPhoto: true,
  photocopy: true,
  dataConsistency: true,
  governmentDatabase: true,
};

jest.setTimeout(60_000);

const analyzer = new WorkerDocumentImageAnalyzer();
afterAll(() => analyzer.close());

async function contextOf(reverse: Buffer, visualText = ''): Promise<DocumentContext> {
  const input: DocumentEngineInput = {
    country: 'CO',
    documentType: 'national-id',
    reverse,
    expected: {},
    checks: CHECKS,
  };
  return {
    input,
    now: new Date('2026-01-15T00:00:00Z'),
    sides: [{ side: 'reverse', analysis: await analyzer.analyze(reverse) }],
    extracted: {},
    visualText: () => Promise.resolve(visualText),
  };
}

describe('document image checks', () => {
  let genuine: DocumentContext;
  beforeAll(async () => {
    genuine = await contextOf((await renderIdCard({ encoding: 'jpeg' })).reverse);
  });

  it('passes a genuine colour capture on photocopy, photo of photo and manipulation', async () => {
    await expect(new PhotocopySubvalidation().run(genuine)).resolves.toMatchObject({ status: 'success' });
    await expect(new PhotoOfPhotoSubvalidation().run(genuine)).resolves.toMatchObject({ status: 'success' });
    await expect(new ManipulationSubvalidation().run(genuine)).resolves.toMatchObject({ status: 'success' });
  });

  it('flags a grayscale copy as a photocopy', async () => {
    const copy = await contextOf((await renderIdCard({ photocopy: true })).reverse);
    await expect(new PhotocopySubvalidation().run(copy)).resolves.toMatchObject({
      status: 'failure',
      reason: 'photocopy',
    });
  });

  it('flags the document photographed on a screen (pixel grid, bezel) as a photo of a photo', async () => {
    const screen = await contextOf((await renderIdCard({ photoOfPhoto: true })).reverse);
    const outcome = await new PhotoOfPhotoSubvalidation().run(screen);
    expect(outcome).toMatchObject({ status: 'failure', reason: 'photo_of_photo' });
  });

  it('flags a file written by an image editor, and a visual zone that lacks the MRZ surname, as manipulated', async () => {
    const edited = await contextOf(
      (await renderIdCard({ encoding: 'jpeg', editedWith: 'Adobe Photoshop 25.0 (Windows)' })).reverse,
    );
    await expect(new ManipulationSubvalidation().run(edited)).resolves.toMatchObject({
      status: 'failure',
      reason: 'manipulated_document',
      details: { rule: 'editing_software', software: 'Adobe Photoshop 25.0 (Windows)' },
    });
    const relabelled: DocumentContext = {
      ...genuine,
      mrz: { extracted: { lastName: 'PEREZ GOMEZ' } } as DocumentContext['mrz'],
      visualText: () => Promise.resolve('REPUBLICA CEDULA APELLIDOS RODRIGUEZ SILVA NOMBRES CARLOS ANDRES'),
    };
    await expect(new ManipulationSubvalidation().run(relabelled)).resolves.toMatchObject({
      status: 'failure',
      details: { rule: 'visual_zone_mismatch', mrz_words_missing: ['PEREZ', 'GOMEZ'] },
    });
  });
});
