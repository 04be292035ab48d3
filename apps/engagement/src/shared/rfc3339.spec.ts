import { toFieldErrors } from '@kyc/platform';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';

import { IsRfc3339 } from './rfc3339';

class Window {
  @IsRfc3339('from')
  from!: string;
}

const check = (from: unknown) => {
  const dto = plainToInstance(Window, { from });
  return { from: dto.from, fields: toFieldErrors(validateSync(dto)).map((f) => f.field) };
};

describe('IsRfc3339', () => {
  it('takes the lower-case t and z RFC 3339 allows (section 5.6), and reads the text upper-cased', () => {
    expect(check('2026-11-25t10:00:00.5z')).toEqual({ from: '2026-11-25T10:00:00.5Z', fields: [] });
    expect(check('2026-11-25T10:00:00-05:00')).toEqual({ from: '2026-11-25T10:00:00-05:00', fields: [] });
  });

  it('refuses what is not a full RFC 3339 date-time of a real instant', () => {
    for (const bad of ['2026-11-25', '2026-11-25 10:00:00Z', '2026-02-30T10:00:00Z', '2026-11-25T10:00:00', 5])
      expect(check(bad).fields).toEqual(['from']);
  });
});
