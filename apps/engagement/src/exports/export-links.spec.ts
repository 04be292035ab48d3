import { ExportLinks } from './export-links';

describe('ExportLinks', () => {
  const links = new ExportLinks(Buffer.alloc(32, 7));
  const now = 1_800_000_000;

  it('accepts its own signature until the link expires', () => {
    const sig = links.sign('EXP1', now + 60);
    expect(links.verify('EXP1', String(now + 60), sig, now)).toBe(true);
    expect(links.verify('EXP1', String(now + 60), sig, now + 60)).toBe(false);
  });

  it('refuses another export, another expiry, another key, or garbage', () => {
    const sig = links.sign('EXP1', now + 60);
    expect(links.verify('EXP2', String(now + 60), sig, now)).toBe(false);
    expect(links.verify('EXP1', String(now + 61), sig, now)).toBe(false);
    expect(new ExportLinks(Buffer.alloc(32, 8)).verify('EXP1', String(now + 60), sig, now)).toBe(false);
    expect(links.verify('EXP1', 'soon', sig, now)).toBe(false);
    expect(links.verify('EXP1', String(now + 60), undefined, now)).toBe(false);
    expect(links.verify('EXP1', undefined, sig, now)).toBe(false);
  });
});
