// Appends an incremental update (ISO 32000-1 §7.5.6) to a PDF: new and changed objects after the last byte
// of the file, then a cross-reference section for just them whose trailer points back (/Prev) to the previous
// one. The original bytes stay exactly as they were, which keeps every earlier signature valid.
//
// The new section has the kind of the previous one: a table after a table, a cross-reference stream after a
// stream (a reader that only knows tables cannot have read the file anyway, and one that knows streams finds
// the older sections through /Prev either way).
import { serialize, type PdfRef } from './pdf-objects.js';
import type { PdfStructure } from './pdf-structure.js';

export interface UpdateObject {
  ref: PdfRef;
  /** The object's value in PDF syntax (ASCII); streams are not needed by the signature writer. */
  body: string;
}

export interface IncrementalUpdate {
  bytes: Uint8Array;
  /** Where each written object's value (after "num gen obj\n") starts in `bytes`. */
  valueOffsets: Map<number, number>;
  /** Where the update begins (the old file's length, plus an end-of-line if it had none). */
  updateStart: number;
}

/** Keys of the previous trailer an update carries on (/Size and /Prev are its own). */
const CARRIED_TRAILER_KEYS = ['Root', 'Info', 'ID'] as const;

export function appendIncrementalUpdate(structure: PdfStructure, objects: UpdateObject[]): IncrementalUpdate {
  const original = structure.bytes;
  const parts: Buffer[] = [Buffer.from(original.buffer, original.byteOffset, original.length)];
  let length = original.length;
  const push = (text: string) => {
    const chunk = Buffer.from(text, 'latin1');
    parts.push(chunk);
    length += chunk.length;
  };
  const last = original[original.length - 1];
  if (last !== 0x0a && last !== 0x0d) push('\n');
  const updateStart = length;

  const offsets = new Map<number, { offset: number; gen: number }>();
  const valueOffsets = new Map<number, number>();
  const writeObject = (ref: PdfRef, body: string) => {
    if (offsets.has(ref.num)) throw new Error(`Object ${ref.num} written twice in one update`);
    offsets.set(ref.num, { offset: length, gen: ref.gen });
    const header = `${ref.num} ${ref.gen} obj\n`;
    valueOffsets.set(ref.num, length + header.length);
    push(`${header}${body}\nendobj\n`);
  };
  for (const object of objects) writeObject(object.ref, object.body);

  let size = structure.size;
  for (const num of offsets.keys()) size = Math.max(size, num + 1);
  const trailer: string[] = [];
  for (const key of CARRIED_TRAILER_KEYS) {
    const value = structure.trailer.get(key);
    if (value !== undefined) trailer.push(`/${key} ${serialize(value)}`);
  }
  trailer.push(`/Prev ${structure.startxref}`);

  const xrefOffset = length;
  if (structure.lastXrefKind === 'table') {
    push('xref\n0 1\n0000000000 65535 f\r\n');
    for (const [first, nums] of runs([...offsets.keys()])) {
      push(`${first} ${nums.length}\n`);
      for (const num of nums) {
        const { offset, gen } = offsets.get(num)!;
        push(`${String(offset).padStart(10, '0')} ${String(gen).padStart(5, '0')} n\r\n`);
      }
    }
    push(`trailer\n<</Size ${size} ${trailer.join(' ')}>>\n`);
  } else {
    // The stream lists itself too, at the offset where it is about to be written.
    const xrefNum = size++;
    offsets.set(xrefNum, { offset: xrefOffset, gen: 0 });
    const offsetWidth = Math.max(1, Math.ceil(Math.log2(xrefOffset + 2) / 8));
    const rowLength = 1 + offsetWidth + 2;
    const sorted = [...offsets.keys()].sort((a, b) => a - b);
    const data = Buffer.alloc(sorted.length * rowLength);
    sorted.forEach((num, i) => {
      const { offset, gen } = offsets.get(num)!;
      const at = i * rowLength;
      data[at] = 1;
      data.writeUIntBE(offset, at + 1, offsetWidth);
      data.writeUInt16BE(gen, at + 1 + offsetWidth);
    });
    const index = [...runs(sorted)].map(([first, nums]) => `${first} ${nums.length}`).join(' ');
    const dict =
      `<</Type /XRef /Size ${size} /Index [${index}] /W [1 ${offsetWidth} 2] /Length ${data.length} ` +
      `${trailer.join(' ')}>>\nstream\n`;
    offsets.delete(xrefNum); // written below by hand: its body holds binary data
    const header = `${xrefNum} 0 obj\n`;
    push(header + dict);
    parts.push(data);
    length += data.length;
    push('\nendstream\nendobj\n');
  }
  push(`startxref\n${xrefOffset}\n%%EOF\n`);
  return { bytes: Buffer.concat(parts, length), valueOffsets, updateStart };
}

/** Consecutive numbers grouped as [first, members] (cross-reference subsections). */
function* runs(nums: number[]): Generator<[number, number[]]> {
  const sorted = [...nums].sort((a, b) => a - b);
  let group: number[] = [];
  for (const num of sorted) {
    if (group.length > 0 && num !== group[group.length - 1]! + 1) {
      yield [group[0]!, group];
      group = [];
    }
    group.push(num);
  }
  if (group.length > 0) yield [group[0]!, group];
}
