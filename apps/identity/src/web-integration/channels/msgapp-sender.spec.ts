import { splitE164 } from './msgapp-sender';

describe('splitE164', () => {
  it.each([
    ['+573001234567', '57', '3001234567'],
    ['+15550001234', '1', '5550001234'],
    ['+5215512345678', '52', '15512345678'],
    ['+593991234567', '593', '991234567'],
    ['+5511987654321', '55', '11987654321'],
  ])('%s → +%s %s (joined again it is the same number)', (phone, code, number) => {
    expect(splitE164(phone)).toEqual({ code, number });
    expect(`+${code}${number}`).toBe(phone);
  });
});
