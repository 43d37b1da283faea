// The revisions of a PDF from a given point on (ISO 32000-1 §7.5.6): the file as it was at each end of an
// incremental update, read as the reader of that revision would read it, and for each update the objects whose
// value it changed, added or removed. Only what the update's own cross-reference sections list is compared,
// so a 10 MB file with two signatures costs two short reads more; every count is capped, and a file that
// exceeds a cap says so instead of being compared in part.
import { PdfStream, type PdfValue, PdfDict, PdfName, PdfRef, PdfString } from './pdf-objects.js';
import { PdfStructure, PdfStructureError, type IndirectObject, type XrefEntry } from './pdf-structure.js';

/** More revisions than this after the first signed one are not compared (64 signatures is the verifier's cap). */
export const MAX_REVISIONS = 256;
/** An update that changes more objects than this is not compared object by object. */
export const MAX_CHANGED_OBJECTS = 10_000;
/** Cross-reference entries read over all revisions: a revision is read whole, so a file with a million entries
 * and many revisions would otherwise take minutes. */
export const MAX_ENTRIES_READ = 2_000_000;

export interface Revision {
  /** 1-based: revision 1 is the file as the first given end leaves it; each later update is the next one. */
  number: number;
  /** The revision is bytes 0 to `end` of the file. */
  end: number;
  structure: PdfStructure;
}

export interface RevisionHistory {
  revisions: Revision[];
  /** The revision that bytes 0 to `end` hold; undefined when those bytes are not a readable revision. */
  revisionAt(end: number): Revision | undefined;
  /** Why revisions after the last one listed could not be read, when a cap stopped the reading. */
  incomplete?: string;
}

/**
 * The revisions from the one ending at `firstEnd` to the whole file. `ends` are further ends to read (the ends
 * of signed byte ranges); the ends of the updates after `firstEnd` are found from the file's own sections.
 */
export function readRevisions(
  bytes: Uint8Array,
  whole: PdfStructure,
  firstEnd: number,
  ends: readonly number[],
): RevisionHistory {
  const boundaries = new Set<number>([firstEnd, bytes.length]);
  for (const end of ends) if (end >= firstEnd && end <= bytes.length) boundaries.add(end);
  for (const section of whole.sections) {
    if (section.offset < firstEnd) continue;
    const end = endOfUpdate(bytes, section.end);
    if (end !== undefined) boundaries.add(end);
  }
  // What a read costs: the entries of the sections before its end (the whole file's chain, normally).
  const entriesBefore = (end: number) =>
    whole.sections.reduce((sum, section) => sum + (section.offset < end ? section.objects.length : 0), 0);
  let entriesRead = entryCount(whole);

  const revisions: Revision[] = [];
  const byHead = new Map<number, Revision>();
  const byEnd = new Map<number, Revision | undefined>();
  let incomplete: string | undefined;
  for (const end of [...boundaries].sort((a, b) => a - b)) {
    if (revisions.length >= MAX_REVISIONS) {
      incomplete = `the file has more than ${MAX_REVISIONS} revisions after the first signature`;
      break;
    }
    let structure: PdfStructure | undefined = whole;
    if (end < bytes.length) {
      // Checked before the read from what the whole file lists, and after it from what the read found.
      if (entriesRead + entriesBefore(end) > MAX_ENTRIES_READ) {
        incomplete = 'the file has too many objects to compare all of its revisions';
        break;
      }
      structure = readPrefix(bytes, end);
      entriesRead += structure ? entryCount(structure) : 0;
    }
    if (!structure) {
      byEnd.set(end, undefined);
      continue;
    }
    // Two ends can hold the same revision (bytes after %%EOF that no section lists): the first one names it.
    let revision = byHead.get(structure.startxref);
    if (!revision) {
      revision = { number: revisions.length + 1, end, structure };
      revisions.push(revision);
      byHead.set(structure.startxref, revision);
    }
    byEnd.set(end, revision);
  }
  return {
    revisions,
    revisionAt: (end) => byEnd.get(end),
    ...(incomplete ? { incomplete } : {}),
  };
}

const entryCount = (structure: PdfStructure) =>
  structure.sections.reduce((sum, section) => sum + section.objects.length, 0);

function readPrefix(bytes: Uint8Array, end: number): PdfStructure | undefined {
  try {
    return PdfStructure.read(bytes.subarray(0, end));
  } catch (error) {
    if (error instanceof PdfStructureError) return undefined;
    throw error;
  }
}

/** Just after the `%%EOF` (and its end of line) that follows a section's trailer, if one is near. */
function endOfUpdate(bytes: Uint8Array, from: number): number | undefined {
  const window = Buffer.from(bytes.buffer, bytes.byteOffset + from, Math.min(4096, bytes.length - from));
  const at = window.indexOf('%%EOF', 0, 'latin1');
  if (at < 0) return undefined;
  let end = from + at + 5;
  if (bytes[end] === 0x0d) end++;
  if (bytes[end] === 0x0a) end++;
  return end;
}

// ---------------------------------------------------------------------------------------------------------
// What an update changed

export interface ChangedObject {
  num: number;
  /** The object before the update; undefined when it is new (or was free or unreadable). */
  before?: IndirectObject;
  /** The object after the update; undefined when the update removed it. */
  after?: IndirectObject;
}

export type UpdateComparison =
  | { kind: 'compared'; changed: ChangedObject[] }
  /** The update cannot be compared object by object; `reason` says why, as "the update …" goes on. */
  | { kind: 'not-compared'; reason: string };

/**
 * The objects whose value differs between a revision and a later one. The later one must continue the earlier
 * one's cross-reference chain (its sections followed by the earlier ones, as an incremental update writes
 * them); then only the numbers its new sections list can differ, plus the members of object streams they
 * replace. An object rewritten with the same value is not a change; the new sections' own cross-reference
 * streams and object streams are containers, not changes.
 */
export function compareRevisions(
  before: PdfStructure,
  after: PdfStructure,
  /** Objects that may still be read, shared by every comparison (and walk) of one file. */
  budget: { objects: number } = { objects: Infinity },
): UpdateComparison {
  const added = after.sections.length - before.sections.length;
  if (
    added < 0 ||
    before.sections.some((section, i) => section.offset !== after.sections[i + added]!.offset)
  ) {
    return {
      kind: 'not-compared',
      reason: 'did not build on the revision before it (its cross-reference data starts over)',
    };
  }
  const newSections = after.sections.slice(0, added);
  const xrefStreams = new Set(newSections.flatMap((section) => section.streamObject ?? []));
  const candidates = new Set<number>();
  for (const section of newSections) {
    for (const num of section.objects) {
      candidates.add(num);
      if (candidates.size > MAX_CHANGED_OBJECTS * 4) {
        return {
          kind: 'not-compared',
          reason: `listed more objects than Careplane compares (over ${MAX_CHANGED_OBJECTS * 4})`,
        };
      }
    }
  }

  // An object stream given another place can hold other values for objects whose entries did not change.
  const replacedContainers = new Set<number>();
  for (const num of candidates) {
    if (sameEntry(before.entry(num), after.entry(num))) continue;
    if (isObjectStream(before.object(num)) || isObjectStream(after.object(num))) replacedContainers.add(num);
  }
  for (const container of replacedContainers) {
    for (const member of [
      ...before.objectStreamMembers(container),
      ...after.objectStreamMembers(container),
    ]) {
      candidates.add(member);
    }
    if (candidates.size > MAX_CHANGED_OBJECTS * 8) {
      return {
        kind: 'not-compared',
        reason: `changed more objects than Careplane compares (over ${MAX_CHANGED_OBJECTS})`,
      };
    }
  }

  const changed: ChangedObject[] = [];
  for (const num of [...candidates].sort((a, b) => a - b)) {
    const entryBefore = before.entry(num);
    const entryAfter = after.entry(num);
    if (
      sameEntry(entryBefore, entryAfter) &&
      !(entryAfter?.kind === 'compressed' && replacedContainers.has(entryAfter.stream))
    ) {
      continue;
    }
    if (replacedContainers.has(num) || xrefStreams.has(num)) continue;
    budget.objects -= 2;
    if (budget.objects < 0) {
      return { kind: 'not-compared', reason: 'could not be compared: the file has too many objects' };
    }
    const objectBefore = before.object(num);
    const objectAfter = after.object(num);
    if (!objectBefore && !objectAfter) continue;
    if (objectBefore && objectAfter && sameValue(before, objectBefore.value, after, objectAfter.value))
      continue;
    changed.push({
      num,
      ...(objectBefore ? { before: objectBefore } : {}),
      ...(objectAfter ? { after: objectAfter } : {}),
    });
    if (changed.length > MAX_CHANGED_OBJECTS) {
      return {
        kind: 'not-compared',
        reason: `changed more objects than Careplane compares (over ${MAX_CHANGED_OBJECTS})`,
      };
    }
  }
  return { kind: 'compared', changed };
}

function sameEntry(a: XrefEntry | undefined, b: XrefEntry | undefined): boolean {
  if (!a || !b) return a === b;
  if (a.kind === 'offset' && b.kind === 'offset') return a.offset === b.offset && a.gen === b.gen;
  if (a.kind === 'compressed' && b.kind === 'compressed') return a.stream === b.stream && a.index === b.index;
  return a.kind === 'free' && b.kind === 'free';
}

const isObjectStream = (object: IndirectObject | undefined) =>
  object?.value instanceof PdfStream && asTypeName(object.value.dict) === 'ObjStm';

const asTypeName = (dict: PdfDict) => {
  const type = dict.get('Type');
  return type instanceof PdfName ? type.value : undefined;
};

/**
 * Whether two values are the same: references by number and generation (what they point to is compared as an
 * object of its own), strings by their bytes, streams by their dictionary (without /Length) and their encoded
 * data. Two encodings of the same content count as a change: nothing is decoded to compare.
 */
export function sameValue(
  a: PdfStructure,
  x: PdfValue | PdfStream,
  b: PdfStructure,
  y: PdfValue | PdfStream,
): boolean {
  if (x instanceof PdfStream || y instanceof PdfStream) {
    if (!(x instanceof PdfStream && y instanceof PdfStream)) return false;
    if (!sameDict(x.dict, y.dict, 'Length')) return false;
    const dataX = a.bytes.subarray(x.dataStart, x.dataEnd);
    const dataY = b.bytes.subarray(y.dataStart, y.dataEnd);
    return Buffer.compare(dataX, dataY) === 0;
  }
  return sameDirect(x, y);
}

export function sameDirect(x: PdfValue | undefined, y: PdfValue | undefined): boolean {
  if (x === y) return true;
  if (x === undefined || y === undefined || x === null || y === null) return false;
  if (typeof x !== 'object' || typeof y !== 'object') return false;
  if (x instanceof PdfName) return y instanceof PdfName && x.value === y.value;
  if (x instanceof PdfRef) return y instanceof PdfRef && x.num === y.num && x.gen === y.gen;
  if (x instanceof PdfString) return y instanceof PdfString && Buffer.compare(x.bytes, y.bytes) === 0;
  if (Array.isArray(x)) {
    return Array.isArray(y) && x.length === y.length && x.every((item, i) => sameDirect(item, y[i]));
  }
  if (x instanceof PdfDict) return y instanceof PdfDict && sameDict(x, y);
  return false;
}

function sameDict(x: PdfDict, y: PdfDict, ignore?: string): boolean {
  const keys = new Set([...x.entries.keys(), ...y.entries.keys()]);
  keys.delete(ignore ?? '');
  for (const key of keys) if (!sameDirect(x.get(key), y.get(key))) return false;
  return true;
}

/** The keys whose values differ between two dictionaries (references compared as references). */
export function changedKeys(x: PdfDict | undefined, y: PdfDict | undefined): string[] {
  const keys = new Set([...(x?.entries.keys() ?? []), ...(y?.entries.keys() ?? [])]);
  return [...keys].filter((key) => !sameDirect(x?.get(key), y?.get(key))).sort();
}
