// Reads a PDF file's structure (ISO 32000-1 §7.5): the newest trailer, the cross-reference sections (classic
// tables, cross-reference streams and hybrids, following /Prev), and any object by number, including objects
// packed in object streams. It touches only what it is asked for, so a 10 MB file of images costs little more
// than a small one. It never changes the file.
import { constants, inflateSync } from 'node:zlib';
import {
  asArray,
  asDict,
  asInteger,
  asName,
  PdfDict,
  NESTED_TOO_DEEPLY,
  PdfLexer,
  PdfRef,
  PdfStream,
  PdfSyntaxError,
  type PdfValue,
} from './pdf-objects.js';

export type XrefEntry =
  | { kind: 'free' }
  | { kind: 'offset'; offset: number; gen: number }
  | { kind: 'compressed'; stream: number; index: number };

export interface IndirectObject {
  num: number;
  gen: number;
  value: PdfValue | PdfStream;
  /** Where "num gen obj" starts and where "endobj" ends; undefined for objects inside an object stream. */
  span?: { start: number; end: number };
}

export type XrefKind = 'table' | 'stream';

/** One cross-reference section of the chain the newest trailer starts (what an incremental update adds). */
export interface XrefSection {
  /** Where it starts: the offset `startxref` or a /Prev names. */
  offset: number;
  kind: XrefKind;
  /** Where its own bytes end (after the trailer dictionary, or after the stream's `endobj`). */
  end: number;
  /** The object numbers it lists, in use or free (a hybrid's cross-reference stream included). */
  objects: readonly number[];
  /** A cross-reference stream's own object number. */
  streamObject?: number;
}

/** Decoded streams larger than this are refused: cross-reference and object streams are never near it. */
const MAX_DECODED_BYTES = 64 * 1024 * 1024;
const MAX_SECTIONS = 4096;

export class PdfStructureError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PdfStructureError';
  }
}

const ascii = (text: string) => Buffer.from(text, 'latin1');

/**
 * Whether this reader follows the file to its catalog: a PDF the core can sign and verify. Whatever a hostile
 * file makes the reader throw means no.
 */
export function isReadablePdf(bytes: Uint8Array): boolean {
  try {
    PdfStructure.read(bytes).catalog();
    return true;
  } catch {
    return false;
  }
}

export class PdfStructure {
  /** Offset of the newest cross-reference section (the file's last `startxref`). */
  readonly startxref: number;
  /** Kind of the newest section: an update must continue with a section a reader following /Prev accepts. */
  readonly lastXrefKind: XrefKind;
  /** The newest trailer (for a cross-reference stream: its dictionary). */
  readonly trailer: PdfDict;
  /** One more than the highest object number in use. */
  readonly size: number;
  /** The cross-reference sections, newest first, as /Prev leads from `startxref`. */
  readonly sections: readonly XrefSection[];
  private readonly entries = new Map<number, XrefEntry>();
  private readonly objects = new Map<number, IndirectObject | null>();
  /** Why an object could not be read, by its number. */
  private readonly unreadable = new Map<number, string>();
  private readonly objectStreams = new Map<number, { data: Uint8Array; offsets: Map<number, number> }>();

  private constructor(readonly bytes: Uint8Array) {
    const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, 1024));
    if (head.indexOf('%PDF-') < 0) throw new PdfStructureError('The file is not a PDF (no %PDF header)');
    this.startxref = findStartxref(bytes);
    const sections = this.readSections(this.startxref);
    this.lastXrefKind = sections.kind;
    this.trailer = sections.trailer;
    this.sections = sections.chain;
    const size = asInteger(this.trailer.get('Size'));
    if (size === undefined || size < 1) throw new PdfStructureError('The trailer has no valid /Size');
    let highest = size - 1;
    for (const num of this.entries.keys()) if (num > highest) highest = num;
    this.size = highest + 1;
  }

  static read(bytes: Uint8Array): PdfStructure {
    try {
      return new PdfStructure(bytes);
    } catch (error) {
      if (error instanceof PdfStructureError) throw error;
      if (error instanceof PdfSyntaxError)
        throw new PdfStructureError(`Unreadable PDF structure: ${error.message}`);
      throw error;
    }
  }

  entry(num: number): XrefEntry | undefined {
    return this.entries.get(num);
  }

  /** The catalog (document root) of the newest revision. */
  catalog(): { ref: PdfRef; dict: PdfDict } {
    const root = this.trailer.get('Root');
    if (!(root instanceof PdfRef)) throw new PdfStructureError('The trailer has no /Root reference');
    const dict = asDict(this.resolve(root));
    if (!dict) {
      // A catalog that is there but nests deeper than the reader goes is not "missing": say what is wrong.
      const tooDeep = this.unreadable.get(root.num)?.startsWith(NESTED_TOO_DEEPLY);
      throw new PdfStructureError(
        tooDeep ? 'The document catalog nests too deeply to be read' : 'The document catalog is missing',
      );
    }
    return { ref: root, dict };
  }

  /** The object of this number as the newest revision defines it; undefined when free, missing or unreadable. */
  object(num: number): IndirectObject | undefined {
    const cached = this.objects.get(num);
    if (cached !== undefined) return cached ?? undefined;
    this.objects.set(num, null); // a reference loop (a /Length pointing back) finds nothing instead of recursing
    let found: IndirectObject | undefined;
    try {
      found = this.loadObject(num);
    } catch (error) {
      if (!(error instanceof PdfSyntaxError || error instanceof PdfStructureError)) throw error;
      this.unreadable.set(num, error.message);
      found = undefined;
    }
    this.objects.set(num, found ?? null);
    return found;
  }

  /** The object numbers an object stream holds; empty when it is not a readable object stream. */
  objectStreamMembers(num: number): number[] {
    try {
      return [...this.objectStream(num).offsets.keys()];
    } catch (error) {
      if (!(error instanceof PdfSyntaxError || error instanceof PdfStructureError)) throw error;
      return [];
    }
  }

  /** Follows references (a bounded number of times) to a direct value. */
  resolve(value: PdfValue | PdfStream | undefined): PdfValue | PdfStream | undefined {
    let current = value;
    for (let hops = 0; current instanceof PdfRef; hops++) {
      if (hops > 32) return undefined;
      current = this.object(current.num)?.value;
    }
    return current;
  }

  /** A stream's data with its filters undone (FlateDecode with PNG or TIFF predictors: what structure uses). */
  streamData(stream: PdfStream): Uint8Array {
    let data = this.bytes.subarray(stream.dataStart, stream.dataEnd);
    const filters = this.resolve(stream.dict.get('Filter'));
    const params = this.resolve(stream.dict.get('DecodeParms'));
    const filterList =
      filters === undefined || filters === null ? [] : Array.isArray(filters) ? filters : [filters];
    const paramList = Array.isArray(params) ? params : [params];
    filterList.forEach((filter, i) => {
      const name = asName(this.resolve(filter));
      if (name !== 'FlateDecode' && name !== 'Fl') {
        throw new PdfStructureError(`Unsupported stream filter ${name ?? '(not a name)'}`);
      }
      data = inflate(data);
      const parms = asDict(this.resolve(paramList[i]));
      if (parms) data = unpredict(data, parms);
    });
    return data;
  }

  // -------------------------------------------------------------------------------------------------------

  private readSections(start: number): { kind: XrefKind; trailer: PdfDict; chain: XrefSection[] } {
    let newest: { kind: XrefKind; trailer: PdfDict } | undefined;
    const chain: XrefSection[] = [];
    const seen = new Set<number>();
    let offset: number | undefined = start;
    while (offset !== undefined) {
      if (seen.has(offset) || seen.size >= MAX_SECTIONS) break; // a /Prev loop ends the chain
      seen.add(offset);
      const section = this.readSection(offset);
      chain.push(section.section);
      newest ??= section;
      offset = asInteger(section.trailer.get('Prev'));
    }
    if (!newest) throw new PdfStructureError('No cross-reference section');
    return { ...newest, chain };
  }

  private readSection(offset: number): { kind: XrefKind; trailer: PdfDict; section: XrefSection } {
    if (offset < 0 || offset >= this.bytes.length) {
      throw new PdfStructureError('A cross-reference offset points outside the file');
    }
    const lexer = new PdfLexer(this.bytes, offset);
    if (lexer.word(true) === 'xref') {
      lexer.word();
      const objects: number[] = [];
      const trailer = this.readTable(lexer, objects);
      const end = lexer.pos;
      // A hybrid file's table names a cross-reference stream for readers that know them; it ranks after the table.
      const xrefStm = asInteger(trailer.get('XRefStm'));
      if (xrefStm !== undefined) {
        try {
          this.readXrefStream(xrefStm, objects);
        } catch (error) {
          if (!(error instanceof PdfSyntaxError || error instanceof PdfStructureError)) throw error;
        }
      }
      return { kind: 'table', trailer, section: { offset, kind: 'table', end, objects } };
    }
    const objects: number[] = [];
    const stream = this.readXrefStream(offset, objects);
    return {
      kind: 'stream',
      trailer: stream.dict,
      section: { offset, kind: 'stream', end: stream.end, objects, streamObject: stream.num },
    };
  }

  private readTable(lexer: PdfLexer, listed: number[]): PdfDict {
    for (;;) {
      if (lexer.word(true) === 'trailer') {
        lexer.word();
        lexer.skipWhitespace();
        return lexer.dict();
      }
      const first = lexer.unsignedInteger();
      const count = lexer.unsignedInteger();
      if (first === undefined || count === undefined) {
        throw new PdfStructureError(`Malformed cross-reference table at byte ${lexer.pos}`);
      }
      for (let i = 0; i < count; i++) {
        const offset = lexer.unsignedInteger();
        const gen = lexer.unsignedInteger();
        const type = lexer.word();
        if (offset === undefined || gen === undefined || (type !== 'n' && type !== 'f')) {
          throw new PdfStructureError(`Malformed cross-reference entry at byte ${lexer.pos}`);
        }
        const num = first + i;
        if (num === 0) continue;
        listed.push(num);
        if (this.entries.has(num)) continue;
        this.entries.set(
          num,
          type === 'n' && offset > 0 ? { kind: 'offset', offset, gen } : { kind: 'free' },
        );
      }
    }
  }

  private readXrefStream(offset: number, listed: number[]): { dict: PdfDict; num: number; end: number } {
    const object = this.parseObjectAt(offset);
    if (!(object.value instanceof PdfStream) || asName(object.value.dict.get('Type')) !== 'XRef') {
      throw new PdfStructureError(`No cross-reference section at byte ${offset}`);
    }
    const stream = object.value;
    const dict = stream.dict;
    const read = { dict, num: object.num, end: object.span.end };
    const widths = (asArray(dict.get('W')) ?? []).map((w) => asInteger(w) ?? -1);
    if (widths.length !== 3 || widths.some((w) => w < 0 || w > 8)) {
      throw new PdfStructureError('A cross-reference stream has a bad /W');
    }
    const [w1, w2, w3] = widths as [number, number, number];
    const size = asInteger(dict.get('Size')) ?? 0;
    const index = (asArray(dict.get('Index')) ?? [0, size]).map((n) => asInteger(n) ?? -1);
    const data = this.streamData(stream);
    const rowLength = w1 + w2 + w3;
    if (rowLength === 0) throw new PdfStructureError('A cross-reference stream has empty rows');
    let row = 0;
    for (let i = 0; i + 1 < index.length; i += 2) {
      const first = index[i]!;
      const count = index[i + 1]!;
      if (first < 0 || count < 0) throw new PdfStructureError('A cross-reference stream has a bad /Index');
      for (let n = 0; n < count; n++, row++) {
        const at = row * rowLength;
        if (at + rowLength > data.length) return read;
        const type = w1 === 0 ? 1 : readUint(data, at, w1);
        const field2 = readUint(data, at + w1, w2);
        const field3 = readUint(data, at + w1 + w2, w3);
        const num = first + n;
        if (num === 0) continue;
        listed.push(num);
        if (this.entries.has(num)) continue;
        if (type === 1) this.entries.set(num, { kind: 'offset', offset: field2, gen: field3 });
        else if (type === 2) this.entries.set(num, { kind: 'compressed', stream: field2, index: field3 });
        else if (type === 0) this.entries.set(num, { kind: 'free' });
        // Other types are reserved: a reader treats them as null objects, so they are left out.
      }
    }
    return read;
  }

  private loadObject(num: number): IndirectObject | undefined {
    const entry = this.entries.get(num);
    if (!entry || entry.kind === 'free') return undefined;
    if (entry.kind === 'offset') {
      if (entry.offset >= this.bytes.length) return undefined;
      const object = this.parseObjectAt(entry.offset);
      return object.num === num ? object : undefined;
    }
    const container = this.objectStream(entry.stream);
    const at = container.offsets.get(num);
    if (at === undefined) return undefined;
    const lexer = new PdfLexer(container.data, at);
    return { num, gen: 0, value: lexer.value() };
  }

  private objectStream(num: number): { data: Uint8Array; offsets: Map<number, number> } {
    const cached = this.objectStreams.get(num);
    if (cached) return cached;
    const stream = this.object(num)?.value;
    if (!(stream instanceof PdfStream)) throw new PdfStructureError(`Object stream ${num} is missing`);
    const count = asInteger(stream.dict.get('N')) ?? 0;
    const first = asInteger(stream.dict.get('First')) ?? 0;
    const data = this.streamData(stream);
    const lexer = new PdfLexer(data, 0);
    const offsets = new Map<number, number>();
    for (let i = 0; i < count; i++) {
      const objectNum = lexer.unsignedInteger();
      const offset = lexer.unsignedInteger();
      if (objectNum === undefined || offset === undefined) break;
      if (!offsets.has(objectNum)) offsets.set(objectNum, first + offset);
    }
    const parsed = { data, offsets };
    this.objectStreams.set(num, parsed);
    return parsed;
  }

  /** Parses "num gen obj … endobj" at an offset, finding a stream's end by /Length or by "endstream". */
  parseObjectAt(offset: number): IndirectObject & { span: { start: number; end: number } } {
    const bytes = this.bytes;
    const lexer = new PdfLexer(bytes, offset);
    lexer.skipWhitespace();
    const start = lexer.pos;
    const num = lexer.unsignedInteger();
    const gen = lexer.unsignedInteger();
    if (num === undefined || gen === undefined) throw new PdfSyntaxError('Expected an object header', start);
    lexer.expectWord('obj');
    let value: PdfValue | PdfStream = lexer.value();
    if (value instanceof PdfDict && lexer.word(true) === 'stream') {
      lexer.word();
      let dataStart = lexer.pos;
      if (bytes[dataStart] === 0x0d) dataStart++;
      if (bytes[dataStart] === 0x0a) dataStart++;
      const dataEnd = this.streamEnd(value, dataStart);
      value = new PdfStream(value, dataStart, dataEnd);
      lexer.pos = dataEnd;
      lexer.expectWord('endstream');
    }
    if (lexer.word(true) === 'endobj') lexer.word();
    return { num, gen, value, span: { start, end: lexer.pos } };
  }

  private streamEnd(dict: PdfDict, dataStart: number): number {
    const bytes = this.bytes;
    const lengthValue = dict.get('Length');
    const length = asInteger(this.resolve(lengthValue));
    if (length !== undefined && length >= 0 && dataStart + length <= bytes.length) {
      const lexer = new PdfLexer(bytes, dataStart + length);
      if (lexer.word(true) === 'endstream') return dataStart + length;
    }
    // A wrong /Length is common in the wild: take the data up to the keyword, without its end of line.
    const found = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).indexOf(
      ascii('endstream'),
      dataStart,
    );
    if (found < 0) throw new PdfSyntaxError('Unterminated stream', dataStart);
    let end = found;
    if (bytes[end - 1] === 0x0a) end--;
    if (bytes[end - 1] === 0x0d) end--;
    return Math.max(dataStart, end);
  }
}

function findStartxref(bytes: Uint8Array): number {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
  const at = buffer.lastIndexOf(ascii('startxref'), bytes.length, 'latin1');
  if (at < 0 || at < bytes.length - 4096)
    throw new PdfStructureError('No startxref near the end of the file');
  const lexer = new PdfLexer(bytes, at + 'startxref'.length);
  const offset = lexer.unsignedInteger();
  if (offset === undefined) throw new PdfStructureError('startxref is not followed by an offset');
  return offset;
}

function readUint(data: Uint8Array, at: number, width: number): number {
  let value = 0;
  for (let i = 0; i < width; i++) value = value * 256 + data[at + i]!;
  return value;
}

function inflate(data: Uint8Array): Uint8Array {
  try {
    return inflateSync(data, { maxOutputLength: MAX_DECODED_BYTES });
  } catch (error) {
    if (error instanceof RangeError) throw new PdfStructureError('A stream decodes to too many bytes');
    // Streams cut short (a missing checksum is common) still yield what they hold.
    try {
      return inflateSync(data, { maxOutputLength: MAX_DECODED_BYTES, finishFlush: constants.Z_SYNC_FLUSH });
    } catch {
      throw new PdfStructureError('A compressed stream cannot be decoded');
    }
  }
}

/** Undoes a PNG (10–15) or TIFF (2) predictor (§7.4.4.4), as cross-reference streams commonly use. */
function unpredict(data: Uint8Array, params: PdfDict): Uint8Array {
  const predictor = asInteger(params.get('Predictor')) ?? 1;
  if (predictor === 1) return data;
  const colors = asInteger(params.get('Colors')) ?? 1;
  const bits = asInteger(params.get('BitsPerComponent')) ?? 8;
  const columns = asInteger(params.get('Columns')) ?? 1;
  const bpp = Math.max(1, Math.ceil((colors * bits) / 8));
  const rowLength = Math.ceil((colors * bits * columns) / 8);
  if (rowLength <= 0 || rowLength > 1 << 20) throw new PdfStructureError('Bad predictor parameters');
  if (predictor === 2) {
    if (bits !== 8) throw new PdfStructureError('Unsupported TIFF predictor depth');
    const out = Uint8Array.from(data);
    for (let row = 0; row < out.length; row += rowLength) {
      for (let i = bpp; i < rowLength && row + i < out.length; i++)
        out[row + i] = (out[row + i]! + out[row + i - bpp]!) & 0xff;
    }
    return out;
  }
  if (predictor < 10) throw new PdfStructureError(`Unsupported predictor ${predictor}`);
  const rows = Math.floor(data.length / (rowLength + 1));
  const out = new Uint8Array(rows * rowLength);
  for (let r = 0; r < rows; r++) {
    const type = data[r * (rowLength + 1)]!;
    const src = r * (rowLength + 1) + 1;
    const dst = r * rowLength;
    for (let i = 0; i < rowLength; i++) {
      const raw = data[src + i]!;
      const left = i >= bpp ? out[dst + i - bpp]! : 0;
      const up = r > 0 ? out[dst - rowLength + i]! : 0;
      const upLeft = r > 0 && i >= bpp ? out[dst - rowLength + i - bpp]! : 0;
      let value: number;
      switch (type) {
        case 0:
          value = raw;
          break;
        case 1:
          value = raw + left;
          break;
        case 2:
          value = raw + up;
          break;
        case 3:
          value = raw + ((left + up) >> 1);
          break;
        case 4: {
          const p = left + up - upLeft;
          const pa = Math.abs(p - left);
          const pb = Math.abs(p - up);
          const pc = Math.abs(p - upLeft);
          value = raw + (pa <= pb && pa <= pc ? left : pb <= pc ? up : upLeft);
          break;
        }
        default:
          throw new PdfStructureError(`Bad PNG predictor row type ${type}`);
      }
      out[dst + i] = value & 0xff;
    }
  }
  return out;
}
