import { MAX_DURATION_PATTERN, parseMaxDuration } from './update-settings.dto';

describe('max_duration: the documented pattern', () => {
  const pattern = new RegExp(MAX_DURATION_PATTERN);

  it('matches exactly the values the custom rule accepts (1 to 6 digits, leading zeros, either unit and case)', () => {
    const numbers = [...Array.from({ length: 20_000 }, (_, n) => n), 99_999, 100_000, 168_000, 999_999];
    const differ: string[] = [];
    for (const n of numbers) {
      const digits = String(n);
      for (let width = digits.length; width <= 6; width++) {
        const text = digits.padStart(width, '0');
        for (const unit of ['m', 'h', 'M', 'H']) {
          const value = `${text}${unit}`;
          if (pattern.test(value) !== (parseMaxDuration(value.toLowerCase()) !== undefined)) differ.push(value);
        }
      }
    }
    expect(differ).toEqual([]);
  });

  it('refuses what is not <n>m or <n>h', () => {
    for (const value of ['', '6', 'h', '6d', '6hh', '0000006h', '-6h', '6.5h', '15 m'])
      expect(pattern.test(value)).toBe(false);
  });
});
