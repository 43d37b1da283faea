// ASN.1 DER (X.690), just what CMS signatures need: a bounds-checked reader that keeps every element's exact
// bytes (signatures are over bytes, not over re-encodings), and a writer that produces canonical DER.

export class DerError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DerError';
  }
}

export interface DerNode {
  /** The identifier octet: class, constructed bit and tag number (tag numbers above 30 are refused). */
  tag: number;
  /** Where the element starts (identifier octet), where its content starts and ends, and where it ends. */
  start: number;
  contentStart: number;
  contentEnd: number;
  end: number;
  buffer: Uint8Array;
}

export const TAG = {
  boolean: 0x01,
  integer: 0x02,
  bitString: 0x03,
  octetString: 0x04,
  null: 0x05,
  oid: 0x06,
  utf8String: 0x0c,
  printableString: 0x13,
  ia5String: 0x16,
  utcTime: 0x17,
  generalizedTime: 0x18,
  sequence: 0x30,
  set: 0x31,
} as const;

const MAX_DEPTH = 32;

/** Reads the element at `offset`; its end must not pass `limit`. Indefinite lengths (BER) are accepted. */
export function readDer(buffer: Uint8Array, offset = 0, limit = buffer.length, depth = 0): DerNode {
  if (depth > MAX_DEPTH) throw new DerError('ASN.1 nested too deeply');
  if (offset + 2 > limit) throw new DerError('ASN.1 element cut short');
  const tag = buffer[offset]!;
  if ((tag & 0x1f) === 0x1f) throw new DerError('ASN.1 high tag numbers are not supported');
  let at = offset + 1;
  const first = buffer[at++]!;
  if (first === 0x80) {
    // Indefinite length: constructed only, ended by two zero octets.
    if ((tag & 0x20) === 0) throw new DerError('Indefinite length on a primitive element');
    let child = at;
    for (;;) {
      if (child + 2 > limit) throw new DerError('Unterminated indefinite-length element');
      if (buffer[child] === 0 && buffer[child + 1] === 0) {
        return { tag, start: offset, contentStart: at, contentEnd: child, end: child + 2, buffer };
      }
      child = readDer(buffer, child, limit, depth + 1).end;
    }
  }
  let length: number;
  if (first < 0x80) {
    length = first;
  } else {
    const count = first & 0x7f;
    if (count > 4) throw new DerError('ASN.1 length too large');
    length = 0;
    for (let i = 0; i < count; i++) {
      if (at >= limit) throw new DerError('ASN.1 length cut short');
      length = length * 256 + buffer[at++]!;
    }
  }
  const end = at + length;
  if (end > limit) throw new DerError('ASN.1 element longer than its container');
  return { tag, start: offset, contentStart: at, contentEnd: end, end, buffer };
}

/** The elements inside a constructed element. */
export function children(node: DerNode, depth = 0): DerNode[] {
  if ((node.tag & 0x20) === 0) throw new DerError('Not a constructed ASN.1 element');
  const out: DerNode[] = [];
  let at = node.contentStart;
  while (at < node.contentEnd) {
    const child = readDer(node.buffer, at, node.contentEnd, depth + 1);
    out.push(child);
    at = child.end;
  }
  return out;
}

export const rawBytes = (node: DerNode) => node.buffer.subarray(node.start, node.end);
export const contentBytes = (node: DerNode) => node.buffer.subarray(node.contentStart, node.contentEnd);

export function expectTag(node: DerNode | undefined, tag: number, what: string): DerNode {
  if (!node || node.tag !== tag) throw new DerError(`Expected ${what}`);
  return node;
}

export function decodeOid(node: DerNode): string {
  expectTag(node, TAG.oid, 'an object identifier');
  const bytes = contentBytes(node);
  if (bytes.length === 0) throw new DerError('Empty object identifier');
  const parts: number[] = [];
  let value = 0;
  for (const byte of bytes) {
    value = value * 128 + (byte & 0x7f);
    if ((byte & 0x80) === 0) {
      if (parts.length === 0)
        parts.push(value < 80 ? Math.floor(value / 40) : 2, value < 80 ? value % 40 : value - 80);
      else parts.push(value);
      value = 0;
    }
  }
  return parts.join('.');
}

/** UTCTime or GeneralizedTime (the forms CMS and X.509 use: UTC, seconds, optional fraction). */
export function decodeTime(node: DerNode): Date {
  const text = Buffer.from(contentBytes(node)).toString('latin1');
  const match =
    node.tag === TAG.utcTime
      ? /^(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})?Z$/.exec(text)
      : node.tag === TAG.generalizedTime
        ? /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})?(?:\.\d+)?Z$/.exec(text)
        : null;
  if (!match) throw new DerError('Unsupported time encoding');
  let year = Number(match[1]);
  if (node.tag === TAG.utcTime) year += year < 50 ? 2000 : 1900;
  const date = new Date(
    Date.UTC(
      year,
      Number(match[2]) - 1,
      Number(match[3]),
      Number(match[4]),
      Number(match[5]),
      Number(match[6] ?? 0),
    ),
  );
  if (Number.isNaN(date.getTime())) throw new DerError('Invalid time');
  return date;
}

// ---------------------------------------------------------------------------------------------------------
// Writer

function encodeLength(length: number): Uint8Array {
  if (length < 0x80) return Uint8Array.of(length);
  const bytes: number[] = [];
  for (let n = length; n > 0; n = Math.floor(n / 256)) bytes.unshift(n & 0xff);
  return Uint8Array.of(0x80 | bytes.length, ...bytes);
}

export function tlv(tag: number, ...parts: Uint8Array[]): Uint8Array {
  const content = Buffer.concat(parts);
  return Buffer.concat([Uint8Array.of(tag), encodeLength(content.length), content]);
}

export const sequence = (...parts: Uint8Array[]) => tlv(TAG.sequence, ...parts);

/** X.690 §11.6: the elements of a DER SET OF in ascending order of their encodings. */
export function sortDer(parts: Uint8Array[]): Uint8Array[] {
  return [...parts].sort((a, b) => {
    for (let i = 0; i < Math.max(a.length, b.length); i++) {
      const diff = (a[i] ?? 0) - (b[i] ?? 0);
      if (diff !== 0) return diff;
    }
    return 0;
  });
}

export const setOf = (...parts: Uint8Array[]) => tlv(TAG.set, ...sortDer(parts));
export const octetString = (bytes: Uint8Array) => tlv(TAG.octetString, bytes);
export const explicit = (n: number, ...parts: Uint8Array[]) => tlv(0xa0 | n, ...parts);

export function oid(dotted: string): Uint8Array {
  const parts = dotted.split('.').map(Number);
  if (parts.length < 2 || parts.some((p) => !Number.isSafeInteger(p) || p < 0))
    throw new Error(`Bad OID ${dotted}`);
  const values = [parts[0]! * 40 + parts[1]!, ...parts.slice(2)];
  const bytes: number[] = [];
  for (const value of values) {
    const chunk = [value & 0x7f];
    for (let n = Math.floor(value / 128); n > 0; n = Math.floor(n / 128)) chunk.unshift(0x80 | (n & 0x7f));
    bytes.push(...chunk);
  }
  return tlv(TAG.oid, Uint8Array.from(bytes));
}

/** A non-negative INTEGER from big-endian magnitude bytes (minimal, with a zero octet when the top bit is set). */
export function unsignedInteger(magnitude: Uint8Array): Uint8Array {
  let start = 0;
  while (start < magnitude.length - 1 && magnitude[start] === 0) start++;
  const trimmed = magnitude.subarray(start);
  if (trimmed.length === 0) return tlv(TAG.integer, Uint8Array.of(0));
  return tlv(TAG.integer, trimmed[0]! & 0x80 ? Buffer.concat([Uint8Array.of(0), trimmed]) : trimmed);
}

export const smallInteger = (value: number) => tlv(TAG.integer, Uint8Array.of(value));

export const derEqual = (a: Uint8Array, b: Uint8Array) => Buffer.compare(a, b) === 0;
