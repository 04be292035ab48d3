import { renderIdCard, renderPassport } from '../../../../test/support/engines';
import { binarize, decodeImage, shrinkGray, toGray } from '../../image/raster';
import { horizontalStrips } from '../image-analysis';
import { locateMrz } from './mrz-locate';

jest.setTimeout(120_000);

const binarized = async (image: Buffer) => binarize(shrinkGray(toGray(await decodeImage(image)), 1400));

describe('locateMrz (the MRZ strip from the rows, without OCR)', () => {
  it('finds the two lines of a passport page and the three of an ID card reverse, in their bottom part', async () => {
    const passport = await binarized((await renderPassport({ encoding: 'jpeg' })).image);
    const onPage = locateMrz(passport);
    // The renderer prints the MRZ band from y = 620 of 880.
    expect(onPage).toMatchObject({ lines: 2 });
    expect(onPage!.top).toBeGreaterThan(600);
    expect(onPage!.bottom).toBeLessThan(880);
    const card = await renderIdCard({ encoding: 'jpeg' });
    expect(locateMrz(await binarized(card.reverse))).toMatchObject({ lines: 3 });
    // The same page shown on a screen (bezel, blur) still shows its MRZ rows.
    expect(locateMrz(await binarized((await renderPassport({ photoOfPhoto: true })).image))).toMatchObject({
      lines: 2,
    });
  });

  it('finds none on a side without an MRZ (the ID card front)', async () => {
    const card = await renderIdCard();
    expect(locateMrz(await binarized(card.front))).toBeUndefined();
  });
});

describe('horizontalStrips', () => {
  it('cuts between text lines: each cut row has no more transitions than the rows around it', async () => {
    const page = await binarized((await renderIdCard()).front);
    const strips = horizontalStrips(page, 3);
    expect(strips).toHaveLength(3);
    expect(strips.reduce((sum, s) => sum + s.height, 0)).toBe(page.height);
    const transitions = (y: number) => {
      let n = 0;
      for (let x = 1; x < page.width; x++)
        if ((page.data[y * page.width + x] === 0) !== (page.data[y * page.width + x - 1] === 0)) n++;
      return n;
    };
    let y = 0;
    for (const strip of strips.slice(0, -1)) {
      y += strip.height;
      for (let d = -3; d <= 3; d++) expect(transitions(y)).toBeLessThanOrEqual(transitions(y + d));
    }
  });
});
