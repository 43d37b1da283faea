import { PDFDocument, PDFName } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { createSamplePdf } from '../sample-pdf.js';
import { appendIncrementalUpdate } from './pdf-incremental-update.js';
import {
  asArray,
  asDict,
  asName,
  PdfDict,
  PdfLexer,
  PdfName,
  PdfRef,
  PdfString,
  PdfSyntaxError,
  serialize,
} from './pdf-objects.js';
import { PdfStructure, PdfStructureError } from './pdf-structure.js';

const ascii = (text: string) => new Uint8Array(Buffer.from(text, 'latin1'));
const parse = (text: string) => new PdfLexer(ascii(text)).value();

/** A small PDF with a classic table, written by hand so that every offset is known. */
function handmadePdf(extraCatalog = '', pageExtra = ''): Uint8Array {
  const objects = [
    `<</Type /Catalog /Pages 2 0 R${extraCatalog}>>`,
    '<</Type /Pages /Kids [3 0 R] /Count 1>>',
    `<</Type /Page /Parent 2 0 R /MediaBox [0 0 200 200]${pageExtra}>>`,
    '[]',
  ];
  let text = '%PDF-1.4\n%\xe2\xe3\xcf\xd3\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(text.length);
    text += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = text.length;
  text += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) text += `${String(offset).padStart(10, '0')} 00000 n \n`;
  text += `trailer\n<</Size ${objects.length + 1} /Root 1 0 R>>\nstartxref\n${xref}\n%%EOF\n`;
  return ascii(text);
}

describe('PDF objects', () => {
  it('parse names, numbers, references, strings, arrays and dictionaries', () => {
    const value = parse(
      '<</Type /Sig#20Name /N -12.5 /R 12 0 R /A [1 2 R 3 (x) true null] /S (a\\(b\\)\\n\\101\\\r\nc) /H <48 65 6C6c6>>>',
    ) as PdfDict;
    expect(asName(value.get('Type'))).toBe('Sig Name');
    expect(value.get('N')).toBe(-12.5);
    expect(value.get('R')).toEqual(new PdfRef(12, 0));
    expect(asArray(value.get('A'))).toEqual([new PdfRef(1, 2), 3, new PdfString(ascii('x')), true, null]);
    expect((value.get('S') as PdfString).text()).toBe('a(b)\nAc');
    expect((value.get('H') as PdfString).text()).toBe('Hell`');
  });

  it('read literal strings with escapes and nested parentheses, and hex strings with odd digits', () => {
    expect((parse('(a(b)c\\)\\\\\\n\\053)') as PdfString).text()).toBe('a(b)c)\\\n+');
    expect(Buffer.from((parse('<48 65 6C6c 6>') as PdfString).bytes).toString('latin1')).toBe('Hell`');
    expect((parse('<FEFF00410308>') as PdfString).text()).toBe('A\u0308');
  });

  it('refuse what is not PDF syntax, and nesting deeper than any real file', () => {
    expect(() => parse('<</A>>')).toThrow(PdfSyntaxError);
    expect(() => parse('(unterminated')).toThrow(PdfSyntaxError);
    expect(() => parse('endobj')).toThrow(PdfSyntaxError);
    expect(() => parse('['.repeat(100_000))).toThrow(/nested too deeply/);
  });

  it('write what they read', () => {
    const dict = new PdfDict([
      ['Type', new PdfName('Annot')],
      ['T', PdfString.text('Signature (1)')],
      ['U', PdfString.text('Zoë Ørsted')],
      ['Rect', [0, 0, 0.5, 1e-7, 1e22]],
      ['P', new PdfRef(3, 0)],
      ['Odd name', new PdfName('a/b#c')],
    ]);
    const text = serialize(dict);
    expect(text).toMatch(/^[\x20-\x7e]*$/);
    expect(text).toContain('/Rect [0 0 0.5 0.0000001 10000000000000000000000]');
    const back = parse(text) as PdfDict;
    expect((back.get('T') as PdfString).text()).toBe('Signature (1)');
    expect((back.get('U') as PdfString).text()).toBe('Zoë Ørsted');
    expect(asName(back.get('Odd name'))).toBe('a/b#c');
    expect(back.get('P')).toEqual(new PdfRef(3, 0));
  });
});

describe('PDF structure', () => {
  it('reads a cross-reference stream with object streams (pdf-lib default)', async () => {
    const structure = PdfStructure.read(await createSamplePdf());
    expect(structure.lastXrefKind).toBe('stream');
    const { dict } = structure.catalog();
    expect(asName(dict.get('Type'))).toBe('Catalog');
    const pages = asDict(structure.resolve(dict.get('Pages')))!;
    expect(asArray(pages.get('Kids'))).toHaveLength(1);
    expect(structure.entry((dict.get('Pages') as PdfRef).num)?.kind).toBe('compressed');
  });

  it('reads a classic cross-reference table', async () => {
    const structure = PdfStructure.read(await createSamplePdf({ useObjectStreams: false }));
    expect(structure.lastXrefKind).toBe('table');
    expect(asName(structure.catalog().dict.get('Type'))).toBe('Catalog');
    expect(structure.size).toBeGreaterThan(4);
  });

  it('refuses files that are not PDFs or whose structure is broken, with a PdfStructureError', () => {
    const broken = [
      ascii('hello'),
      ascii('%PDF-1.7\nno trailer at all'),
      ascii('%PDF-1.7\nstartxref\n999999\n%%EOF'),
      ascii('%PDF-1.7\nxref\n0 1\nzzzz\ntrailer <<>>\nstartxref\n9\n%%EOF'),
      new Uint8Array(0),
    ];
    for (const bytes of broken) expect(() => PdfStructure.read(bytes)).toThrow(PdfStructureError);
  });

  it('says a catalog nested deeper than it reads is too deep, not missing', () => {
    const deep = handmadePdf(` /AcroForm <</Fields ${'['.repeat(100)}${']'.repeat(100)}>>`);
    expect(() => PdfStructure.read(deep).catalog()).toThrow(
      'The document catalog nests too deeply to be read',
    );
    const shallow = handmadePdf(` /AcroForm <</Fields ${'['.repeat(20)}${']'.repeat(20)}>>`);
    expect(asName(PdfStructure.read(shallow).catalog().dict.get('Type'))).toBe('Catalog');
  });

  it('ends a /Prev loop instead of following it for ever', () => {
    const pdf = Buffer.from(handmadePdf()).toString('latin1');
    const xref = Number(/startxref\n(\d+)/.exec(pdf)![1]);
    const looped = ascii(pdf.replace('/Root 1 0 R>>', `/Root 1 0 R /Prev ${xref}>>`));
    expect(asName(PdfStructure.read(looped).catalog().dict.get('Type'))).toBe('Catalog');
  });
});

describe('incremental updates', () => {
  for (const useObjectStreams of [true, false]) {
    it(`keep the original bytes and continue its ${useObjectStreams ? 'cross-reference stream' : 'table'}`, async () => {
      const original = await createSamplePdf({ useObjectStreams });
      const structure = PdfStructure.read(original);
      const catalog = structure.catalog();
      const changed = catalog.dict.clone().set('Lang', PdfString.text('en-GB'));
      const added = new PdfRef(structure.size, 0);
      const update = appendIncrementalUpdate(structure, [
        { ref: catalog.ref, body: serialize(changed) },
        { ref: added, body: serialize(new PdfDict([['Note', PdfString.text('added')]])) },
      ]);
      expect(Buffer.compare(update.bytes.subarray(0, original.length), original)).toBe(0);

      const reread = PdfStructure.read(update.bytes);
      expect(reread.lastXrefKind).toBe(structure.lastXrefKind);
      expect((reread.catalog().dict.get('Lang') as PdfString).text()).toBe('en-GB');
      expect(asDict(reread.resolve(added))?.get('Note')).toEqual(PdfString.text('added'));
      // Objects of the original revision are still found through /Prev.
      expect(asArray(asDict(reread.resolve(reread.catalog().dict.get('Pages')))?.get('Kids'))).toHaveLength(
        1,
      );
      expect(reread.trailer.get('Prev')).toBe(structure.startxref);

      // Another reader agrees.
      const loaded = await PDFDocument.load(update.bytes);
      expect(loaded.getPageCount()).toBe(1);
      expect(loaded.catalog.get(PDFName.of('Lang'))?.toString()).toBe('(en-GB)');
    });
  }

  it('append a line end when the file has none, before the first new object', () => {
    const original = handmadePdf().subarray(0, -1); // without the last "\n"
    const structure = PdfStructure.read(original);
    const update = appendIncrementalUpdate(structure, [{ ref: new PdfRef(4, 0), body: '[1 2 3]' }]);
    expect(Buffer.from(update.bytes.subarray(original.length, original.length + 8)).toString('latin1')).toBe(
      '\n4 0 obj',
    );
    expect(asArray(PdfStructure.read(update.bytes).resolve(new PdfRef(4, 0)))).toEqual([1, 2, 3]);
  });

  it('write table entries of exactly 20 bytes', () => {
    const structure = PdfStructure.read(handmadePdf());
    const update = appendIncrementalUpdate(structure, [
      { ref: new PdfRef(4, 0), body: '[1]' },
      { ref: new PdfRef(7, 0), body: '[2]' },
    ]);
    const tail = Buffer.from(update.bytes.subarray(update.updateStart)).toString('latin1');
    const entries = tail.match(/^\d{10} \d{5} [nf]\r\n/gm)!;
    expect(entries).toHaveLength(3);
    expect(tail).toMatch(/xref\n0 1\n0000000000 65535 f\r\n4 1\n\d{10} 00000 n\r\n7 1\n/);
    expect(tail).toMatch(/trailer\n<<\/Size 8 \/Root 1 0 R \/Prev \d+>>\nstartxref\n\d+\n%%EOF\n$/);
  });
});
