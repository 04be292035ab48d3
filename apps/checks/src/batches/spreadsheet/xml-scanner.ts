// A small streaming scanner of the XML an xlsx holds (SpreadsheetML): tags with their raw attributes and the
// text between them, chunk by chunk, in bounded memory. Not a general XML parser: no DTDs, CDATA or comments
// with '>' in them, which spreadsheet writers do not produce.

import { StringDecoder } from 'node:string_decoder';

import { SpreadsheetError } from './spreadsheet-limits';

export interface XmlHandler {
  open(name: string, attrs: string, selfClosing: boolean): void;
  close(name: string): void;
  text(text: string): void;
}

/** Longest tag accepted (attributes included). */
const MAX_TAG_CHARS = 64 * 1024;
const TOKEN = /<([^>]*)>|([^<]+)/g;

export async function scanXml(chunks: AsyncIterable<Buffer>, handler: XmlHandler, part: string): Promise<void> {
  const decoder = new StringDecoder('utf8');
  let carry = '';
  const run = (text: string) => {
    TOKEN.lastIndex = 0;
    for (let m = TOKEN.exec(text); m; m = TOKEN.exec(text)) {
      if (m[2] !== undefined) {
        handler.text(decodeEntities(m[2]));
        continue;
      }
      const tag = m[1];
      const first = tag.charCodeAt(0);
      if (first === 63 /* ? */ || first === 33 /* ! */) continue;
      if (first === 47 /* / */) {
        handler.close(localName(tag.slice(1).trim()));
        continue;
      }
      const selfClosing = tag.charCodeAt(tag.length - 1) === 47;
      const body = selfClosing ? tag.slice(0, -1) : tag;
      const space = body.search(/\s/);
      const name = localName(space < 0 ? body : body.slice(0, space));
      handler.open(name, space < 0 ? '' : body.slice(space), selfClosing);
      if (selfClosing) handler.close(name);
    }
  };
  // Everything up to the last '>' is scanned; an unfinished tag, or an entity cut by the chunk, waits for the next.
  const feed = (text: string) => {
    const all = carry + text;
    const end = all.lastIndexOf('>') + 1;
    if (end) run(all.slice(0, end));
    const rest = all.slice(end);
    let keep = rest.indexOf('<');
    if (keep < 0) {
      const amp = rest.lastIndexOf('&');
      keep = amp >= 0 && rest.indexOf(';', amp) < 0 ? amp : rest.length;
    }
    if (keep > 0) handler.text(decodeEntities(rest.slice(0, keep)));
    carry = rest.slice(keep);
    if (carry.length > MAX_TAG_CHARS) throw new SpreadsheetError(`the part ${part} is not well-formed XML`);
  };
  for await (const chunk of chunks) feed(decoder.write(chunk));
  feed(decoder.end());
  if (carry.trim()) throw new SpreadsheetError(`the part ${part} is not well-formed XML`);
}

/** The value of an attribute in a tag's raw attributes (entities decoded), or undefined. */
export function attr(attrs: string, name: string): string | undefined {
  const m = new RegExp(`(?:^|\\s)${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)')`).exec(attrs);
  return m ? decodeEntities(m[1] ?? m[2]) : undefined;
}

function localName(name: string): string {
  const colon = name.indexOf(':');
  return colon < 0 ? name : name.slice(colon + 1);
}

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

export function decodeEntities(text: string): string {
  if (text.indexOf('&') < 0) return text;
  return text.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|amp|lt|gt|quot|apos);/g, (_, e: string) => {
    if (e[0] !== '#') return NAMED[e];
    const code = e[1] === 'x' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
    return code <= 0x10ffff ? String.fromCodePoint(code) : '';
  });
}
