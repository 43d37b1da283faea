// What each incremental update after a signature changed, and whether a signature allows it (ISO 32000-2
// §12.8.2.2, DocMDP; PAdES). A later signer vouches only for what they signed: a change that the earlier
// signature does not allow stays a change after that signature, whatever is signed later.
//
// Allowed after a signature, by the permission level P of a certification signature (P = 2 without one):
// - at any level: validation data (a /DSS in the catalog and what it holds), the containers an update is
//   written in (cross-reference and object streams), and an object rewritten with the same value;
// - P ≥ 2: signing (a new signature field with its widget, signature dictionary and appearance; the page's
//   /Annots and the form's /Fields gaining it; the catalog gaining /AcroForm; /SigFlags), an empty signature
//   field that shows nothing on a page, signing an empty signature field, filling in existing form fields
//   that are not read-only (a field's /V or /I, its widget's /AP and /AS, and their new appearance streams),
//   the form's /NeedAppearances and /DR, and the document information's /ModDate and /Producer and the same
//   stamps in the XMP metadata (signing tools write them);
// - P = 3: also adding, changing and removing annotations other than form fields.
// Everything else is a change no signature allows: a page's content or anything it draws, an empty signature
// field that shows on a page (its appearance, which no signer vouches for, can cover what was signed), pages
// added or removed, the catalog's other entries (/OpenAction, /Names, …), other document information or
// metadata, new form fields, a signature changed or removed, and a new object that the earlier revision
// already referred to (defining it changes what that reference shows).
import {
  asArray,
  asDict,
  asInteger,
  asName,
  PdfDict,
  PdfRef,
  PdfStream,
  PdfString,
  type PdfValue,
} from './pdf/pdf-objects.js';
import { changedKeys, sameDirect, type ChangedObject } from './pdf/pdf-revisions.js';
import type { IndirectObject, PdfStructure } from './pdf/pdf-structure.js';

export type PermissionLevel = 1 | 2 | 3;
/** Without a certification signature: form filling and signing (DocMDP's default P). */
export const DEFAULT_PERMISSION: PermissionLevel = 2;

export type ChangeKind =
  /** A signature added: a new signature field with its signature, or an empty field signed. */
  | 'signature'
  /** An empty signature field added. */
  | 'signature-field'
  | 'form-fill'
  | 'form-settings'
  | 'document-dates'
  | 'annotation'
  | 'validation-data'
  /** Anything else: never allowed. */
  | 'other';

export interface Change {
  /** The revision whose update made it; null when it could not be told (see the description). */
  revision: number | null;
  kind: ChangeKind;
  /** What the update did, as the rest of a sentence: "changed the content of page 1". For the signature
   * kinds, what follows the signature's own words (" with a visible appearance on page 1", or nothing). */
  description: string;
  /** The signature field, for the signature kinds. */
  field?: string;
}

/** Whether a change of this kind is allowed after a signature under a permission level. */
export function isAllowed(kind: ChangeKind, level: PermissionLevel): boolean {
  switch (kind) {
    case 'validation-data':
      return true;
    case 'signature':
    case 'signature-field':
    case 'form-fill':
    case 'form-settings':
    case 'document-dates':
      return level >= 2;
    case 'annotation':
      return level === 3;
    case 'other':
      return false;
  }
}

export const permissionText: Record<PermissionLevel, string> = {
  1: 'no changes',
  2: 'form filling and signing',
  3: 'form filling, signing and annotations',
};

/** The DocMDP permission level a signature dictionary certifies with, or undefined when it certifies nothing. */
export function certificationLevel(structure: PdfStructure, signature: PdfDict): PermissionLevel | undefined {
  let level: PermissionLevel | undefined;
  for (const reference of (asArray(structure.resolve(signature.get('Reference'))) ?? []).slice(0, 16)) {
    const dict = asDict(structure.resolve(reference));
    if (!dict || asName(structure.resolve(dict.get('TransformMethod'))) !== 'DocMDP') continue;
    const params = asDict(structure.resolve(dict.get('TransformParams')));
    const p = params ? structure.resolve(params.get('P')) : undefined;
    // A missing P means 2; a P that is not 1, 2 or 3 is read as the strictest.
    const found: PermissionLevel = p === undefined ? 2 : p === 1 || p === 2 || p === 3 ? p : 1;
    level = level === undefined ? found : (Math.min(level, found) as PermissionLevel);
  }
  return level;
}

// ---------------------------------------------------------------------------------------------------------
// A revision's map: which object plays which part

interface FieldInfo {
  /** The fully qualified name (parents' names joined by dots). */
  name: string;
  /** /FT, inherited. */
  type: string | undefined;
  readOnly: boolean;
  /** Has /V (for a signature field: it is signed). */
  hasValue: boolean;
}

interface Reach {
  /** Objects a page draws (its content and resources, and what they use) or the document uses outside the
   * form, the annotations and the validation data, with the first page that draws them. */
  drawn: Map<number, { page: number | undefined; content: boolean }>;
  /** Numbers that reachable objects refer to but the revision does not define. */
  dangling: Set<number>;
  complete: boolean;
}

export interface DocumentMap {
  root: number | undefined;
  info: number | undefined;
  acroForm: number | undefined;
  fieldsArray: number | undefined;
  metadata: number | undefined;
  fields: Map<number, FieldInfo>;
  /** Widget annotation → its field (a field that is its own widget maps to itself). */
  widgets: Map<number, number>;
  /** Signature dictionary → its field. */
  signatureValues: Map<number, number>;
  /** Appearance stream (or appearance dictionary) → the annotation it belongs to. */
  appearances: Map<number, number>;
  /** Page objects in order (page 1 first). */
  pages: number[];
  /** Page object → its page number (1-based). */
  pageNumbers: Map<number, number>;
  pageNodes: Set<number>;
  /** Indirect /Annots arrays → their page (1-based). */
  annotsArrays: Map<number, number>;
  /** Annotations listed on pages → page and subtype. */
  annotations: Map<number, { page: number; subtype: string }>;
  validationData: Set<number>;
  /** False when the walk budget ran out before the map was complete. */
  complete: boolean;
  /** Computed on first use (only the revision before an update needs it). */
  reach(): Reach;
}

const MAX_PAGES = 100_000;
const MAX_FIELDS = 10_000;
const MAX_DEPTH = 32;
/** Objects read by all the walks of one verification (about 10 µs each: a few seconds at most). */
export const MAX_OBJECTS_WALKED = 300_000;

export interface WalkBudget {
  objects: number;
}

export function newWalkBudget(): WalkBudget {
  return { objects: MAX_OBJECTS_WALKED };
}

export function mapDocument(structure: PdfStructure, budget: WalkBudget): DocumentMap {
  const refNum = (value: PdfValue | undefined) => (value instanceof PdfRef ? value.num : undefined);
  const dictOf = (value: PdfValue | PdfStream | undefined) => {
    const resolved = structure.resolve(value);
    return resolved instanceof PdfDict ? resolved : undefined;
  };
  let catalog: PdfDict | undefined;
  try {
    catalog = structure.catalog().dict;
  } catch {
    catalog = undefined;
  }
  const acroFormValue = catalog?.get('AcroForm');
  const acroForm = dictOf(acroFormValue);
  let reached: Reach | undefined;
  const map: DocumentMap = {
    root: refNum(structure.trailer.get('Root')),
    info: refNum(structure.trailer.get('Info')),
    acroForm: refNum(acroFormValue),
    fieldsArray: refNum(acroForm?.get('Fields')),
    metadata: refNum(catalog?.get('Metadata')),
    fields: new Map(),
    widgets: new Map(),
    signatureValues: new Map(),
    appearances: new Map(),
    pages: [],
    pageNumbers: new Map(),
    pageNodes: new Set(),
    annotsArrays: new Map(),
    annotations: new Map(),
    validationData: new Set(),
    complete: true,
    reach: () => {
      reached ??= walkReach(structure, map, catalog, budget);
      return reached;
    },
  };

  // Every object these walks read counts against the verification's budget.
  const spend = () => {
    if (budget.objects-- > 0) return true;
    map.complete = false;
    return false;
  };

  const noteAppearances = (annotation: PdfDict, owner: number) => {
    const ap = annotation.get('AP');
    const apNum = refNum(ap);
    if (apNum !== undefined) map.appearances.set(apNum, owner);
    const apDict = dictOf(ap);
    for (const key of ['N', 'R', 'D']) {
      const value = apDict?.get(key);
      const num = refNum(value);
      if (num !== undefined) map.appearances.set(num, owner);
      const resolved = structure.resolve(value);
      if (resolved instanceof PdfDict) {
        for (const state of [...resolved.entries.values()].slice(0, 64)) {
          const stateNum = refNum(state);
          if (stateNum !== undefined) map.appearances.set(stateNum, owner);
        }
      }
    }
  };

  // The form's fields, with names, types and read-only flags inherited down /Kids.
  const seenFields = new Set<number>();
  const visitField = (
    value: PdfValue | undefined,
    parent: { num: number; name: string; type: string | undefined; flags: number } | undefined,
    depth: number,
  ) => {
    const num = refNum(value);
    if (num === undefined || seenFields.has(num) || depth > MAX_DEPTH || seenFields.size > MAX_FIELDS) return;
    if (!spend()) return;
    seenFields.add(num);
    const dict = dictOf(value);
    if (!dict) return;
    const title = dict.get('T');
    const own = title instanceof PdfString ? title.text() : undefined;
    const kids = (asArray(structure.resolve(dict.get('Kids'))) ?? []).slice(0, MAX_FIELDS);
    const isWidget = asName(dict.get('Subtype')) === 'Widget';
    if (own === undefined && parent && isWidget && !dict.has('FT')) {
      // A widget of its parent field.
      map.widgets.set(num, parent.num);
      noteAppearances(dict, num);
      return;
    }
    const name =
      own === undefined ? (parent?.name ?? `object ${num}`) : parent ? `${parent.name}.${own}` : own;
    const type = asName(dict.get('FT')) ?? parent?.type;
    const flags = asInteger(structure.resolve(dict.get('Ff'))) ?? parent?.flags ?? 0;
    const info: FieldInfo = {
      name,
      type,
      readOnly: (flags & 1) === 1,
      hasValue: dict.get('V') !== undefined,
    };
    map.fields.set(num, info);
    const signatureValue = refNum(dict.get('V'));
    if (type === 'Sig' && signatureValue !== undefined) map.signatureValues.set(signatureValue, num);
    if (isWidget) {
      map.widgets.set(num, num);
      noteAppearances(dict, num);
    }
    for (const kid of kids) visitField(kid, { num, name, type, flags }, depth + 1);
  };
  for (const field of (asArray(structure.resolve(acroForm?.get('Fields'))) ?? []).slice(0, MAX_FIELDS)) {
    visitField(field, undefined, 0);
  }

  // The pages in order, and the annotations on each.
  const seenNodes = new Set<number>();
  const visitPage = (value: PdfValue | undefined, depth: number) => {
    const num = refNum(value);
    if (num === undefined || seenNodes.has(num) || depth > 64 || map.pages.length >= MAX_PAGES) return;
    if (!spend()) return;
    seenNodes.add(num);
    const dict = dictOf(value);
    if (!dict) return;
    const kids = asArray(structure.resolve(dict.get('Kids')));
    if (asName(dict.get('Type')) !== 'Page' && kids) {
      map.pageNodes.add(num);
      for (const kid of kids) visitPage(kid, depth + 1);
      return;
    }
    map.pages.push(num);
    const page = map.pages.length;
    map.pageNumbers.set(num, page);
    const annots = dict.get('Annots');
    const annotsNum = refNum(annots);
    if (annotsNum !== undefined) map.annotsArrays.set(annotsNum, page);
    for (const annotation of (asArray(structure.resolve(annots)) ?? []).slice(0, MAX_FIELDS)) {
      const annotationNum = refNum(annotation);
      const annotationDict = dictOf(annotation);
      if (annotationNum === undefined || !annotationDict) continue;
      const subtype = asName(annotationDict.get('Subtype')) ?? 'unknown';
      if (!map.annotations.has(annotationNum)) map.annotations.set(annotationNum, { page, subtype });
      noteAppearances(annotationDict, annotationNum);
    }
  };
  visitPage(catalog?.get('Pages'), 0);

  // Validation data (PAdES DSS: certificates, CRLs, OCSP responses, VRI).
  const dss = catalog?.get('DSS');
  const queue: PdfValue[] = dss === undefined ? [] : [dss];
  while (queue.length > 0 && map.validationData.size < MAX_FIELDS * 10) {
    const value = queue.pop()!;
    const num = refNum(value);
    if (num !== undefined) {
      if (map.validationData.has(num)) continue;
      if (!spend()) break;
      map.validationData.add(num);
    }
    const resolved = num === undefined ? value : structure.resolve(value);
    collectValues(resolved instanceof PdfStream ? resolved.dict : resolved, queue);
  }
  return map;
}

/** The values inside a value (a dictionary's, an array's), for walks that follow references. */
function collectValues(value: PdfValue | PdfStream | undefined, into: PdfValue[], depth = 0): void {
  if (depth > 64 || value === undefined || value === null) return;
  if (value instanceof PdfStream) return collectValues(value.dict, into, depth);
  if (value instanceof PdfRef) {
    into.push(value);
    return;
  }
  if (Array.isArray(value)) {
    for (const item of value) collectValues(item, into, depth + 1);
    return;
  }
  if (value instanceof PdfDict)
    for (const item of value.entries.values()) collectValues(item, into, depth + 1);
}

const ANNOTATION_KEYS = ['Rect', 'Subtype'];

/**
 * Two walks over everything reachable: first what the pages draw and the document uses outside the form, the
 * annotations and the validation data (changing any of that is never allowed; annotations are not entered, as
 * the structure tree of a tagged PDF refers to them), then the rest (the form, the annotations, the document
 * information), both noting references to numbers the revision does not define.
 */
function walkReach(
  structure: PdfStructure,
  map: DocumentMap,
  catalog: PdfDict | undefined,
  budget: WalkBudget,
): Reach {
  const reach: Reach = { drawn: new Map(), dangling: new Set(), complete: true };
  const visited = new Set<number>();
  const walk = (
    start: PdfValue[],
    drawn: { page: number | undefined; content: boolean } | undefined,
    enterAnnotations: boolean,
  ) => {
    const queue = [...start];
    while (queue.length > 0) {
      const value = queue.pop()!;
      if (!(value instanceof PdfRef)) {
        collectValues(value, queue);
        continue;
      }
      if (visited.has(value.num)) continue;
      if (map.pageNumbers.has(value.num) || map.pageNodes.has(value.num)) {
        // Walked page by page below; only the last walk goes on to their annotations.
        if (enterAnnotations) {
          visited.add(value.num);
          const dict = asDict(structure.object(value.num)?.value);
          for (const key of ['Annots', 'Kids']) {
            const inner = dict?.get(key);
            if (inner !== undefined) queue.push(inner);
          }
        }
        continue;
      }
      if (budget.objects-- <= 0) {
        reach.complete = false;
        return;
      }
      const object: IndirectObject | undefined = structure.object(value.num);
      if (!object) {
        reach.dangling.add(value.num);
        continue;
      }
      const dict = asDict(object.value);
      const isAnnotation = dict !== undefined && ANNOTATION_KEYS.every((key) => dict.has(key));
      if (isAnnotation && !enterAnnotations) continue;
      visited.add(value.num);
      if (drawn) reach.drawn.set(value.num, drawn);
      collectValues(object.value, queue);
    }
  };

  // Each page's content and resources (and what it inherits), page by page.
  map.pages.forEach((pageNum, i) => {
    const page = asDict(structure.object(pageNum)?.value);
    if (!page) return;
    const contents = page.get('Contents');
    const contentRefs = [contents, ...(asArray(structure.resolve(contents)) ?? [])];
    walk(
      contentRefs.filter((value): value is PdfRef => value instanceof PdfRef),
      { page: i + 1, content: true },
      false,
    );
    const rest = [...page.entries].filter(
      ([key]) => key !== 'Annots' && key !== 'Contents' && key !== 'Parent',
    );
    walk(
      rest.map(([, value]) => value),
      { page: i + 1, content: false },
      false,
    );
  });
  for (const node of map.pageNodes) {
    const dict = asDict(structure.object(node)?.value);
    if (!dict) continue;
    const inherited = [...dict.entries].filter(([key]) => key !== 'Kids' && key !== 'Parent');
    walk(
      inherited.map(([, value]) => value),
      { page: undefined, content: false },
      false,
    );
  }
  // The rest of the catalog, but the form and the validation data.
  if (catalog) {
    const rest = [...catalog.entries].filter(
      ([key]) => key !== 'AcroForm' && key !== 'DSS' && key !== 'Pages' && key !== 'Perms',
    );
    walk(
      rest.map(([, value]) => value),
      { page: undefined, content: false },
      false,
    );
  }
  // Then everything else: only for references to nothing.
  const roots = [structure.trailer.get('Root'), structure.trailer.get('Info')].filter(
    (value): value is PdfValue => value !== undefined,
  );
  walk(roots, undefined, true);
  return reach;
}

// ---------------------------------------------------------------------------------------------------------
// Classifying one update

export interface UpdateInput {
  revision: number;
  before: PdfStructure;
  after: PdfStructure;
  mapBefore: DocumentMap;
  mapAfter: DocumentMap;
  changed: ChangedObject[];
}

/** The changes one update made, each once, in plain words. */
export function classifyUpdate(input: UpdateInput): Change[] {
  const { revision, before, after, mapBefore: a, mapAfter: b } = input;
  const out = new Map<string, Change>();
  const add = (kind: ChangeKind, description: string, field?: string) => {
    const key = `${kind}|${description}|${field ?? ''}`;
    if (!out.has(key)) out.set(key, { revision, kind, description, ...(field ? { field } : {}) });
  };
  const notAllowed = (description: string) => add('other', description);
  const reach = a.reach();
  if (!reach.complete || !a.complete || !b.complete) {
    notAllowed('could not be compared: the file has too many objects');
    return [...out.values()];
  }
  const fieldName = (num: number) => b.fields.get(num)?.name ?? a.fields.get(num)?.name ?? `object ${num}`;
  const newlySigned = (field: number) =>
    b.fields.get(field)?.hasValue === true && a.fields.get(field)?.hasValue !== true;
  // A signature's widget may show an appearance on a page: allowed, but worth saying; its signer vouches for
  // it. An empty field's appearance nobody vouches for: drawn over the page, it can cover or replace what was
  // signed ("sneaky signature"), so a visible empty field is a change no signature allows.
  const signatureAdded = (field: number) => {
    const shownOn = [...b.widgets]
      .filter(([, owner]) => owner === field)
      .map(([widget]) => visibleOn(widget))
      .find((page) => page !== undefined);
    const signed = b.fields.get(field)?.hasValue === true;
    if (!signed && shownOn !== undefined) {
      notAllowed(
        `added an empty signature field "${fieldName(field)}" with a visible appearance on page ${shownOn}, ` +
          'which can draw over what was signed',
      );
      return;
    }
    add(
      signed ? 'signature' : 'signature-field',
      shownOn === undefined ? '' : ` with a visible appearance on page ${shownOn}`,
      fieldName(field),
    );
  };
  const visibleOn = (widget: number): number | undefined => {
    const dict = asDict(after.object(widget)?.value);
    const rect = (asArray(dict?.get('Rect')) ?? []).map((n) => (typeof n === 'number' ? n : 0));
    const flags = asInteger(dict?.get('F')) ?? 0;
    const hidden = (flags & (2 | 32)) !== 0; // Hidden, NoView
    if (hidden || rect.length !== 4 || rect[0] === rect[2] || rect[1] === rect[3]) return undefined;
    return b.annotations.get(widget)?.page;
  };

  // The trailer: the catalog, the encryption and the document information it names.
  if (!sameDirect(before.trailer.get('Root'), after.trailer.get('Root'))) {
    notAllowed('replaced the document catalog');
  }
  if (!sameDirect(before.trailer.get('Encrypt'), after.trailer.get('Encrypt'))) {
    notAllowed('changed the encryption of the file');
  }
  const infoBefore = before.trailer.get('Info');
  const infoAfter = after.trailer.get('Info');
  if (!sameDirect(infoBefore, infoAfter)) {
    diffInfo(asDict(before.resolve(infoBefore)), asDict(after.resolve(infoAfter)));
  }

  // Pages added, removed or reordered.
  const pagesAdded = b.pages.filter((num) => !a.pageNumbers.has(num)).length;
  const pagesRemoved = a.pages.filter((num) => !b.pageNumbers.has(num)).length;
  const pageCount = (n: number) => (n === 1 ? '1 page' : `${n} pages`);
  if (pagesAdded > 0) {
    notAllowed(
      `added ${pagesAdded === 1 ? 'a page' : `${pagesAdded} pages`} (${pageCount(b.pages.length)} now, ${a.pages.length} before)`,
    );
  }
  if (pagesRemoved > 0) {
    notAllowed(
      `removed ${pagesRemoved === 1 ? 'a page' : `${pagesRemoved} pages`} (${pageCount(b.pages.length)} now, ${a.pages.length} before)`,
    );
  }
  const samePages = a.pages.length === b.pages.length && a.pages.every((num, i) => b.pages[i] === num);
  if (!samePages && pagesAdded === 0 && pagesRemoved === 0) notAllowed('reordered the pages');

  for (const change of input.changed) classify(change);
  return [...out.values()];

  function classify(change: ChangedObject): void {
    const num = change.num;
    const old = change.before;
    const now = change.after;
    const dictBefore = asDict(old?.value);
    const dictAfter = asDict(now?.value);
    if (!old && reach.dangling.has(num)) {
      notAllowed(`added object ${num}, to which the earlier revision already referred`);
      return;
    }
    if (num === a.root || num === b.root) return diffCatalog(dictBefore, dictAfter);
    if (num === a.info || num === b.info) return diffInfo(dictBefore, dictAfter);
    if (num === a.metadata || num === b.metadata) return diffMetadata();
    const pageBefore = a.pageNumbers.get(num);
    const pageAfter = b.pageNumbers.get(num);
    if (pageBefore !== undefined || pageAfter !== undefined) {
      // A page added or removed is told above; a page kept may gain annotations.
      if (pageBefore !== undefined && pageAfter !== undefined) diffPage(dictBefore, dictAfter, pageAfter);
      return;
    }
    if (a.pageNodes.has(num) || b.pageNodes.has(num)) {
      if (samePages) notAllowed('changed the page tree');
      return;
    }
    const drawn = reach.drawn.get(num);
    if (drawn && old) {
      return notAllowed(
        drawn.content && drawn.page !== undefined
          ? `changed the content of page ${drawn.page}`
          : drawn.page !== undefined
            ? `changed ${describe(old)} that page ${drawn.page} uses`
            : `changed ${describe(old)} (object ${num})`,
      );
    }
    if (num === a.acroForm || num === b.acroForm) return diffForm(dictBefore, dictAfter);
    if (num === a.fieldsArray || num === b.fieldsArray) {
      return diffFieldList(asArray(old?.value), asArray(now?.value));
    }
    const signatureField = b.signatureValues.get(num) ?? a.signatureValues.get(num);
    if (signatureField !== undefined) {
      if (!old && newlySigned(signatureField)) return signatureAdded(signatureField);
      return notAllowed(`changed the signature in field "${fieldName(signatureField)}"`);
    }
    if (a.fields.has(num) || b.fields.has(num) || a.widgets.has(num) || b.widgets.has(num)) {
      return diffField(num, dictBefore, dictAfter, !old, !now);
    }
    const annotsPage = b.annotsArrays.get(num) ?? a.annotsArrays.get(num);
    if (annotsPage !== undefined) {
      return diffAnnotations(asArray(old?.value), asArray(now?.value), annotsPage);
    }
    const owner = b.appearances.get(num) ?? a.appearances.get(num);
    if (owner !== undefined) return appearanceChanged(owner, num);
    const annotation = b.annotations.get(num) ?? a.annotations.get(num);
    if (annotation) {
      return annotationChanged(annotation, !old ? 'added' : !now ? 'removed' : 'changed');
    }
    if (b.validationData.has(num) || a.validationData.has(num)) {
      return add('validation-data', 'added validation data for the signatures (DSS)');
    }
    // A new object nothing old refers to is part of whatever new or changed object refers to it.
    if (!old) return;
    notAllowed(now ? `changed ${describe(old)} (object ${num})` : `removed ${describe(old)} (object ${num})`);
  }

  function diffCatalog(x: PdfDict | undefined, y: PdfDict | undefined): void {
    const others: string[] = [];
    for (const key of changedKeys(x, y)) {
      switch (key) {
        case 'AcroForm':
          diffForm(asDict(before.resolve(x?.get(key))), asDict(after.resolve(y?.get(key))));
          break;
        case 'DSS':
          add('validation-data', 'added validation data for the signatures (DSS)');
          break;
        case 'Version':
        case 'Extensions':
          // A writer declares the version and the extensions (PAdES, ISO 32000-2) it used.
          break;
        case 'Pages':
          notAllowed('replaced the page tree');
          break;
        case 'Metadata':
          diffMetadata();
          break;
        default:
          others.push(key);
      }
    }
    if (others.length > 0) notAllowed(`changed the document catalog (${keyList(others)})`);
  }

  function diffInfo(x: PdfDict | undefined, y: PdfDict | undefined): void {
    const keys = changedKeys(x, y);
    const others = keys.filter((key) => key !== 'ModDate' && key !== 'Producer');
    if (others.length > 0) notAllowed(`changed the document information (${keyList(others)})`);
    else if (keys.length > 0) {
      add('document-dates', 'updated the modification date or producer in the document information');
    }
  }

  function diffMetadata(): void {
    const old = a.metadata === undefined ? undefined : before.object(a.metadata)?.value;
    const now = b.metadata === undefined ? undefined : after.object(b.metadata)?.value;
    const textOf = (structure: PdfStructure, stream: PdfValue | PdfStream | undefined) => {
      if (!(stream instanceof PdfStream) || stream.dataEnd - stream.dataStart > MAX_METADATA_BYTES)
        return undefined;
      try {
        const data = structure.streamData(stream);
        return data.length > MAX_METADATA_BYTES
          ? undefined
          : withoutStamps(Buffer.from(data).toString('utf8'));
      } catch {
        return undefined;
      }
    };
    const textBefore = textOf(before, old);
    const textAfter = textOf(after, now);
    if (textBefore !== undefined && textBefore === textAfter) {
      add('document-dates', 'updated the modification date or producer in the document information');
    } else {
      notAllowed('changed the document metadata (XMP)');
    }
  }

  function diffForm(x: PdfDict | undefined, y: PdfDict | undefined): void {
    const others: string[] = [];
    for (const key of changedKeys(x, y)) {
      if (key === 'Fields') {
        diffFieldList(asArray(before.resolve(x?.get(key))), asArray(after.resolve(y?.get(key))));
      } else if (key === 'NeedAppearances' || key === 'DR') {
        add('form-settings', "updated the form's appearance settings");
      } else if (key !== 'SigFlags') {
        others.push(key);
      }
    }
    if (others.length > 0) notAllowed(`changed the form (${keyList(others)})`);
  }

  function diffFieldList(x: PdfValue[] | undefined, y: PdfValue[] | undefined): void {
    const listBefore = x ?? [];
    const listAfter = y ?? [];
    const direct = (list: PdfValue[]) => list.filter((item) => !(item instanceof PdfRef));
    if (!sameDirect(direct(listBefore), direct(listAfter))) notAllowed("changed the form's fields");
    const numsBefore = new Set(refNums(listBefore));
    const numsAfter = new Set(refNums(listAfter));
    for (const num of numsBefore) {
      if (numsAfter.has(num)) continue;
      const signature = a.fields.get(num)?.type === 'Sig';
      notAllowed(`removed ${signature ? 'signature' : 'form'} field "${fieldName(num)}"`);
    }
    for (const num of numsAfter) {
      if (numsBefore.has(num)) continue;
      const info = b.fields.get(num);
      if (info?.type === 'Sig' && !a.fields.has(num)) signatureAdded(num);
      else notAllowed(`added form field "${fieldName(num)}"`);
    }
  }

  function diffField(
    num: number,
    x: PdfDict | undefined,
    y: PdfDict | undefined,
    added: boolean,
    removed: boolean,
  ): void {
    const field = b.widgets.get(num) ?? a.widgets.get(num) ?? num;
    const info = b.fields.get(field) ?? a.fields.get(field);
    const name = fieldName(field);
    const signature = info?.type === 'Sig';
    const what = signature ? 'signature field' : 'form field';
    if (removed) return notAllowed(`removed ${what} "${name}"`);
    if (added) {
      if (signature && !a.fields.has(field)) return signatureAdded(field);
      return notAllowed(
        a.fields.has(field) ? `added a widget to ${what} "${name}"` : `added ${what} "${name}"`,
      );
    }
    const isField = a.fields.has(num) || b.fields.has(num);
    const isWidget = a.widgets.has(num) || b.widgets.has(num);
    const fillKeys = new Set([...(isField ? ['V', 'I'] : []), ...(isWidget ? ['AP', 'AS'] : [])]);
    const others = changedKeys(x, y).filter((key) => !fillKeys.has(key));
    if (others.length > 0) return notAllowed(`changed ${what} "${name}" (${keyList(others)})`);
    if (signature) {
      if (newlySigned(field)) return signatureAdded(field);
      return notAllowed(`changed the signature in field "${name}"`);
    }
    if (a.fields.get(field)?.readOnly) return notAllowed(`changed read-only form field "${name}"`);
    add('form-fill', `filled in form field "${name}"`);
  }

  function appearanceChanged(owner: number, num: number): void {
    const field = b.widgets.get(owner) ?? a.widgets.get(owner);
    if (field !== undefined) {
      const info = b.fields.get(field) ?? a.fields.get(field);
      const name = fieldName(field);
      if (info?.type === 'Sig') {
        if (newlySigned(field) || !a.fields.has(field)) return signatureAdded(field);
        return notAllowed(`changed the appearance of signature field "${name}"`);
      }
      if (!a.fields.has(field)) return notAllowed(`added form field "${name}"`);
      if (a.fields.get(field)?.readOnly) return notAllowed(`changed read-only form field "${name}"`);
      return add('form-fill', `filled in form field "${name}"`);
    }
    const annotation = b.annotations.get(owner) ?? a.annotations.get(owner);
    if (annotation) return annotationChanged(annotation, a.annotations.has(owner) ? 'changed' : 'added');
    notAllowed(`changed an appearance (object ${num})`);
  }

  function annotationChanged(
    annotation: { page: number; subtype: string },
    verb: 'added' | 'changed' | 'removed',
  ): void {
    if (annotation.subtype === 'Widget') {
      return notAllowed(`${verb} a form field's widget on page ${annotation.page}`);
    }
    add('annotation', `${verb} an annotation (${annotation.subtype}) on page ${annotation.page}`);
  }

  function diffPage(x: PdfDict | undefined, y: PdfDict | undefined, page: number): void {
    const others: string[] = [];
    for (const key of changedKeys(x, y)) {
      if (key === 'Annots') {
        diffAnnotations(asArray(before.resolve(x?.get(key))), asArray(after.resolve(y?.get(key))), page);
      } else if (key === 'Contents') {
        notAllowed(`changed the content of page ${page}`);
      } else if (key === 'Resources') {
        notAllowed(`changed the resources (fonts, images) of page ${page}`);
      } else {
        others.push(key);
      }
    }
    if (others.length > 0) notAllowed(`changed page ${page} (${keyList(others)})`);
  }

  function diffAnnotations(x: PdfValue[] | undefined, y: PdfValue[] | undefined, page: number): void {
    const numsBefore = new Set(refNums(x ?? []));
    const numsAfter = new Set(refNums(y ?? []));
    for (const num of numsAfter) {
      if (numsBefore.has(num)) continue;
      const field = b.widgets.get(num);
      if (field !== undefined) {
        const info = b.fields.get(field);
        if (info?.type === 'Sig' && (!a.fields.has(field) || newlySigned(field))) signatureAdded(field);
        else
          notAllowed(
            `added ${info?.type === 'Sig' ? 'signature' : 'form'} field "${fieldName(field)}" to page ${page}`,
          );
        continue;
      }
      annotationChanged(b.annotations.get(num) ?? { page, subtype: 'unknown' }, 'added');
    }
    for (const num of numsBefore) {
      if (numsAfter.has(num)) continue;
      const field = a.widgets.get(num);
      if (field !== undefined) {
        notAllowed(
          `removed ${a.fields.get(field)?.type === 'Sig' ? 'signature' : 'form'} field "${fieldName(field)}" from page ${page}`,
        );
        continue;
      }
      annotationChanged(a.annotations.get(num) ?? { page, subtype: 'unknown' }, 'removed');
    }
    const direct = (list: PdfValue[] | undefined) => (list ?? []).filter((item) => !(item instanceof PdfRef));
    if (!sameDirect(direct(x), direct(y))) add('annotation', `changed the annotations on page ${page}`);
  }
}

/** XMP packets are small; a larger one is compared as changed. */
const MAX_METADATA_BYTES = 1024 * 1024;
const XMP_STAMPS = 'xmp:ModifyDate|xmp:MetadataDate|pdf:Producer|xmpMM:InstanceID';

/** XMP without what a tool stamps when it saves (dates, producer, instance, history) and without padding. */
function withoutStamps(xmp: string): string {
  // The history is cut by hand: a lazy pattern over unclosed tags would cost the square of the length.
  let text = '';
  let from = 0;
  for (;;) {
    const open = xmp.indexOf('<xmpMM:History>', from);
    const close = open < 0 ? -1 : xmp.indexOf('</xmpMM:History>', open);
    if (close < 0) break;
    text += xmp.slice(from, open);
    from = close + '</xmpMM:History>'.length;
  }
  text += xmp.slice(from);
  return text
    .replace(new RegExp(`<(${XMP_STAMPS})>[^<]*</\\1>`, 'g'), '')
    .replace(new RegExp(`\\s(${XMP_STAMPS})\\s*=\\s*("[^"]*"|'[^']*')`, 'g'), '')
    .replace(/\s+/g, ' ')
    .replace(/> </g, '><')
    .trim();
}

const refNums = (list: PdfValue[]) =>
  list.filter((item): item is PdfRef => item instanceof PdfRef).map((item) => item.num);

function keyList(keys: string[]): string {
  const shown = keys.slice(0, 4).map((key) => `/${key}`);
  return keys.length > 4 ? `${shown.join(', ')} and ${keys.length - 4} more` : shown.join(', ');
}

/** What an object is, in a few words ("a font", "an image"). */
function describe(object: IndirectObject): string {
  const value = object.value;
  if (value instanceof PdfStream) {
    const subtype = asName(value.dict.get('Subtype'));
    const type = asName(value.dict.get('Type'));
    if (subtype === 'Image') return 'an image';
    if (subtype === 'Form') return 'a drawing (form XObject)';
    if (type === 'Metadata') return 'metadata';
    if (type === 'EmbeddedFile') return 'an embedded file';
    return 'a stream';
  }
  if (value instanceof PdfDict) {
    const type = asName(value.get('Type'));
    if (type === 'Font' || value.has('BaseFont')) return 'a font';
    if (type === 'Annot') return 'an annotation';
    if (type === 'ExtGState') return 'a graphics state';
    if (type === 'Action' || value.has('S')) return 'an action';
    if (type === 'OCG' || type === 'OCMD') return 'an optional content group';
    return 'a dictionary';
  }
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'number') return 'a number';
  if (value instanceof PdfString) return 'a text';
  return 'a value';
}
