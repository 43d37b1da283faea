import { describe, expect, it } from 'vitest';
import { createSamplePdf } from '../sample-pdf.js';
import { appendIncrementalUpdate } from './pdf-incremental-update.js';
import { asDict, PdfDict, PdfRef, PdfString, serialize } from './pdf-objects.js';
import { compareRevisions, readRevisions } from './pdf-revisions.js';
import { PdfStructure } from './pdf-structure.js';

const ascii = (text: string) => new Uint8Array(Buffer.from(text, 'latin1'));

/** The sample PDF with one update: the catalog gains /Lang and a new object 1000 + n is added. */
function withUpdate(pdf: Uint8Array, lang: string): Uint8Array {
  const structure = PdfStructure.read(pdf);
  const catalog = structure.catalog();
  return appendIncrementalUpdate(structure, [
    { ref: catalog.ref, body: serialize(catalog.dict.clone().set('Lang', PdfString.text(lang))) },
    { ref: new PdfRef(structure.size, 0), body: serialize(new PdfDict([['Note', PdfString.text(lang)]])) },
  ]).bytes;
}

describe('the sections of a file', () => {
  for (const useObjectStreams of [true, false]) {
    it(`are listed newest first with the objects each lists (${useObjectStreams ? 'streams' : 'tables'})`, async () => {
      const original = await createSamplePdf({ useObjectStreams });
      const updated = withUpdate(original, 'en-GB');
      const before = PdfStructure.read(original);
      const after = PdfStructure.read(updated);
      expect(after.sections).toHaveLength(2);
      expect(after.sections[1]!.offset).toBe(before.startxref);
      expect(after.sections[0]!.offset).toBe(after.startxref);
      const catalog = before.catalog().ref.num;
      expect(after.sections[0]!.objects).toEqual(
        expect.arrayContaining([catalog, before.size, ...(useObjectStreams ? [before.size + 1] : [])]),
      );
      expect(after.sections[0]!.streamObject).toBe(useObjectStreams ? before.size + 1 : undefined);
      expect(after.sections[0]!.end).toBeLessThan(updated.length);
    });
  }
});

describe('revisions', () => {
  it('are read from the first given end, one per update, and tell which end holds which revision', async () => {
    const original = await createSamplePdf();
    const once = withUpdate(original, 'en-GB');
    const twice = withUpdate(once, 'de-CH');
    const history = readRevisions(twice, PdfStructure.read(twice), once.length, [once.length]);
    expect(history.revisions.map((revision) => [revision.number, revision.end])).toEqual([
      [1, once.length],
      [2, twice.length],
    ]);
    expect(history.revisionAt(once.length)?.number).toBe(1);
    expect(history.revisionAt(twice.length)?.number).toBe(2);
    expect(history.revisionAt(once.length - 10)).toBeUndefined();
    expect(history.incomplete).toBeUndefined();
  });

  it('an update that only appends bytes after %%EOF is the same revision', async () => {
    const once = withUpdate(await createSamplePdf(), 'en-GB');
    const padded = Buffer.concat([once, Buffer.from('% a comment\n')]);
    const history = readRevisions(padded, PdfStructure.read(padded), once.length, [once.length]);
    expect(history.revisions).toHaveLength(1);
    expect(history.revisionAt(padded.length)?.number).toBe(1);
  });

  it('compare object by object: the changed catalog and the new object, not the containers', async () => {
    const original = await createSamplePdf();
    const updated = withUpdate(original, 'en-GB');
    const before = PdfStructure.read(original);
    const after = PdfStructure.read(updated);
    const comparison = compareRevisions(before, after);
    expect(comparison.kind).toBe('compared');
    if (comparison.kind !== 'compared') return;
    expect(comparison.changed.map((change) => change.num)).toEqual([before.catalog().ref.num, before.size]);
    const [catalog, added] = comparison.changed;
    expect(asDict(catalog!.after!.value)?.get('Lang')).toEqual(PdfString.text('en-GB'));
    expect(catalog!.before).toBeDefined();
    expect(added!.before).toBeUndefined();
  });

  it('an object rewritten with the same value is no change', async () => {
    const original = await createSamplePdf();
    const structure = PdfStructure.read(original);
    const catalog = structure.catalog();
    const rewritten = appendIncrementalUpdate(structure, [
      { ref: catalog.ref, body: serialize(catalog.dict) },
    ]).bytes;
    const comparison = compareRevisions(structure, PdfStructure.read(rewritten));
    expect(comparison).toEqual({ kind: 'compared', changed: [] });
  });

  it('an update whose sections do not continue the earlier chain is not compared', async () => {
    const original = await createSamplePdf({ useObjectStreams: false });
    const updated = withUpdate(original, 'en-GB');
    // Cut the /Prev link: the new section stands alone and redefines the file from scratch.
    const text = Buffer.from(updated).toString('latin1');
    const prev = /\/Prev (\d+)/.exec(text.slice(original.length))!;
    const cut = ascii(
      text.slice(0, original.length) +
        text.slice(original.length).replace(prev[0], '/Zzzz 0'.padEnd(prev[0].length, ' ')),
    );
    const comparison = compareRevisions(PdfStructure.read(original), PdfStructure.read(cut));
    expect(comparison).toEqual({
      kind: 'not-compared',
      reason: 'did not build on the revision before it (its cross-reference data starts over)',
    });
  });
});
