import { Base64StreamDecoder } from './base64-stream';

/** What the body said about its file field (the last one, as the body parsers keep the last). */
export type FileOutcome = 'absent' | 'empty' | 'valid' | 'invalid' | 'not_text';

/**
 * The `file` value the filtered body carries instead of the file, so the route's validation
 * answers exactly as it did for the whole body: a valid non-empty file becomes a short valid
 * Base64 text (the bytes themselves are spooled), an empty one stays empty, invalid text becomes
 * text that is not Base64.
 */
export const FILE_PLACEHOLDER: Record<'empty' | 'valid' | 'invalid', string> = {
  empty: '',
  valid: 'AAAA',
  invalid: '!',
};

/** The other fields of the body are small: more than this (the file aside) is refused. */
export const MAX_KEPT_BYTES = 64 * 1024;

export class KeptBodyTooLarge extends Error {}

/**
 * Splits a media upload body, as it arrives, into the file (its Base64 text decoded and handed to
 * `out`, never held whole) and the rest of the body (kept, with a placeholder in place of the
 * file's text), which the framework's own JSON or form parser then reads as before.
 */
export abstract class MediaBodyFilter {
  private readonly kept: Buffer[] = [];
  private keptBytes = 0;
  protected decoder: Base64StreamDecoder | null = null;
  /** Bytes of the last file decoded (given to `out`); a new file field starts again at 0. */
  outcome: FileOutcome = 'absent';

  constructor(
    protected readonly out: (bytes: Buffer) => void,
    /** A later file field replaces an earlier one: what was written so far is discarded. */
    protected readonly restart: () => void,
  ) {}

  abstract write(chunk: Buffer): void;

  /** The kept body (call once the whole body was written). */
  body(): Buffer {
    return Buffer.concat(this.kept, this.keptBytes);
  }

  get size(): number {
    return this.outcome === 'valid' ? (this.lastSize ?? 0) : 0;
  }

  private lastSize: number | null = null;

  protected keep(bytes: Buffer | string): void {
    const b = typeof bytes === 'string' ? Buffer.from(bytes, 'utf8') : bytes;
    this.keptBytes += b.length;
    if (this.keptBytes > MAX_KEPT_BYTES)
      throw new KeptBodyTooLarge(`the fields besides file are larger than ${MAX_KEPT_BYTES} bytes`);
    this.kept.push(Buffer.from(b));
  }

  protected startFile(): void {
    if (this.decoder) this.restart();
    this.decoder = new Base64StreamDecoder(this.out);
  }

  /** Ends the current file field; answers the placeholder to keep instead of its text. */
  protected endFile(): string {
    const decoder = this.decoder!;
    const outcome = !decoder.end() ? 'invalid' : decoder.size === 0 ? 'empty' : 'valid';
    this.outcome = outcome;
    this.lastSize = decoder.size;
    return FILE_PLACEHOLDER[outcome];
  }
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const ESCAPES: Record<number, number> = {
  0x22: 0x22,
  0x5c: 0x5c,
  0x2f: 0x2f,
  0x62: 8,
  0x66: 12,
  0x6e: 10,
  0x72: 13,
  0x74: 9,
};
/** Key bytes kept to recognize `file` (a longer key is some other field). */
const MAX_KEY_BYTES = 256;

/**
 * A JSON body: the top-level object's `file` string is diverted (JSON escapes undone, then Base64
 * decoded); every other byte is kept as it came, so malformed JSON is still refused by the parser.
 */
export class JsonMediaBodyFilter extends MediaBodyFilter {
  private depth = 0;
  private inString = false;
  private escape: number[] | null = null;
  /** What the current string is: a key of the top-level object, the file, or anything else. */
  private role: 'key' | 'file' | 'other' = 'other';
  private expectKey = false;
  private valueOfFile = false;
  private key: Buffer[] = [];
  private keyBytes = 0;

  write(chunk: Buffer): void {
    let runStart = 0;
    const flushKept = (end: number) => {
      if (end > runStart) this.keep(chunk.subarray(runStart, end));
    };
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk[i];
      if (this.inString) {
        if (this.role === 'file') {
          // Fast path: a run of plain characters goes to the decoder at once.
          if (!this.escape) {
            let j = i;
            while (j < chunk.length && chunk[j] !== QUOTE && chunk[j] !== BACKSLASH) j++;
            this.decoder!.pushRun(chunk, i, j);
            if (j >= chunk.length) {
              i = j;
              runStart = j;
              break;
            }
            i = j;
            if (chunk[i] === BACKSLASH) {
              this.escape = [];
              continue;
            }
            // The closing quote: keep the placeholder instead of the text.
            this.inString = false;
            this.keep(JSON.stringify(this.endFile()));
            runStart = i + 1;
            continue;
          }
          this.escaped(c);
          runStart = i + 1;
          continue;
        }
        if (this.escape) this.escape = null;
        else if (c === BACKSLASH) this.escape = [];
        else if (c === QUOTE) {
          this.inString = false;
          if (this.role === 'key') this.endKey();
        }
        if (this.role === 'key' && this.inString) this.keyByte(c);
        continue;
      }
      switch (c) {
        case QUOTE:
          this.inString = true;
          if (this.depth === 1 && this.expectKey) {
            this.role = 'key';
            this.key = [];
            this.keyBytes = 0;
          } else if (this.depth === 1 && this.valueOfFile) {
            this.role = 'file';
            this.valueOfFile = false;
            flushKept(i);
            runStart = i + 1;
            this.startFile();
          } else this.role = 'other';
          break;
        case 0x7b: // {
        case 0x5b: // [
          this.depth++;
          if (this.depth === 1) this.expectKey = c === 0x7b;
          if (this.depth === 2 && this.valueOfFile) this.notText();
          break;
        case 0x7d: // }
        case 0x5d: // ]
          this.depth--;
          break;
        case 0x2c: // ,
          if (this.depth === 1) {
            this.expectKey = true;
            this.valueOfFile = false;
          }
          break;
        case 0x3a: // :
          break;
        default:
          // A number, true, false or null as the file's value.
          if (this.depth === 1 && this.valueOfFile && c > 0x20) this.notText();
      }
    }
    if (!(this.inString && this.role === 'file')) flushKept(chunk.length);
  }

  private notText(): void {
    this.valueOfFile = false;
    if (this.decoder) this.restart();
    this.decoder = null;
    this.outcome = 'not_text';
  }

  private keyByte(c: number): void {
    if (this.keyBytes++ < MAX_KEY_BYTES) this.key.push(Buffer.of(c));
  }

  private endKey(): void {
    this.expectKey = false;
    let name = '';
    if (this.keyBytes <= MAX_KEY_BYTES)
      try {
        name = JSON.parse(`"${Buffer.concat(this.key).toString('utf8')}"`) as string;
      } catch {
        name = '';
      }
    this.valueOfFile = name === 'file';
  }

  /** A character after a backslash inside the file's text. */
  private escaped(c: number): void {
    const esc = this.escape!;
    if (esc.length === 0 && c !== 0x75 /* u */) {
      this.escape = null;
      const code = ESCAPES[c];
      this.decoder!.push(code === undefined ? 0 : code);
      return;
    }
    esc.push(c);
    if (esc.length === 5) {
      this.escape = null;
      const code = parseInt(Buffer.from(esc.slice(1)).toString('latin1'), 16);
      this.decoder!.push(Number.isNaN(code) ? 0 : code);
    }
  }
}

/**
 * An x-www-form-urlencoded body: the value of the `file` field is diverted (percent-decoded, `+`
 * a space as the form parser reads it, then Base64 decoded); every other byte is kept.
 */
export class FormMediaBodyFilter extends MediaBodyFilter {
  private inValue = false;
  private diverting = false;
  private key: number[] = [];
  private percent: number[] | null = null;

  write(chunk: Buffer): void {
    let runStart = 0;
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk[i];
      if (this.diverting) {
        if (c === 0x26 /* & */) {
          this.finishFile();
          runStart = i; // the & is kept
          continue;
        }
        if (this.percent) {
          this.percent.push(c);
          if (this.percent.length === 2) {
            const code = parseInt(Buffer.from(this.percent).toString('latin1'), 16);
            this.percent = null;
            this.decoder!.push(Number.isNaN(code) ? 0 : code);
          }
        } else if (c === 0x25 /* % */) this.percent = [];
        else if (c === 0x2b /* + */) this.decoder!.push(0x20);
        else {
          let j = i;
          while (j < chunk.length && chunk[j] !== 0x26 && chunk[j] !== 0x25 && chunk[j] !== 0x2b) j++;
          this.decoder!.pushRun(chunk, i, j);
          i = j - 1;
        }
        runStart = i + 1;
        continue;
      }
      if (c === 0x26 /* & */) {
        this.inValue = false;
        this.key = [];
      } else if (!this.inValue && c === 0x3d /* = */) {
        this.inValue = true;
        if (this.keyName() === 'file') {
          this.keep(chunk.subarray(runStart, i + 1));
          runStart = i + 1;
          this.diverting = true;
          this.startFile();
        }
      } else if (!this.inValue && this.key.length < MAX_KEY_BYTES) this.key.push(c);
    }
    if (!this.diverting && chunk.length > runStart) this.keep(chunk.subarray(runStart));
  }

  /** Called once the whole body was written. */
  finish(): void {
    if (this.diverting) this.finishFile();
  }

  private finishFile(): void {
    if (this.percent) {
      this.percent = null;
      this.decoder!.push(0); // a truncated %xx: not Base64
    }
    this.diverting = false;
    this.inValue = false;
    this.key = [];
    this.keep(encodeURIComponent(this.endFile()));
  }

  private keyName(): string {
    try {
      return decodeURIComponent(Buffer.from(this.key).toString('latin1').replace(/\+/g, ' '));
    } catch {
      return '';
    }
  }
}
