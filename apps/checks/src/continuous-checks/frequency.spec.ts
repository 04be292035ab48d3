import { dueTime, endDateError, nextDueAfter, parseDate, parseFrequency } from './frequency';

describe('continuous check frequency', () => {
  it.each([
    ['daily', { count: 1, unit: 'd' }],
    ['weekly', { count: 1, unit: 'w' }],
    ['monthly', { count: 1, unit: 'm' }],
    ['yearly', { count: 1, unit: 'y' }],
    ['3d', { count: 3, unit: 'd' }],
    ['2w', { count: 2, unit: 'w' }],
    ['6m', { count: 6, unit: 'm' }],
    ['1y', { count: 1, unit: 'y' }],
    ['999d', { count: 999, unit: 'd' }],
  ])('parses %s', (value, expected) => {
    expect(parseFrequency(value)).toEqual(expected);
  });

  it.each(['', 'hourly', '0d', '-1d', '3', 'd', '3x', '1000d', '1.5d', ' 2 w', 'every 3d', undefined, 3, null])(
    'refuses %p',
    (value) => {
      expect(parseFrequency(value)).toBeUndefined();
    },
  );

  it('computes due times from the anchor (days, weeks, months clamped to the month end, years)', () => {
    const anchor = new Date('2031-01-31T10:00:00Z');
    expect(dueTime(anchor, { count: 3, unit: 'd' }, 2).toISOString()).toBe('2031-02-06T10:00:00.000Z');
    expect(dueTime(anchor, { count: 2, unit: 'w' }, 1).toISOString()).toBe('2031-02-14T10:00:00.000Z');
    expect(dueTime(anchor, { count: 1, unit: 'm' }, 1).toISOString()).toBe('2031-02-28T10:00:00.000Z');
    expect(dueTime(anchor, { count: 1, unit: 'm' }, 2).toISOString()).toBe('2031-03-31T10:00:00.000Z');
    expect(dueTime(new Date('2032-02-29T00:00:00Z'), { count: 1, unit: 'y' }, 1).toISOString()).toBe(
      '2033-02-28T00:00:00.000Z',
    );
  });

  it('resumes at the first due time after now, without catching up missed runs', () => {
    const anchor = new Date('2031-01-01T00:00:00Z');
    expect(nextDueAfter(anchor, { count: 1, unit: 'd' }, new Date('2031-01-10T05:00:00Z')).toISOString()).toBe(
      '2031-01-11T00:00:00.000Z',
    );
    expect(nextDueAfter(anchor, { count: 1, unit: 'd' }, new Date('2031-01-10T00:00:00Z')).toISOString()).toBe(
      '2031-01-11T00:00:00.000Z',
    );
    expect(nextDueAfter(anchor, { count: 1, unit: 'm' }, new Date('2031-05-15T00:00:00Z')).toISOString()).toBe(
      '2031-06-01T00:00:00.000Z',
    );
    expect(nextDueAfter(anchor, { count: 1, unit: 'w' }, anchor).toISOString()).toBe('2031-01-08T00:00:00.000Z');
  });

  it('parses real calendar dates only', () => {
    expect(parseDate('2031-02-28')?.toISOString()).toBe('2031-02-28T00:00:00.000Z');
    expect(parseDate('2031-02-29')).toBeUndefined();
    expect(parseDate('2031-13-01')).toBeUndefined();
    expect(parseDate('31-01-2031')).toBeUndefined();
    expect(parseDate('2031-1-1')).toBeUndefined();
  });

  describe('end_date rules', () => {
    const now = new Date('2031-03-10T12:00:00Z');
    it('accepts an end date on or after the first run', () => {
      expect(endDateError('2031-03-11', { count: 1, unit: 'd' }, now)).toBeUndefined();
      expect(endDateError('2031-03-17', { count: 1, unit: 'w' }, now)).toBeUndefined();
      expect(endDateError('2031-04-10', { count: 1, unit: 'm' }, now)).toBeUndefined();
    });
    it('refuses an end date before the first run, naming end_date', () => {
      expect(endDateError('2031-03-10', { count: 1, unit: 'd' }, now)).toMatchObject({
        field: 'end_date',
        message: expect.stringContaining('2031-03-11'),
      });
      expect(endDateError('2031-03-16', { count: 1, unit: 'w' }, now)).toMatchObject({ field: 'end_date' });
      expect(endDateError('2031-04-09', { count: 1, unit: 'm' }, now)).toMatchObject({ field: 'end_date' });
      expect(endDateError('2030-01-01', { count: 1, unit: 'd' }, now)).toMatchObject({ field: 'end_date' });
    });
    it('refuses a missing or malformed end date', () => {
      expect(endDateError(undefined, { count: 1, unit: 'd' }, now)).toMatchObject({
        field: 'end_date',
        message: expect.stringContaining('required'),
      });
      expect(endDateError('2031/04/01', { count: 1, unit: 'd' }, now)).toMatchObject({
        field: 'end_date',
        message: expect.stringContaining('YYYY-MM-DD'),
      });
    });
  });
});
