import { isBase64 } from 'class-validator';

import { base64DecodedLength, isBase64Text } from './base64';

describe('isBase64Text', () => {
  it.each(['', 'aGVsbG8=', 'aGVsbG8h', 'aGk=', 'a+/9', Buffer.alloc(30, 200).toString('base64')])(
    'accepts %j as class-validator does',
    (text) => {
      expect(isBase64Text(text)).toBe(true);
      expect(isBase64Text(text)).toBe(isBase64(text));
    },
  );

  it.each(['%%%', 'aGVsbG8', 'aGVsbG8===', 'aG=sbG8h', 'aGVs bG8=', 'aGVsbG8_', 'ñGVsbG8=', 42, null])(
    'refuses %j',
    (value) => expect(isBase64Text(value)).toBe(false),
  );

  it('checks a text of tens of MB without throwing', () => {
    const text = Buffer.alloc(16 * 1024 * 1024 + 1).toString('base64');
    expect(isBase64Text(text)).toBe(true);
    expect(isBase64Text(`${text.slice(0, -4)}!!!!`)).toBe(false);
  });
});

describe('base64DecodedLength', () => {
  it.each([0, 1, 2, 3, 4, 5, 9, 1000, 5 * 1024 * 1024 + 1])('is the decoded size of %i bytes', (bytes) => {
    const text = Buffer.alloc(bytes, 7).toString('base64');
    expect(base64DecodedLength(text)).toBe(Buffer.from(text, 'base64').length);
  });
});
