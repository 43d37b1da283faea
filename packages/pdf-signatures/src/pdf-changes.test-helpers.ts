// Files for the tests of what changed after a signature: a PDF with form fields, incremental updates written
// after signing the way an editor (or someone changing a signed file) writes them, and signatures the platform
// itself never makes (a certification signature with DocMDP, a signature that ignores one).
import { createHash } from 'node:crypto';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import type { CertificateAuthority } from './certificate-authority.js';
import { buildSignedAttributes, buildSignedData, ecdsaSignatureToDer } from './cms-signature.js';
import type { TestSigner } from './test-helpers.js';
import { appendIncrementalUpdate, type UpdateObject } from './pdf/pdf-incremental-update.js';
import {
  asArray,
  asDict,
  asInteger,
  PdfDict,
  PdfName,
  PdfRef,
  PdfString,
  serialize,
  type PdfValue,
} from './pdf/pdf-objects.js';
import { PdfStructure } from './pdf/pdf-structure.js';
import { pdfDate } from './pdf-signing.js';

const DATE = new Date('2026-11-23T09:00:00Z');

/** One page of text with two text fields: "Name" (empty) and "Reference" (read-only, filled). */
export async function createFormPdf(options: { useObjectStreams?: boolean } = {}): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.setTitle('Consent form');
  doc.setCreationDate(DATE);
  doc.setModificationDate(DATE);
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([595.28, 841.89]);
  page.drawText('I agree to the care plan of 23.11.2026.', { x: 56, y: 770, size: 12, font });
  const form = doc.getForm();
  const name = form.createTextField('Name');
  name.addToPage(page, { x: 56, y: 700, width: 240, height: 24, font });
  const reference = form.createTextField('Reference');
  reference.setText('CP-2026-0042');
  reference.addToPage(page, { x: 56, y: 650, width: 240, height: 24, font });
  reference.enableReadOnly();
  return doc.save({ useObjectStreams: options.useObjectStreams ?? true });
}

/** Appends one incremental update; `build` gets the file's structure and hands out new object numbers. */
export function appendUpdate(
  pdf: Uint8Array,
  build: (structure: PdfStructure, newRef: () => PdfRef) => UpdateObject[],
): Uint8Array {
  const structure = PdfStructure.read(pdf);
  let next = structure.size;
  return appendIncrementalUpdate(
    structure,
    build(structure, () => new PdfRef(next++, 0)),
  ).bytes;
}

/** An uncompressed stream object's body. */
export function streamBody(dict: PdfDict, data: string): string {
  const copy = dict.clone().set('Length', Buffer.byteLength(data, 'latin1'));
  return `${serialize(copy)}\nstream\n${data}\nendstream`;
}

function fieldByName(structure: PdfStructure, name: string): { ref: PdfRef; dict: PdfDict } {
  const acroForm = asDict(structure.resolve(structure.catalog().dict.get('AcroForm')));
  for (const field of asArray(structure.resolve(acroForm?.get('Fields'))) ?? []) {
    const dict = asDict(structure.resolve(field));
    const title = dict?.get('T');
    if (field instanceof PdfRef && dict && title instanceof PdfString && title.text() === name) {
      return { ref: field, dict };
    }
  }
  throw new Error(`No field ${name}`);
}

/** Fills a text field as a form filler does: the field's /V, and its widget's new appearance stream. */
export function fillTextField(pdf: Uint8Array, name: string, value: string): Uint8Array {
  return appendUpdate(pdf, (structure, newRef) => {
    const field = fieldByName(structure, name);
    const kid = (asArray(structure.resolve(field.dict.get('Kids'))) ?? [])[0];
    const widgetRef = kid instanceof PdfRef ? kid : field.ref;
    const appearance = newRef();
    const objects: UpdateObject[] = [
      {
        ref: appearance,
        body: streamBody(
          new PdfDict([
            ['Type', new PdfName('XObject')],
            ['Subtype', new PdfName('Form')],
            ['BBox', [0, 0, 240, 24]],
          ]),
          `/Tx BMC BT 0 g 2 7 Td (${value}) Tj ET EMC`,
        ),
      },
    ];
    const fieldDict = field.dict.clone().set('V', PdfString.text(value));
    if (widgetRef === field.ref) {
      fieldDict.set('AP', new PdfDict([['N', appearance]]));
    } else {
      const widget = asDict(structure.resolve(widgetRef))!.clone();
      widget.set('AP', new PdfDict([['N', appearance]]));
      objects.push({ ref: widgetRef, body: serialize(widget) });
    }
    objects.push({ ref: field.ref, body: serialize(fieldDict) });
    return objects;
  });
}

function pageRefs(structure: PdfStructure): { pagesRef: PdfRef; pages: PdfDict; kids: PdfValue[] } {
  const pagesRef = structure.catalog().dict.get('Pages') as PdfRef;
  const pages = asDict(structure.resolve(pagesRef))!;
  return { pagesRef, pages, kids: asArray(structure.resolve(pages.get('Kids'))) ?? [] };
}

/** Rewrites the first content stream of a page with other text (same object number). */
export function replacePageContent(pdf: Uint8Array, text: string, page = 1): Uint8Array {
  return appendUpdate(pdf, (structure) => {
    const pageDict = asDict(structure.resolve(pageRefs(structure).kids[page - 1]))!;
    const contents = pageDict.get('Contents');
    const first = contents instanceof PdfRef ? contents : asArray(structure.resolve(contents))?.[0];
    if (!(first instanceof PdfRef)) throw new Error('The page has no content stream to replace');
    return [{ ref: first, body: streamBody(new PdfDict(), `BT /F1 12 Tf 56 770 Td (${text}) Tj ET`) }];
  });
}

/** Adds a page at the end (the page tree's root gains a kid). */
export function addPage(pdf: Uint8Array, text = 'An added page'): Uint8Array {
  return appendUpdate(pdf, (structure, newRef) => {
    const { pagesRef, pages, kids } = pageRefs(structure);
    const pageRef = newRef();
    const contentRef = newRef();
    const page = new PdfDict([
      ['Type', new PdfName('Page')],
      ['Parent', pagesRef],
      ['MediaBox', [0, 0, 595.28, 841.89]],
      ['Contents', contentRef],
    ]);
    const newPages = pages
      .clone()
      .set('Kids', [...kids, pageRef])
      .set('Count', (asInteger(pages.get('Count')) ?? kids.length) + 1);
    return [
      { ref: contentRef, body: streamBody(new PdfDict(), `BT /F1 12 Tf 56 770 Td (${text}) Tj ET`) },
      { ref: pageRef, body: serialize(page) },
      { ref: pagesRef, body: serialize(newPages) },
    ];
  });
}

/** Adds a sticky note (a /Text annotation) to page 1. */
export function addNote(pdf: Uint8Array, text: string): Uint8Array {
  return appendUpdate(pdf, (structure, newRef) => {
    const pageRef = pageRefs(structure).kids[0] as PdfRef;
    const page = asDict(structure.resolve(pageRef))!.clone();
    const note = newRef();
    const objects: UpdateObject[] = [
      {
        ref: note,
        body: serialize(
          new PdfDict([
            ['Type', new PdfName('Annot')],
            ['Subtype', new PdfName('Text')],
            ['Rect', [300, 700, 320, 720]],
            ['Contents', PdfString.text(text)],
            ['P', pageRef],
          ]),
        ),
      },
    ];
    const annots = page.get('Annots');
    if (annots instanceof PdfRef) {
      const list = asArray(structure.resolve(annots)) ?? [];
      objects.push({ ref: annots, body: serialize([...list, note]) });
    } else {
      page.set('Annots', [...(asArray(annots) ?? []), note]);
      objects.push({ ref: pageRef, body: serialize(page) });
    }
    return objects;
  });
}

/**
 * Adds an empty signature field (a widget with no /V) to page 1, as a later update: invisible (a zero
 * rectangle), or covering the whole page with an appearance that paints it white and writes `overlay` on it:
 * the "sneaky signature" that redraws a signed page without changing its content.
 */
export function addEmptySignatureField(pdf: Uint8Array, overlay?: string): Uint8Array {
  return appendUpdate(pdf, (structure, newRef) => {
    const pageRef = pageRefs(structure).kids[0] as PdfRef;
    const page = asDict(structure.resolve(pageRef))!.clone();
    const field = newRef();
    const objects: UpdateObject[] = [];
    const widget = new PdfDict([
      ['Type', new PdfName('Annot')],
      ['Subtype', new PdfName('Widget')],
      ['FT', new PdfName('Sig')],
      ['T', PdfString.text('Signature9')],
      ['F', 4],
      ['P', pageRef],
      ['Rect', overlay ? [0, 0, 595.28, 841.89] : [0, 0, 0, 0]],
    ]);
    if (overlay) {
      const appearance = newRef();
      const box = new PdfDict([
        ['Type', new PdfName('XObject')],
        ['Subtype', new PdfName('Form')],
        ['BBox', [0, 0, 595.28, 841.89]],
      ]);
      const paint = `1 g 0 0 595.28 841.89 re f 0 g BT /Helv 24 Tf 56 700 Td (${overlay}) Tj ET`;
      objects.push({ ref: appearance, body: streamBody(box, paint) });
      widget.set('AP', new PdfDict([['N', appearance]]));
    }
    objects.push({ ref: field, body: serialize(widget) });
    const annots = page.get('Annots');
    if (annots instanceof PdfRef) {
      objects.push({ ref: annots, body: serialize([...(asArray(structure.resolve(annots)) ?? []), field]) });
    } else {
      page.set('Annots', [...(asArray(annots) ?? []), field]);
      objects.push({ ref: pageRef, body: serialize(page) });
    }
    // The form's field list gains it (the signed file has a form: its signature is a field).
    const catalog = structure.catalog();
    const formValue = catalog.dict.get('AcroForm');
    const acroForm = asDict(structure.resolve(formValue))!.clone();
    const fields = acroForm.get('Fields');
    if (fields instanceof PdfRef) {
      objects.push({ ref: fields, body: serialize([...(asArray(structure.resolve(fields)) ?? []), field]) });
    } else {
      acroForm.set('Fields', [...(asArray(fields) ?? []), field]);
      if (formValue instanceof PdfRef) objects.push({ ref: formValue, body: serialize(acroForm) });
      else
        objects.push({ ref: catalog.ref, body: serialize(catalog.dict.clone().set('AcroForm', acroForm)) });
    }
    return objects;
  });
}

/**
 * Signs as prepareSignature and completeSignature do, but with its own writer: with `certify`, a certification
 * signature (a DocMDP /Reference in the signature dictionary, /Perms /DocMDP in the catalog); without it, an
 * approval signature that does not refuse a file certified with no changes allowed.
 */
export async function signWithDocMdp(
  pdf: Uint8Array,
  signer: TestSigner,
  ca: CertificateAuthority,
  options: { signingTime: Date; certify?: 1 | 2 | 3; fieldName?: string },
): Promise<Uint8Array> {
  const structure = PdfStructure.read(pdf);
  const catalog = structure.catalog();
  const pageRef = pageRefs(structure).kids[0] as PdfRef;
  const page = asDict(structure.resolve(pageRef))!.clone();
  const sigRef = new PdfRef(structure.size, 0);
  const widgetRef = new PdfRef(structure.size + 1, 0);
  const reserved = 8192;
  const reference = options.certify
    ? ` /Reference [<</Type /SigRef /TransformMethod /DocMDP /TransformParams <</Type /TransformParams /P ${options.certify} /V /1.2>>>>]`
    : '';
  const signerName = `${signer.identity.firstName} ${signer.identity.lastName}`;
  const sigDict =
    `<</Type /Sig /Filter /Adobe.PPKLite /SubFilter /ETSI.CAdES.detached /ByteRange [${' '.repeat(40)}] ` +
    `/Contents <${'0'.repeat(reserved * 2)}> /M (${pdfDate(options.signingTime)}) /Name (${signerName})${reference}>>`;
  const widget = new PdfDict([
    ['Type', new PdfName('Annot')],
    ['Subtype', new PdfName('Widget')],
    ['FT', new PdfName('Sig')],
    ['T', PdfString.text(options.fieldName ?? (options.certify ? 'Certification' : 'Approval'))],
    ['V', sigRef],
    ['F', 132],
    ['Rect', [0, 0, 0, 0]],
    ['P', pageRef],
  ]);
  const objects: UpdateObject[] = [
    { ref: sigRef, body: sigDict },
    { ref: widgetRef, body: serialize(widget) },
  ];
  const annots = page.get('Annots');
  if (annots instanceof PdfRef) {
    objects.push({
      ref: annots,
      body: serialize([...(asArray(structure.resolve(annots)) ?? []), widgetRef]),
    });
  } else {
    page.set('Annots', [...(asArray(annots) ?? []), widgetRef]);
    objects.push({ ref: pageRef, body: serialize(page) });
  }
  const newCatalog = catalog.dict.clone();
  const acroFormValue = catalog.dict.get('AcroForm');
  const form = asDict(structure.resolve(acroFormValue))?.clone() ?? new PdfDict();
  const fields = form.get('Fields');
  if (fields instanceof PdfRef) {
    objects.push({
      ref: fields,
      body: serialize([...(asArray(structure.resolve(fields)) ?? []), widgetRef]),
    });
  } else {
    form.set('Fields', [...(asArray(fields) ?? []), widgetRef]);
  }
  form.set('SigFlags', 3);
  if (acroFormValue instanceof PdfRef) objects.push({ ref: acroFormValue, body: serialize(form) });
  else newCatalog.set('AcroForm', form);
  if (options.certify) newCatalog.set('Perms', new PdfDict([['DocMDP', sigRef]]));
  if (options.certify || !(acroFormValue instanceof PdfRef)) {
    objects.push({ ref: catalog.ref, body: serialize(newCatalog) });
  }

  const update = appendIncrementalUpdate(structure, objects);
  const bytes = Buffer.from(update.bytes);
  const sigStart = update.valueOffsets.get(sigRef.num)!;
  const contentsStart = sigStart + sigDict.indexOf('/Contents <') + '/Contents '.length;
  const contentsEnd = contentsStart + reserved * 2 + 2;
  const range = [0, contentsStart, contentsEnd, bytes.length - contentsEnd];
  bytes.write(range.join(' ').padEnd(40, ' '), sigStart + sigDict.indexOf('/ByteRange [') + 12, 'latin1');
  const digest = createHash('sha256')
    .update(bytes.subarray(0, contentsStart))
    .update(bytes.subarray(contentsEnd))
    .digest();
  const signedAttributes = buildSignedAttributes({
    messageDigest: digest,
    signerCertificate: signer.certificate.der,
  });
  const cms = buildSignedData({
    signedAttributes,
    signature: ecdsaSignatureToDer(await signer.sign(signedAttributes)),
    signerCertificate: signer.certificate.der,
    certificates: [ca.certificateDer],
  });
  bytes.write(Buffer.from(cms).toString('hex'), contentsStart + 1, 'latin1');
  return bytes;
}
