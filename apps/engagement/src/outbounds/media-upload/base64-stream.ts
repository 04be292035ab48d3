const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const IS_BASE64 = new Uint8Array(128);
for (const c of ALPHABET) IS_BASE64[c.charCodeAt(0)] = 1;
/** Characters gathered before they are decoded. */
const BATCH = 64 * 1024;

/**
 * Decodes padded standard Base64 as it arrives, by batches of characters, with the rules of the
 * platform's isBase64Text (the alphabet A-Z a-z 0-9 + /, a length that is a multiple of 4, `=`
 * only as the last one or two characters). Decoded bytes go to `out`; once the text is known to
 * be invalid nothing more is decoded, and `end()` says so.
 */
export class Base64StreamDecoder {
  private pending = '';
  private padding = 0;
  private chars = 0;
  private invalid = false;
  /** Bytes decoded so far. */
  size = 0;

  constructor(private readonly out: (bytes: Buffer) => void) {}

  /** One character of the text (a code point already unescaped from JSON or the form encoding). */
  push(code: number): void {
    this.pushRun(Buffer.of(code < 256 ? code : 0), 0, 1);
  }

  /** Characters of the text as bytes (`bytes[start..end)`, one byte each: anything above 127 is invalid). */
  pushRun(bytes: Buffer, start: number, end: number): void {
    if (this.invalid || start >= end) return;
    for (let i = start; i < end; i++) {
      const code = bytes[i];
      if (code === 61 /* = */) {
        if (++this.padding > 2) return this.fail();
      } else if (this.padding > 0 || code >= 128 || !IS_BASE64[code]) return this.fail();
    }
    this.chars += end - start;
    this.pending += bytes.toString('latin1', start, end);
    if (this.pending.length >= BATCH) this.flush(this.pending.length - (this.pending.length % 4));
  }

  /** Whether the whole text was valid Base64 (then every byte has been given to `out`). */
  end(): boolean {
    if (this.invalid || this.chars % 4 !== 0) return false;
    this.flush(this.pending.length);
    return true;
  }

  private fail(): void {
    this.invalid = true;
    this.pending = '';
  }

  private flush(count: number): void {
    if (!count) return;
    const bytes = Buffer.from(this.pending.slice(0, count), 'base64');
    this.pending = this.pending.slice(count);
    this.size += bytes.length;
    if (bytes.length) this.out(bytes);
  }
}
