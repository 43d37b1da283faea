// PDF objects (ISO 32000-1 §7.3): the model, a tolerant parser for what a file holds, and a writer for what an
// incremental update adds. The parser never decodes a stream's data; it only notes where the data lies.

export class PdfName {
  constructor(readonly value: string) {}
}

export class PdfRef {
  constructor(
    readonly num: number,
    readonly gen: number,
  ) {}
}

/** A string's bytes exactly as the file means them (escapes resolved); `hex` remembers how it was written. */
export class PdfString {
  constructor(
    readonly bytes: Uint8Array,
    readonly hex = false,
  ) {}

  /** A text string (§7.9.2.2): UTF-16BE with a byte order mark, otherwise PDFDocEncoding (read as Latin-1). */
  text(): string {
    const b = this.bytes;
    if (b.length >= 2 && b[0] === 0xfe && b[1] === 0xff) {
      let out = '';
      for (let i = 2; i + 1 < b.length; i += 2) out += String.fromCharCode((b[i]! << 8) | b[i + 1]!);
      return out;
    }
    if (b.length >= 3 && b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf) {
      return new TextDecoder().decode(b.subarray(3));
    }
    return Buffer.from(b).toString('latin1');
  }

  /** A text string for writing: literal ASCII when possible, otherwise UTF-16BE in hex. */
  static text(value: string): PdfString {
    if (/^[\x20-\x7e]*$/.test(value)) return new PdfString(Uint8Array.from(Buffer.from(value, 'latin1')));
    const bytes = new Uint8Array(2 + value.length * 2);
    bytes[0] = 0xfe;
    bytes[1] = 0xff;
    for (let i = 0; i < value.length; i++) {
      const code = value.charCodeAt(i);
      bytes[2 + i * 2] = code >> 8;
      bytes[3 + i * 2] = code & 0xff;
    }
    return new PdfString(bytes, true);
  }
}

export class PdfDict {
  readonly entries: Map<string, PdfValue>;

  constructor(entries?: Iterable<[string, PdfValue]>) {
    this.entries = new Map(entries);
  }

  get(key: string): PdfValue | undefined {
    return this.entries.get(key);
  }

  set(key: string, value: PdfValue): this {
    this.entries.set(key, value);
    return this;
  }

  has(key: string): boolean {
    return this.entries.has(key);
  }

  /** A copy whose entries can be changed without touching this one (values are shared). */
  clone(): PdfDict {
    return new PdfDict(this.entries);
  }
}

/** A stream: its dictionary and where its (still encoded) data lies in the file. */
export class PdfStream {
  constructor(
    readonly dict: PdfDict,
    readonly dataStart: number,
    readonly dataEnd: number,
  ) {}
}

export type PdfValue = null | boolean | number | PdfName | PdfString | PdfRef | PdfDict | PdfValue[];

export class PdfSyntaxError extends Error {
  constructor(message: string, offset: number) {
    super(`${message} (at byte ${offset})`);
    this.name = 'PdfSyntaxError';
  }
}

// ---------------------------------------------------------------------------------------------------------
// Characters

const WHITESPACE = new Uint8Array(256);
for (const c of [0x00, 0x09, 0x0a, 0x0c, 0x0d, 0x20]) WHITESPACE[c] = 1;
const DELIMITER = new Uint8Array(256);
for (const c of '()<>[]{}/%') DELIMITER[c.charCodeAt(0)] = 1;

export const isWhitespace = (c: number | undefined) => c !== undefined && WHITESPACE[c] === 1;
const isRegular = (c: number | undefined) => c !== undefined && WHITESPACE[c] === 0 && DELIMITER[c] === 0;
const isDigit = (c: number | undefined) => c !== undefined && c >= 0x30 && c <= 0x39;

function hexValue(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x41 && c <= 0x46) return c - 0x37;
  if (c >= 0x61 && c <= 0x66) return c - 0x57;
  return -1;
}

/** Nesting deeper than this is refused: no real file needs it, and it keeps hostile input off the stack. */
const MAX_DEPTH = 64;
export const NESTED_TOO_DEEPLY = 'Objects nested too deeply';

// ---------------------------------------------------------------------------------------------------------
// The parser

export class PdfLexer {
  constructor(
    readonly bytes: Uint8Array,
    public pos = 0,
  ) {}

  skipWhitespace(): void {
    const b = this.bytes;
    for (;;) {
      while (this.pos < b.length && WHITESPACE[b[this.pos]!] === 1) this.pos++;
      if (b[this.pos] !== 0x25 /* % */) return;
      while (this.pos < b.length && b[this.pos] !== 0x0a && b[this.pos] !== 0x0d) this.pos++;
    }
  }

  /** The next run of regular characters (a keyword or a number), without consuming it when `peek`. */
  word(peek = false): string {
    this.skipWhitespace();
    const start = this.pos;
    let end = start;
    while (end < this.bytes.length && isRegular(this.bytes[end])) end++;
    if (!peek) this.pos = end;
    return latin1(this.bytes, start, end);
  }

  expectWord(word: string): void {
    const at = this.pos;
    const found = this.word();
    if (found !== word) throw new PdfSyntaxError(`Expected "${word}", found "${found.slice(0, 20)}"`, at);
  }

  /** A non-negative integer, or undefined (position unchanged) when the next token is not one. */
  unsignedInteger(): number | undefined {
    this.skipWhitespace();
    const b = this.bytes;
    let end = this.pos;
    let value = 0;
    while (isDigit(b[end])) value = value * 10 + (b[end++]! - 0x30);
    if (end === this.pos || isRegular(b[end])) return undefined;
    this.pos = end;
    return value;
  }

  value(depth = 0): PdfValue {
    if (depth > MAX_DEPTH) throw new PdfSyntaxError(NESTED_TOO_DEEPLY, this.pos);
    this.skipWhitespace();
    const b = this.bytes;
    const start = this.pos;
    const c = b[start];
    if (c === undefined) throw new PdfSyntaxError('Unexpected end of file', start);
    if (c === 0x2f /* / */) return this.name();
    if (c === 0x28 /* ( */) return this.literalString();
    if (c === 0x3c /* < */) {
      if (b[start + 1] === 0x3c) return this.dict(depth);
      return this.hexString();
    }
    if (c === 0x5b /* [ */) {
      this.pos++;
      const items: PdfValue[] = [];
      for (;;) {
        this.skipWhitespace();
        if (b[this.pos] === 0x5d /* ] */) {
          this.pos++;
          return items;
        }
        if (this.pos >= b.length) throw new PdfSyntaxError('Unterminated array', start);
        items.push(this.value(depth + 1));
      }
    }
    if (isDigit(c) || c === 0x2b || c === 0x2d || c === 0x2e) return this.numberOrRef();
    const word = this.word();
    if (word === 'true') return true;
    if (word === 'false') return false;
    if (word === 'null') return null;
    throw new PdfSyntaxError(`Unexpected token "${word.slice(0, 20) || String.fromCharCode(c)}"`, start);
  }

  dict(depth = 0): PdfDict {
    const b = this.bytes;
    const start = this.pos;
    if (b[start] !== 0x3c || b[start + 1] !== 0x3c) throw new PdfSyntaxError('Expected a dictionary', start);
    this.pos += 2;
    const dict = new PdfDict();
    for (;;) {
      this.skipWhitespace();
      if (b[this.pos] === 0x3e && b[this.pos + 1] === 0x3e) {
        this.pos += 2;
        return dict;
      }
      if (this.pos >= b.length) throw new PdfSyntaxError('Unterminated dictionary', start);
      if (b[this.pos] !== 0x2f) throw new PdfSyntaxError('Expected a name as dictionary key', this.pos);
      const key = this.name().value;
      dict.set(key, this.value(depth + 1));
    }
  }

  private name(): PdfName {
    const b = this.bytes;
    let end = ++this.pos;
    let hasEscape = false;
    while (end < b.length && isRegular(b[end])) {
      if (b[end] === 0x23) hasEscape = true;
      end++;
    }
    let value = latin1(b, this.pos, end);
    if (hasEscape) {
      value = value.replace(/#([0-9a-fA-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    }
    this.pos = end;
    return new PdfName(value);
  }

  private numberOrRef(): number | PdfRef {
    const start = this.pos;
    const text = this.word();
    const value = Number(text === '-' || text === '+' || text === '.' ? '0' : text);
    if (!Number.isFinite(value)) throw new PdfSyntaxError(`Bad number "${text.slice(0, 20)}"`, start);
    if (/^\d+$/.test(text)) {
      // "num gen R" is a reference.
      const save = this.pos;
      const gen = this.unsignedInteger();
      if (gen !== undefined) {
        this.skipWhitespace();
        if (this.bytes[this.pos] === 0x52 /* R */ && !isRegular(this.bytes[this.pos + 1])) {
          this.pos++;
          return new PdfRef(value, gen);
        }
      }
      this.pos = save;
    }
    return value;
  }

  private literalString(): PdfString {
    const b = this.bytes;
    const start = this.pos++;
    const out: number[] = [];
    let depth = 1;
    while (this.pos < b.length) {
      const c = b[this.pos++]!;
      if (c === 0x5c /* \ */) {
        const e = b[this.pos++];
        if (e === undefined) break;
        if (e >= 0x30 && e <= 0x37) {
          let code = e - 0x30;
          for (let n = 0; n < 2 && b[this.pos]! >= 0x30 && b[this.pos]! <= 0x37; n++) {
            code = code * 8 + (b[this.pos++]! - 0x30);
          }
          out.push(code & 0xff);
        } else if (e === 0x0d) {
          if (b[this.pos] === 0x0a) this.pos++;
        } else if (e !== 0x0a) {
          const escaped: Record<number, number> = {
            0x6e: 0x0a,
            0x72: 0x0d,
            0x74: 0x09,
            0x62: 0x08,
            0x66: 0x0c,
          };
          out.push(escaped[e] ?? e);
        }
      } else if (c === 0x28) {
        depth++;
        out.push(c);
      } else if (c === 0x29) {
        if (--depth === 0) return new PdfString(Uint8Array.from(out));
        out.push(c);
      } else if (c === 0x0d) {
        // An unescaped end of line in a literal string reads as a single line feed.
        if (b[this.pos] === 0x0a) this.pos++;
        out.push(0x0a);
      } else {
        out.push(c);
      }
    }
    throw new PdfSyntaxError('Unterminated string', start);
  }

  private hexString(): PdfString {
    const b = this.bytes;
    const start = this.pos++;
    const end = b.indexOf(0x3e, this.pos);
    if (end < 0) throw new PdfSyntaxError('Unterminated hex string', start);
    const out = new Uint8Array(Math.ceil((end - this.pos) / 2));
    let n = 0;
    let high = -1;
    for (let i = this.pos; i < end; i++) {
      const c = b[i]!;
      if (WHITESPACE[c] === 1) continue;
      const v = hexValue(c);
      if (v < 0) throw new PdfSyntaxError('Bad character in hex string', i);
      if (high < 0) high = v;
      else {
        out[n++] = (high << 4) | v;
        high = -1;
      }
    }
    if (high >= 0) out[n++] = high << 4;
    this.pos = end + 1;
    return new PdfString(out.subarray(0, n), true);
  }
}

export function latin1(bytes: Uint8Array, start: number, end: number): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset + start, Math.max(0, end - start)).toString('latin1');
}

// ---------------------------------------------------------------------------------------------------------
// Typed access

type Resolved = PdfValue | PdfStream | undefined;

export const asName = (value: Resolved): string | undefined =>
  value instanceof PdfName ? value.value : undefined;
export const asDict = (value: Resolved): PdfDict | undefined =>
  value instanceof PdfDict ? value : value instanceof PdfStream ? value.dict : undefined;
export const asArray = (value: Resolved): PdfValue[] | undefined =>
  Array.isArray(value) ? value : undefined;
export const asInteger = (value: Resolved): number | undefined =>
  typeof value === 'number' && Number.isSafeInteger(value) ? value : undefined;

// ---------------------------------------------------------------------------------------------------------
// The writer

function formatNumber(value: number): string {
  if (!Number.isFinite(value)) throw new Error('A PDF number must be finite');
  if (Number.isInteger(value)) return Math.abs(value) < 1e21 ? String(value) : BigInt(value).toString();
  // PDF has no exponent notation.
  return value.toFixed(10).replace(/0+$/, '').replace(/\.$/, '');
}

function writeName(value: string): string {
  let out = '/';
  for (const char of value) {
    const c = char.charCodeAt(0);
    out += c > 0x20 && c < 0x7f && c !== 0x23 && isRegular(c) ? char : `#${c.toString(16).padStart(2, '0')}`;
  }
  return out;
}

function writeString(value: PdfString): string {
  if (value.hex) return `<${Buffer.from(value.bytes).toString('hex')}>`;
  let out = '(';
  for (const c of value.bytes) {
    if (c === 0x28 || c === 0x29 || c === 0x5c) out += `\\${String.fromCharCode(c)}`;
    else if (c === 0x0a) out += '\\n';
    else if (c === 0x0d) out += '\\r';
    else if (c < 0x20 || c > 0x7e) out += `\\${c.toString(8).padStart(3, '0')}`;
    else out += String.fromCharCode(c);
  }
  return `${out})`;
}

/** The value in PDF syntax (ASCII only, so one character is one byte). */
export function serialize(value: PdfValue): string {
  if (value === null) return 'null';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number') return formatNumber(value);
  if (value instanceof PdfName) return writeName(value.value);
  if (value instanceof PdfString) return writeString(value);
  if (value instanceof PdfRef) return `${value.num} ${value.gen} R`;
  if (Array.isArray(value)) return `[${value.map(serialize).join(' ')}]`;
  let out = '<<';
  for (const [key, member] of value.entries) out += `${writeName(key)} ${serialize(member)} `;
  return `${out.trimEnd()}>>`;
}
