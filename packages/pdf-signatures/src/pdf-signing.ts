// Signing a PDF whose signature is made elsewhere (on the user's phone), in two steps:
//
// 1. prepareSignature: appends an incremental update holding an empty signature (a signature dictionary with
//    a zero-filled /Contents, an invisible signature field on page 1, the AcroForm with /SigFlags 3), computes
//    the SHA-256 of the byte ranges, and returns the DER SignedAttributes the signer's key must sign.
// 2. completeSignature: checks that signature against the signer's certificate, wraps it in a CMS SignedData
//    (PAdES baseline B-B: /SubFilter /ETSI.CAdES.detached) and writes it into /Contents.
//
// The original bytes are never rewritten, so a document already signed stays valid when another party signs
// it. prepareSignature is deterministic (no clock, no randomness): the same inputs give the same bytes.
import { createHash, verify as verifySignature, X509Certificate } from 'node:crypto';
import {
  buildSignedAttributes,
  buildSignedData,
  CmsFormatError,
  ecdsaSignatureToDer,
} from './cms-signature.js';
import { appendIncrementalUpdate, type UpdateObject } from './pdf/pdf-incremental-update.js';
import {
  asArray,
  asDict,
  asInteger,
  asName,
  PdfDict,
  PdfName,
  PdfRef,
  PdfString,
  serialize,
  type PdfValue,
} from './pdf/pdf-objects.js';
import { PdfStructure, PdfStructureError } from './pdf/pdf-structure.js';
import { invalidInput, SigningError } from './signing-error.js';

/** Room for the CMS: two P-256 certificates and the attributes need about 1.5 kB; the rest leaves space for a
 * timestamp token later (PAdES B-T). */
export const DEFAULT_RESERVED_BYTES = 8192;
const BYTE_RANGE_WIDTH = 40;
const MAX_TEXT = 256;

export type ByteRange = [number, number, number, number];

export interface PrepareSignatureOptions {
  /** Shown by PDF readers as the signer (/Name); the certificate remains the authority on who signed. */
  signerName: string;
  reason?: string;
  location?: string;
  /** The claimed signing time, written as /M in the signature dictionary (covered by the signature). */
  signingTime: Date;
  /** The signer's certificate (DER or PEM), issued by the CA below. */
  signerCertificate: Uint8Array | string;
  /** The platform CA certificate (DER or PEM), embedded beside the signer's. */
  caCertificate: Uint8Array | string;
  reservedBytes?: number;
}

export interface PreparedSignature {
  /** The PDF with the empty signature appended as an incremental update. */
  prepared: Uint8Array;
  /** [0, start of /Contents, end of /Contents, bytes after it]: everything but the signature's hex string. */
  byteRange: ByteRange;
  /** DER SignedAttributes (a SET): the bytes the signer's key signs with ECDSA P-256 / SHA-256. */
  toBeSigned: Uint8Array;
  /** SHA-256 (hex) of the byte ranges: the message digest inside `toBeSigned`. */
  documentDigest: string;
  /** SHA-256 (hex) of the PDF as given, before the update. */
  originalDigest: string;
  fieldName: string;
  signingTime: Date;
  signerCertificate: Uint8Array;
  caCertificate: Uint8Array;
}

export function prepareSignature(pdf: Uint8Array, options: PrepareSignatureOptions): PreparedSignature {
  const signerCertificate = certificateDer(options.signerCertificate, 'signer certificate');
  const caCertificate = certificateDer(options.caCertificate, 'CA certificate');
  checkSignerCertificate(signerCertificate, caCertificate, options.signingTime);
  const reserved = options.reservedBytes ?? DEFAULT_RESERVED_BYTES;
  if (!Number.isSafeInteger(reserved) || reserved < 2048 || reserved > 65536) {
    throw new Error('reservedBytes must be between 2048 and 65536');
  }

  let structure: PdfStructure;
  try {
    structure = PdfStructure.read(pdf);
  } catch (error) {
    if (error instanceof PdfStructureError) throw invalidInput(`The file cannot be signed: ${error.message}`);
    throw error;
  }
  if (structure.trailer.has('Encrypt')) throw invalidInput('Encrypted PDFs cannot be signed');
  const plan = planSignatureObjects(structure);

  const sigRef = new PdfRef(plan.nextNum, 0);
  const widgetRef = new PdfRef(plan.nextNum + 1, 0);
  const sigDict =
    `<</Type /Sig /Filter /Adobe.PPKLite /SubFilter /ETSI.CAdES.detached ` +
    `/ByteRange [${' '.repeat(BYTE_RANGE_WIDTH)}] ` +
    `/Contents <${'0'.repeat(reserved * 2)}> ` +
    `/M ${serialize(new PdfString(Buffer.from(pdfDate(options.signingTime), 'latin1')))} ` +
    `/Name ${serialize(PdfString.text(limitText(options.signerName, 'signerName')))}` +
    (options.reason ? ` /Reason ${serialize(PdfString.text(limitText(options.reason, 'reason')))}` : '') +
    (options.location
      ? ` /Location ${serialize(PdfString.text(limitText(options.location, 'location')))}`
      : '') +
    ` /Prop_Build <</App <</Name /Careplane>>>>>>`;
  const widget = new PdfDict([
    ['Type', new PdfName('Annot')],
    ['Subtype', new PdfName('Widget')],
    ['FT', new PdfName('Sig')],
    ['T', PdfString.text(plan.fieldName)],
    ['V', sigRef],
    // Print + Locked; a zero rectangle: an invisible signature.
    ['F', 132],
    ['Rect', [0, 0, 0, 0]],
    ['P', plan.pageRef],
  ]);
  const objects: UpdateObject[] = [
    { ref: sigRef, body: sigDict },
    { ref: widgetRef, body: serialize(widget) },
    ...plan.changes(widgetRef),
  ];

  const update = appendIncrementalUpdate(structure, objects);
  const prepared = update.bytes;
  const sigStart = update.valueOffsets.get(sigRef.num)!;
  const contentsStart = sigStart + sigDict.indexOf('/Contents <') + '/Contents '.length;
  const contentsEnd = contentsStart + reserved * 2 + 2;
  const byteRange: ByteRange = [0, contentsStart, contentsEnd, prepared.length - contentsEnd];
  const rangeText = `0 ${byteRange[1]} ${byteRange[2]} ${byteRange[3]}`.padEnd(BYTE_RANGE_WIDTH, ' ');
  const rangeAt = sigStart + sigDict.indexOf('/ByteRange [') + '/ByteRange ['.length;
  Buffer.from(prepared.buffer, prepared.byteOffset, prepared.length).write(rangeText, rangeAt, 'latin1');

  const digest = rangeDigest(prepared, byteRange);
  return {
    prepared,
    byteRange,
    toBeSigned: buildSignedAttributes({ messageDigest: digest, signerCertificate }),
    documentDigest: Buffer.from(digest).toString('hex'),
    originalDigest: createHash('sha256').update(pdf).digest('hex'),
    fieldName: plan.fieldName,
    signingTime: new Date(options.signingTime.getTime()),
    signerCertificate,
    caCertificate,
  };
}

/**
 * Writes the signer's signature over `toBeSigned` into the prepared PDF. `signature` is ECDSA P-256 as WebCrypto
 * makes it (P1363, 64 bytes; raw or base64url) or DER. A signature that does not verify with the signer's
 * certificate is refused (`invalid-input`) rather than embedded.
 */
export function completeSignature(
  prepared: PreparedSignature,
  input: { signature: Uint8Array | string },
): Uint8Array {
  let raw: Uint8Array;
  try {
    raw = typeof input.signature === 'string' ? fromBase64url(input.signature) : input.signature;
  } catch {
    throw invalidInput('The signature is not base64url');
  }
  let der: Uint8Array;
  try {
    der = ecdsaSignatureToDer(raw);
  } catch (error) {
    if (error instanceof CmsFormatError) throw invalidInput(error.message);
    throw error;
  }
  const signer = new X509Certificate(prepared.signerCertificate);
  const valid = verifySignature(
    'sha256',
    prepared.toBeSigned,
    { key: signer.publicKey, dsaEncoding: 'der' },
    der,
  );
  if (!valid) throw invalidInput("The signature does not verify with the signer's certificate");

  const bytes = prepared.prepared;
  const [, contentsStart, contentsEnd, tail] = prepared.byteRange;
  if (
    contentsEnd + tail !== bytes.length ||
    bytes[contentsStart] !== 0x3c ||
    bytes[contentsEnd - 1] !== 0x3e ||
    Buffer.from(rangeDigest(bytes, prepared.byteRange)).toString('hex') !== prepared.documentDigest
  ) {
    throw new SigningError('internal', 'The prepared document changed after it was prepared');
  }
  const cms = buildSignedData({
    signedAttributes: prepared.toBeSigned,
    signature: der,
    signerCertificate: prepared.signerCertificate,
    certificates: [prepared.caCertificate],
  });
  const hex = Buffer.from(cms).toString('hex');
  if (hex.length > contentsEnd - contentsStart - 2) {
    throw new SigningError('internal', 'The signature does not fit the space reserved for it');
  }
  const signed = Buffer.from(bytes); // a copy: the prepared document stays as it was
  signed.write(hex, contentsStart + 1, 'latin1');
  return signed;
}

// ---------------------------------------------------------------------------------------------------------

/** SHA-256 of the two byte ranges (the signature's hex string left out). */
export function rangeDigest(bytes: Uint8Array, byteRange: ByteRange): Uint8Array {
  const [start1, length1, start2, length2] = byteRange;
  return createHash('sha256')
    .update(bytes.subarray(start1, start1 + length1))
    .update(bytes.subarray(start2, start2 + length2))
    .digest();
}

/** Strict base64url (the alphabet only, no padding), as the authenticator protocol writes it. */
function fromBase64url(text: string): Uint8Array {
  if (!/^[A-Za-z0-9_-]*$/.test(text) || text.length % 4 === 1) throw new Error('Invalid base64url');
  return new Uint8Array(Buffer.from(text, 'base64url'));
}

/** A certificate given as DER bytes or PEM text (or PEM bytes), as DER. */
export function certificateDer(input: Uint8Array | string, what = 'certificate'): Uint8Array {
  try {
    return new Uint8Array(new X509Certificate(typeof input === 'string' ? input : Buffer.from(input)).raw);
  } catch {
    throw invalidInput(`The ${what} is not an X.509 certificate`);
  }
}

function checkSignerCertificate(signerDer: Uint8Array, caDer: Uint8Array, signingTime: Date): void {
  if (!(signingTime instanceof Date) || Number.isNaN(signingTime.getTime())) {
    throw invalidInput('The signing time is not a valid date');
  }
  const signer = new X509Certificate(signerDer);
  const ca = new X509Certificate(caDer);
  if (!signer.checkIssued(ca) || !signer.verify(ca.publicKey)) {
    throw invalidInput('The signer certificate was not issued by the CA');
  }
  const time = signingTime.getTime();
  if (time < Date.parse(signer.validFrom) || time > Date.parse(signer.validTo)) {
    throw invalidInput('The signer certificate is not valid at the signing time');
  }
  if (signer.publicKey.asymmetricKeyType !== 'ec') throw invalidInput('The signer key must be an ECDSA key');
}

function limitText(value: string, what: string): string {
  if (typeof value !== 'string' || value.length > MAX_TEXT)
    throw invalidInput(`${what} must be a text of at most ${MAX_TEXT} characters`);
  return value;
}

/** D:YYYYMMDDHHmmSS+00'00' (ISO 32000-1 §7.9.4), in UTC. */
export function pdfDate(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return (
    `D:${date.getUTCFullYear()}${pad(date.getUTCMonth() + 1)}${pad(date.getUTCDate())}` +
    `${pad(date.getUTCHours())}${pad(date.getUTCMinutes())}${pad(date.getUTCSeconds())}+00'00'`
  );
}

interface SignaturePlan {
  fieldName: string;
  pageRef: PdfRef;
  /** The first object number the update may use (two in a row: signature dictionary, widget). */
  nextNum: number;
  /** The changed objects (page or its /Annots, AcroForm or its /Fields, catalog, a new AcroForm). */
  changes(widgetRef: PdfRef): UpdateObject[];
}

/** Works out which existing objects the new field changes, from the newest revision, without touching them. */
function planSignatureObjects(structure: PdfStructure): SignaturePlan {
  let catalog: { ref: PdfRef; dict: PdfDict };
  try {
    catalog = structure.catalog();
  } catch (error) {
    if (error instanceof PdfStructureError) throw invalidInput(`The file cannot be signed: ${error.message}`);
    throw error;
  }
  refuseIfCertifiedWithoutChanges(structure, catalog.dict);
  const pageRef = firstPage(structure, catalog.dict);
  const pageDict = asDict(structure.resolve(pageRef));
  if (!pageDict) throw invalidInput('The file cannot be signed: its first page is unreadable');

  const acroFormValue = catalog.dict.get('AcroForm');
  const acroForm = asDict(structure.resolve(acroFormValue));
  const existingNames = acroForm ? fieldNames(structure, acroForm.get('Fields')) : new Set<string>();
  let n = 1;
  while (existingNames.has(`Signature${n}`)) n++;
  const nextNum = structure.size;
  const newAcroFormNum = acroForm ? undefined : nextNum + 2;

  return {
    fieldName: `Signature${n}`,
    pageRef,
    nextNum,
    changes(widgetRef) {
      const changes: UpdateObject[] = [];
      const appendTo = (value: PdfValue | undefined, onInline: (array: PdfValue[]) => void) => {
        if (value instanceof PdfRef) {
          const array = asArray(structure.resolve(value));
          if (array) {
            changes.push({ ref: value, body: serialize([...array, widgetRef]) });
            return;
          }
        }
        onInline([...(asArray(value) ?? []), widgetRef]);
      };

      // The page lists the widget among its annotations.
      const page = pageDict.clone();
      appendTo(page.get('Annots'), (annots) => page.set('Annots', annots));
      if (page.get('Annots') !== pageDict.get('Annots'))
        changes.push({ ref: pageRef, body: serialize(page) });

      // The form lists the field, and says that the document holds signatures to keep (SigFlags 1 | 2).
      const form = acroForm ? acroForm.clone() : new PdfDict();
      appendTo(form.get('Fields'), (fields) => form.set('Fields', fields));
      form.set('SigFlags', (asInteger(form.get('SigFlags')) ?? 0) | 3);
      if (acroFormValue instanceof PdfRef && acroForm) {
        changes.push({ ref: acroFormValue, body: serialize(form) });
      } else {
        const newCatalog = catalog.dict.clone();
        if (newAcroFormNum === undefined) {
          newCatalog.set('AcroForm', form);
        } else {
          const formRef = new PdfRef(newAcroFormNum, 0);
          changes.push({ ref: formRef, body: serialize(form) });
          newCatalog.set('AcroForm', formRef);
        }
        changes.push({ ref: catalog.ref, body: serialize(newCatalog) });
      }
      return changes;
    },
  };
}

function firstPage(structure: PdfStructure, catalog: PdfDict): PdfRef {
  let node: PdfValue | undefined = catalog.get('Pages');
  for (let depth = 0; depth < 64; depth++) {
    if (!(node instanceof PdfRef)) break;
    const dict = asDict(structure.resolve(node));
    if (!dict) break;
    const kids = asArray(structure.resolve(dict.get('Kids')));
    if (asName(dict.get('Type')) === 'Page' || !kids) return node;
    node = kids[0];
  }
  throw invalidInput('The file cannot be signed: it has no readable first page');
}

/** Partial names (/T) of the form's fields and their kids, bounded against loops and hostile depth. */
function fieldNames(structure: PdfStructure, fields: PdfValue | undefined): Set<string> {
  const names = new Set<string>();
  const seen = new Set<number>();
  const visit = (value: PdfValue | undefined, depth: number) => {
    if (depth > 32 || names.size > 10_000) return;
    if (value instanceof PdfRef) {
      if (seen.has(value.num)) return;
      seen.add(value.num);
    }
    const resolved = structure.resolve(value);
    const array = asArray(resolved);
    if (array) return array.forEach((item) => visit(item, depth + 1));
    const dict = asDict(resolved);
    if (!dict) return;
    const title = dict.get('T');
    if (title instanceof PdfString) names.add(title.text());
    visit(dict.get('Kids'), depth + 1);
  };
  visit(fields, 0);
  return names;
}

/** A certification signature with DocMDP P=1 forbids any change, including another signature. */
function refuseIfCertifiedWithoutChanges(structure: PdfStructure, catalog: PdfDict): void {
  const perms = asDict(structure.resolve(catalog.get('Perms')));
  const docMdp = asDict(structure.resolve(perms?.get('DocMDP')));
  for (const reference of asArray(structure.resolve(docMdp?.get('Reference'))) ?? []) {
    const params = asDict(structure.resolve(asDict(structure.resolve(reference))?.get('TransformParams')));
    if (asInteger(params?.get('P')) === 1) {
      throw invalidInput('The document is certified with no changes allowed: it cannot be signed again');
    }
  }
}
