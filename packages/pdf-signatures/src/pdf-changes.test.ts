// What changed after each signature, and whether it allows it (DocMDP): files signed by the platform's own
// incremental writer, with updates written between and after the signatures.
import 'reflect-metadata';
import { beforeAll, describe, expect, it } from 'vitest';
import type { CertificateAuthority } from './certificate-authority.js';
import { ANN, BOB, pdfsig, signPdf, testAuthority, testSigner, type TestSigner } from './test-helpers.js';
import {
  addEmptySignatureField,
  addNote,
  addPage,
  appendUpdate,
  createFormPdf,
  fillTextField,
  replacePageContent,
  signWithDocMdp,
  streamBody,
} from './pdf-changes.test-helpers.js';
import { asArray, asDict, PdfDict, PdfName, PdfRef, PdfString, serialize } from './pdf/pdf-objects.js';
import { classifyUpdate, mapDocument } from './pdf-changes.js';
import { compareRevisions } from './pdf/pdf-revisions.js';
import { PdfStructure } from './pdf/pdf-structure.js';
import { verifyPdf, type VerificationReport } from './pdf-verification.js';
import { createSamplePdf } from './sample-pdf.js';

let ca: CertificateAuthority;
let ann: TestSigner;
let bob: TestSigner;
let sample: Uint8Array;
let signedByAnn: Uint8Array;
let form: Uint8Array;
let formSignedByAnn: Uint8Array;

const ANN_TIME = new Date('2026-11-23T14:02:00Z');
const BOB_TIME = new Date('2026-11-24T08:30:00Z');
const ISSUED_AT = new Date('2026-11-20T00:00:00Z');
const ANN_WHO = 'Ann Lee (ann@careplane.local)';
const BOB_WHO = 'Bob Okafor (bob@careplane.local)';

beforeAll(async () => {
  ca = await testAuthority(undefined, ISSUED_AT);
  ann = await testSigner(ca, ANN, ISSUED_AT);
  bob = await testSigner(ca, BOB, ISSUED_AT);
  sample = await createSamplePdf();
  signedByAnn = await signPdf(sample, ann, ca, { signingTime: ANN_TIME });
  form = await createFormPdf();
  formSignedByAnn = await signPdf(form, ann, ca, { signingTime: ANN_TIME });
});

const verify = (bytes: Uint8Array) => verifyPdf(bytes, { caCertificate: ca.certificatePem });
const bobSigns = (bytes: Uint8Array) => signPdf(bytes, bob, ca, { signingTime: BOB_TIME });
const changesOf = (report: VerificationReport, index: number) =>
  report.signatures[index - 1]!.changesAfter.map(({ revision, kind, description, allowed }) => ({
    revision,
    kind,
    description,
    allowed,
  }));

describe('a file signed twice by the platform', () => {
  for (const useObjectStreams of [true, false]) {
    it(`is authentic; each signature says what it covers (${useObjectStreams ? 'cross-reference streams' : 'tables'})`, async () => {
      const once = await signPdf(await createSamplePdf({ useObjectStreams }), ann, ca, {
        signingTime: ANN_TIME,
      });
      const report = await verify(await bobSigns(once));
      expect(report.verdict).toEqual({
        status: 'authentic',
        summary: `Authentic and untampered: signed by ${ANN_WHO} on 23.11.2026 14:02 UTC, then by ${BOB_WHO} on 24.11.2026 08:30 UTC.`,
        changedAfter: null,
      });
      expect(report.signatures.map((signature) => signature.problems)).toEqual([[], []]);
      expect(report.signatures.map((signature) => signature.covers)).toEqual([
        { revision: 1, revisions: 2, bytes: once.length },
        { revision: 2, revisions: 2, bytes: expect.any(Number) },
      ]);
      expect(changesOf(report, 1)).toEqual([
        { revision: 2, kind: 'signature', description: 'added signature 2 (Bob Okafor)', allowed: true },
      ]);
      expect(changesOf(report, 2)).toEqual([]);
      expect(report.signatures.map((signature) => signature.changedAfterSigning)).toEqual([false, false]);
      expect(report.allowedChanges).toEqual({
        level: 2,
        certifiedBy: null,
        description: 'form filling and signing (no certification signature: the default)',
      });
    });
  }
});

describe('a change after a signature that it does not allow', () => {
  it('does not let a later signature seem to vouch for a change that came after it too', async () => {
    const changed = replacePageContent(await bobSigns(signedByAnn), 'Pay 1000 EUR to the bearer');
    const report = await verify(changed);
    expect(report.signatures.map((signature) => signature.changedAfterSigning)).toEqual([true, true]);
    expect(report.verdict.status).toBe('modified-after-signing');
    expect(report.verdict.summary).toBe(
      `Changed after ${ANN_WHO} signed: revision 3 of 3 changed the content of page 1. ` +
        'The change also came after the later signature.',
    );
    expect(report.verdict.summary).not.toMatch(/vouch/);
  });

  it('is not made good by a valid later signature: the verdict names the first signer and the revision', async () => {
    const changed = await bobSigns(replacePageContent(signedByAnn, 'Pay 1000 EUR to the bearer'));
    const report = await verify(changed);
    expect(report.verdict).toEqual({
      status: 'modified-after-signing',
      summary:
        `Changed after ${ANN_WHO} signed: revision 2 of 3 changed the content of page 1. ` +
        'The later signature vouches only for what its signer signed, not for what Ann Lee signed.',
      changedAfter: { signature: 1, revision: 2, description: 'changed the content of page 1' },
    });
    // Both signatures hold as signatures: Bob did sign the changed file.
    expect(report.signatures.map((signature) => [signature.intact, signature.chainsToPlatformCa])).toEqual([
      [true, true],
      [true, true],
    ]);
    expect(changesOf(report, 1)).toEqual([
      { revision: 2, kind: 'other', description: 'changed the content of page 1', allowed: false },
      { revision: 3, kind: 'signature', description: 'added signature 2 (Bob Okafor)', allowed: true },
    ]);
    expect(report.signatures.map((signature) => signature.changedAfterSigning)).toEqual([true, false]);
    // pdfsig checks each signature's bytes only, and finds both valid.
    const outside = await pdfsig(changed);
    expect(outside.signatures.map((signature) => signature.validation)).toEqual([
      'Signature is Valid.',
      'Signature is Valid.',
    ]);
  });

  it('sees an empty signature field drawn over a signed page, though a valid signature follows it', async () => {
    // The "sneaky signature": a new, unsigned signature field whose appearance covers the page (white, then
    // other words). Nothing of the page's content changes, and a later signature seems to close it off.
    const covered = addEmptySignatureField(signedByAnn, 'VOID - Morphine 500 tablets');
    const description =
      'added an empty signature field "Signature9" with a visible appearance on page 1, which can draw over what ' +
      'was signed';
    const alone = await verify(covered);
    expect(alone.verdict.status).toBe('modified-after-signing');
    const report = await verify(await bobSigns(covered));
    expect(report.verdict).toEqual({
      status: 'modified-after-signing',
      summary:
        `Changed after ${ANN_WHO} signed: revision 2 of 3 ${description}. ` +
        'The later signature vouches only for what its signer signed, not for what Ann Lee signed.',
      changedAfter: { signature: 1, revision: 2, description },
    });
    expect(changesOf(report, 1)).toEqual([
      { revision: 2, kind: 'other', description, allowed: false },
      { revision: 3, kind: 'signature', description: 'added signature 2 (Bob Okafor)', allowed: true },
    ]);
    // One that shows nothing on a page (a field prepared for a later signer) stays allowed.
    const invisible = await verify(await bobSigns(addEmptySignatureField(signedByAnn)));
    expect(invisible.verdict.status).toBe('authentic');
    expect(changesOf(invisible, 1)[0]).toEqual({
      revision: 2,
      kind: 'signature-field',
      description: 'added an empty signature field "Signature9"',
      allowed: true,
    });
  });

  it('nor after the last signature', async () => {
    const report = await verify(replacePageContent(signedByAnn, 'Pay 1000 EUR to the bearer'));
    expect(report.verdict.summary).toBe(
      `Changed after ${ANN_WHO} signed: revision 2 of 2 changed the content of page 1.`,
    );
    expect(report.verdict.changedAfter).toEqual({
      signature: 1,
      revision: 2,
      description: 'changed the content of page 1',
    });
  });

  const pageOneRef = (structure: Parameters<Parameters<typeof appendUpdate>[1]>[0]) => {
    const pages = asDict(structure.resolve(structure.catalog().dict.get('Pages')))!;
    return asArray(pages.get('Kids'))![0] as PdfRef;
  };
  const changes: Array<[string, (bytes: Uint8Array) => Uint8Array, string]> = [
    ['an added page', (bytes) => addPage(bytes), 'added a page (2 pages now, 1 before)'],
    [
      'a new title',
      (bytes) =>
        appendUpdate(bytes, (structure) => {
          const ref = structure.trailer.get('Info') as PdfRef;
          const info = asDict(structure.resolve(ref))!.clone().set('Title', PdfString.text('Loan contract'));
          return [{ ref, body: serialize(info) }];
        }),
      'changed the document information (/Title)',
    ],
    [
      'an action run on opening',
      (bytes) =>
        appendUpdate(bytes, (structure) => {
          const catalog = structure.catalog();
          const action = new PdfDict([
            ['S', new PdfName('JavaScript')],
            ['JS', PdfString.text('app.alert(1)')],
          ]);
          return [{ ref: catalog.ref, body: serialize(catalog.dict.clone().set('OpenAction', action)) }];
        }),
      'changed the document catalog (/OpenAction)',
    ],
    [
      'a font the page uses, changed in place',
      (bytes) =>
        appendUpdate(bytes, (structure) => {
          const page = asDict(structure.resolve(pageOneRef(structure)))!;
          const fonts = asDict(
            structure.resolve(asDict(structure.resolve(page.get('Resources')))?.get('Font')),
          )!;
          const ref = [...fonts.entries.values()][0] as PdfRef;
          const font = asDict(structure.resolve(ref))!.clone().set('BaseFont', new PdfName('Courier'));
          return [{ ref, body: serialize(font) }];
        }),
      'changed a font that page 1 uses',
    ],
    [
      'a widget removed from the page',
      (bytes) =>
        appendUpdate(bytes, (structure) => {
          const ref = pageOneRef(structure);
          return [{ ref, body: serialize(asDict(structure.resolve(ref))!.clone().set('Annots', [])) }];
        }),
      'removed signature field "Signature1" from page 1',
    ],
  ];
  for (const [what, change, description] of changes) {
    it(`makes the file changed after that signature: ${what}`, async () => {
      const report = await verify(await bobSigns(change(signedByAnn)));
      expect(report.verdict.status).toBe('modified-after-signing');
      expect(report.verdict.changedAfter).toEqual({ signature: 1, revision: 2, description });
      expect(report.verdict.summary).toMatch(
        new RegExp(`^Changed after Ann Lee \\(ann@careplane.local\\) signed: revision 2 of 3 `),
      );
    });
  }

  it('defining an object the signed revision referred to without defining it is a change', async () => {
    // A page that draws a second content stream the signed file never defined: empty when Ann signed.
    let missing = 0;
    const prepared = appendUpdate(sample, (structure, newRef) => {
      const ref = pageOneRef(structure);
      const page = asDict(structure.resolve(ref))!.clone();
      missing = newRef().num + 5;
      return [
        { ref, body: serialize(page.set('Contents', [page.get('Contents')!, new PdfRef(missing, 0)])) },
      ];
    });
    const signed = await signPdf(prepared, ann, ca, { signingTime: ANN_TIME });
    const filled = appendUpdate(signed, () => [
      { ref: new PdfRef(missing, 0), body: streamBody(new PdfDict(), 'BT /F1 24 Tf 56 600 Td (Void) Tj ET') },
    ]);
    const report = await verify(await bobSigns(filled));
    expect(report.verdict.changedAfter).toEqual({
      signature: 1,
      revision: 2,
      description: `added object ${missing}, to which the earlier revision already referred`,
    });
  });
});

describe('document information and metadata', () => {
  const xmp = (title: string, modified: string) =>
    `<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF ` +
    `xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about="" ` +
    `xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:xmp="http://ns.adobe.com/xap/1.0/" ` +
    `xmp:ModifyDate="${modified}"><dc:title><rdf:Alt><rdf:li xml:lang="x-default">${title}</rdf:li></rdf:Alt>` +
    `</dc:title><xmp:MetadataDate>${modified}</xmp:MetadataDate></rdf:Description></rdf:RDF></x:xmpmeta>` +
    `${' '.repeat(64)}<?xpacket end="w"?>`;
  const metadata = new PdfDict([
    ['Type', new PdfName('Metadata')],
    ['Subtype', new PdfName('XML')],
  ]);
  let metadataRef: PdfRef;
  let signedWithXmp: Uint8Array;
  beforeAll(async () => {
    const withXmp = appendUpdate(sample, (structure, newRef) => {
      const catalog = structure.catalog();
      metadataRef = newRef();
      return [
        { ref: metadataRef, body: streamBody(metadata, xmp('Care plan', '2026-11-23T09:00:00Z')) },
        { ref: catalog.ref, body: serialize(catalog.dict.clone().set('Metadata', metadataRef)) },
      ];
    });
    signedWithXmp = await signPdf(withXmp, ann, ca, { signingTime: ANN_TIME });
  });
  const restamp = (bytes: Uint8Array, title: string) =>
    appendUpdate(bytes, () => [
      { ref: metadataRef, body: streamBody(metadata, xmp(title, '2026-11-24T08:29:00Z')) },
    ]);

  it('new dates or producer, in the information dictionary or the XMP, are what signing tools write: allowed', async () => {
    const stamped = appendUpdate(restamp(signedWithXmp, 'Care plan'), (structure) => {
      const ref = structure.trailer.get('Info') as PdfRef;
      const info = asDict(structure.resolve(ref))!
        .clone()
        .set('ModDate', PdfString.text("D:20261124082900+00'00'"))
        .set('Producer', PdfString.text('Another signing tool'));
      return [{ ref, body: serialize(info) }];
    });
    const report = await verify(await bobSigns(stamped));
    expect(report.verdict.status).toBe('authentic');
    expect(changesOf(report, 1).map((change) => [change.revision, change.kind, change.allowed])).toEqual([
      [2, 'document-dates', true],
      [3, 'document-dates', true],
      [4, 'signature', true],
    ]);
  });

  it('a new title in the XMP is a change', async () => {
    const report = await verify(await bobSigns(restamp(signedWithXmp, 'Loan contract')));
    expect(report.verdict.changedAfter).toEqual({
      signature: 1,
      revision: 2,
      description: 'changed the document metadata (XMP)',
    });
  });
});

describe('form fields between signatures (DocMDP)', () => {
  it('without a certification signature, filling in a field is allowed (P=2) and listed', async () => {
    const report = await verify(await bobSigns(fillTextField(formSignedByAnn, 'Name', 'Ann Example')));
    expect(report.verdict).toEqual({
      status: 'authentic',
      summary:
        `Authentic and untampered: signed by ${ANN_WHO} on 23.11.2026 14:02 UTC, then by ${BOB_WHO} on 24.11.2026 08:30 UTC. ` +
        'Between the signatures, changes the signatures allow: revision 2 of 3 filled in form field "Name".',
      changedAfter: null,
    });
    expect(changesOf(report, 1)).toEqual([
      { revision: 2, kind: 'form-fill', description: 'filled in form field "Name"', allowed: true },
      { revision: 3, kind: 'signature', description: 'added signature 2 (Bob Okafor)', allowed: true },
    ]);
  });

  it('a read-only field is not filled in', async () => {
    const report = await verify(await bobSigns(fillTextField(formSignedByAnn, 'Reference', 'CP-2026-0666')));
    expect(report.verdict.changedAfter).toEqual({
      signature: 1,
      revision: 2,
      description: 'changed read-only form field "Reference"',
    });
  });

  it('a certification signature with P=1 allows no change, so the same fill is a change after it', async () => {
    const certified = await signWithDocMdp(form, ann, ca, { signingTime: ANN_TIME, certify: 1 });
    expect((await verify(certified)).verdict.status).toBe('authentic');
    const report = await verify(
      await signWithDocMdp(fillTextField(certified, 'Name', 'Ann Example'), bob, ca, {
        signingTime: BOB_TIME,
      }),
    );
    expect(report.signatures[0]!.certification).toEqual({ permission: 1 });
    expect(report.allowedChanges).toEqual({
      level: 1,
      certifiedBy: 1,
      description: 'no changes (certified by signature 1)',
    });
    expect(report.verdict).toEqual({
      status: 'modified-after-signing',
      summary:
        `Changed after ${ANN_WHO} signed: revision 2 of 3 filled in form field "Name", which the certification ` +
        'signature does not allow (it allows no changes). The later signature vouches only for what its signer ' +
        'signed, not for what Ann Lee signed.',
      changedAfter: { signature: 1, revision: 2, description: 'filled in form field "Name"' },
    });
    expect(changesOf(report, 1)).toEqual([
      { revision: 2, kind: 'form-fill', description: 'filled in form field "Name"', allowed: false },
      { revision: 3, kind: 'signature', description: 'added signature 2 (Bob Okafor)', allowed: false },
    ]);
  });

  it('a certification signature with P=2 allows the fill and the next signature', async () => {
    const certified = await signWithDocMdp(form, ann, ca, { signingTime: ANN_TIME, certify: 2 });
    const report = await verify(await bobSigns(fillTextField(certified, 'Name', 'Ann Example')));
    expect(report.verdict.status).toBe('authentic');
    expect(report.allowedChanges.certifiedBy).toBe(1);
    expect(changesOf(report, 1).map((change) => change.allowed)).toEqual([true, true]);
  });

  it('an added or changed page content is a change whatever the level', async () => {
    const certified = await signWithDocMdp(form, ann, ca, { signingTime: ANN_TIME, certify: 3 });
    for (const change of [addPage(formSignedByAnn), replacePageContent(certified, 'Changed')]) {
      const report = await verify(await bobSigns(change));
      expect(report.verdict.status).toBe('modified-after-signing');
      expect(report.verdict.changedAfter?.signature).toBe(1);
    }
  });

  it('a note (annotation) is allowed only by a certification with P=3', async () => {
    const certified = await signWithDocMdp(form, ann, ca, { signingTime: ANN_TIME, certify: 3 });
    const allowed = await verify(await bobSigns(addNote(certified, 'Seen, B.O.')));
    expect(allowed.verdict.status).toBe('authentic');
    expect(changesOf(allowed, 1)[0]).toEqual({
      revision: 2,
      kind: 'annotation',
      description: 'added an annotation (Text) on page 1',
      allowed: true,
    });
    const approval = await verify(await bobSigns(addNote(formSignedByAnn, 'Seen, B.O.')));
    expect(approval.verdict.changedAfter).toEqual({
      signature: 1,
      revision: 2,
      description: 'added an annotation (Text) on page 1',
    });
  });
});

describe('changes after the last signature', () => {
  it('that the signatures allow are still unsigned: changed after the last signature', async () => {
    const report = await verify(fillTextField(formSignedByAnn, 'Name', 'Ann Example'));
    expect(report.verdict).toEqual({
      status: 'modified-after-signing',
      summary:
        `The signatures are intact, but the file was changed after ${ANN_WHO} signed last: revision 2 of 2 ` +
        'filled in form field "Name". The signatures allow this change, but nobody signed it.',
      changedAfter: null,
    });
  });

  it('validation data (DSS) keeps the file authentic', async () => {
    const withDss = appendUpdate(signedByAnn, (structure, newRef) => {
      const catalog = structure.catalog();
      const certificate = newRef();
      const dss = new PdfDict([['Certs', [certificate]]]);
      return [
        {
          ref: certificate,
          body: streamBody(new PdfDict(), Buffer.from(ca.certificateDer).toString('latin1')),
        },
        { ref: catalog.ref, body: serialize(catalog.dict.clone().set('DSS', dss)) },
      ];
    });
    const report = await verify(withDss);
    expect(report.verdict.status).toBe('authentic');
    expect(report.verdict.summary).toMatch(
      /Validation data for the signatures was added after the last signature\.$/,
    );
    expect(changesOf(report, 1)).toEqual([
      {
        revision: 2,
        kind: 'validation-data',
        description: 'added validation data for the signatures (DSS)',
        allowed: true,
      },
    ]);
  });
});

describe('hostile files', () => {
  it('more revisions than are compared: the changes cannot be told, never fine', async () => {
    let bytes = signedByAnn;
    for (let i = 0; i < 257; i++) {
      bytes = appendUpdate(bytes, (structure) => {
        const ref = structure.trailer.get('Info') as PdfRef;
        const info = asDict(structure.resolve(ref))!
          .clone()
          .set('ModDate', PdfString.text(`D:2026112${i}`));
        return [{ ref, body: serialize(info) }];
      });
    }
    const report = await verify(bytes);
    expect(report.verdict).toMatchObject({
      status: 'modified-after-signing',
      summary: `Cannot tell what changed after ${ANN_WHO} signed: the changes could not be compared: the file has more than 256 revisions after the first signature.`,
      changedAfter: { signature: 1, revision: null },
    });
    // 50 entries at most: what is not allowed is kept, the rest summed up.
    const listed = report.signatures[0]!.changesAfter;
    expect(listed).toHaveLength(50);
    expect(listed.filter((change) => !change.allowed)).toEqual([
      expect.objectContaining({
        revision: null,
        description: expect.stringMatching(/more than 256 revisions/),
      }),
    ]);
    expect(listed.at(-1)).toEqual({
      revision: null,
      kind: 'document-dates',
      description: 'made 207 further changes',
      allowed: true,
    });
  });

  it('a file with more objects than the budget is not compared: the update counts as a change', async () => {
    const before = PdfStructure.read(formSignedByAnn);
    const after = PdfStructure.read(fillTextField(formSignedByAnn, 'Name', 'Ann Example'));
    expect(compareRevisions(before, after, { objects: 1 })).toEqual({
      kind: 'not-compared',
      reason: 'could not be compared: the file has too many objects',
    });
    const comparison = compareRevisions(before, after);
    if (comparison.kind !== 'compared') throw new Error('expected a comparison');
    const budget = { objects: 5 };
    const changes = classifyUpdate({
      revision: 2,
      before,
      after,
      mapBefore: mapDocument(before, budget),
      mapAfter: mapDocument(after, budget),
      changed: comparison.changed,
    });
    expect(changes).toEqual([
      {
        revision: 2,
        kind: 'other',
        description: 'could not be compared: the file has too many objects',
      },
    ]);
  });

  it('random damage to files with updates between signatures never throws', async () => {
    const files = [
      await bobSigns(replacePageContent(signedByAnn, 'Changed')),
      await bobSigns(fillTextField(formSignedByAnn, 'Name', 'Ann Example')),
    ];
    let seed = 7;
    for (const file of files) {
      for (let i = 0; i < 100; i++) {
        seed = (seed * 1103515245 + 12345) & 0x7fffffff;
        const damaged = Uint8Array.from(file);
        // Damage the later revisions, where the comparison reads.
        const from = signedByAnn.length;
        for (let k = 0; k < 4; k++) {
          damaged[from + ((seed >> k) % (damaged.length - from))] = (seed >> (k * 3)) & 0xff;
        }
        const report = await verify(damaged);
        expect(report.verdict.summary.length).toBeGreaterThan(10);
        if (report.verdict.status === 'authentic') {
          expect(report.signatures.every((signature) => !signature.changedAfterSigning)).toBe(true);
        }
      }
    }
  });
});
