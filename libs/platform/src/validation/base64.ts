import { ValidateBy, ValidationOptions } from 'class-validator';

const BASE64_CHAR = new Uint8Array(128);
for (const c of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/') BASE64_CHAR[c.charCodeAt(0)] = 1;

/**
 * Padded standard Base64 (RFC 4648 §4), checked in one pass over the text. class-validator's
 * IsBase64 runs a backtracking regular expression whose stack grows with the text: on a file of a
 * few MB it can throw RangeError (a 500) instead of answering.
 */
export function isBase64Text(value: unknown): boolean {
  if (typeof value !== 'string' || value.length % 4 !== 0) return false;
  let end = value.length;
  if (value.endsWith('==')) end -= 2;
  else if (value.endsWith('=')) end -= 1;
  for (let i = 0; i < end; i++) {
    const code = value.charCodeAt(i);
    if (code >= 128 || !BASE64_CHAR[code]) return false;
  }
  return true;
}

/** Bytes a padded Base64 text (as isBase64Text accepts) decodes to, without decoding it. */
export const base64DecodedLength = (text: string): number =>
  Math.floor((text.length * 3) / 4) - (text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0);

/** The property is padded standard Base64 text (see isBase64Text), of any size. */
export function IsBase64Text(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isBase64Text',
      validator: {
        validate: (value) => isBase64Text(value),
        defaultMessage: () => '$property must be base64 encoded',
      },
    },
    options,
  );
}
