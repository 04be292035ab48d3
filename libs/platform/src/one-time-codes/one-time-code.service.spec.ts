import { waitInWords } from './one-time-code.service';

describe('waitInWords', () => {
  it('tells a wait in whole minutes rounded up, in hours from two hours on', () => {
    expect(waitInWords(1)).toBe('1 minute');
    expect(waitInWords(61)).toBe('2 minutes');
    expect(waitInWords(900)).toBe('15 minutes');
    expect(waitInWords(7199)).toBe('2 hours');
    expect(waitInWords(86400)).toBe('24 hours');
  });
});
