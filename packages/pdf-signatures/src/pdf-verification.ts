// Verifies the signatures of any PDF, for anyone, trusting nothing the file says about itself:
//
// - intact: the signature dictionary is the one the signed bytes contain (its /Contents is exactly the gap of
//   /ByteRange, which starts at 0, ascends and stays inside the file), the message digest matches the byte
//   ranges, the CMS signature verifies with the embedded signer certificate, and signing-certificate-v2 (when
//   present) names that certificate;
// - coversWholeFile: the byte ranges end at the end of the file (otherwise a later revision was added);
// - covers and changesAfter: the revision the signature covers, and what each later incremental update changed,
//   compared object by object and judged by the DocMDP rules (pdf-changes.ts): a change the signature does not
//   allow makes the file "changed after <signer> signed", whatever is signed later;
// - chainsToPlatformCa: the signer certificate is signed by the key of the CA certificate we are configured
//   with (never one embedded in the file), is not a CA itself, and it and the CA are valid at the signing time;
// - knownToPlatform: an injected lookup knows the SHA-256 of the signed revision (or of the whole file) as one
//   the platform itself completed;
// - signerWithdrawn: for a signature that chains to the CA, an injected lookup of the signer's standing (is the
//   certificate's key still enrolled, or did the platform itself complete this signature?) answered a problem.
//   A signature's time is the signer's word: once a key may be in other hands, the chain alone vouches for
//   nothing it signs, and such a signature is "untrusted" like one that does not chain.
//
// Signatures are found twice: through the form fields, as a reader finds them, and by their signed values in the
// bytes themselves (a /ByteRange whose gap is a hex /Contents). A signature the fields no longer reach (a changed
// /Fields array, a damaged field, a structure that cannot be read at all) is still checked and reported as not
// holding: a change to a signed byte can make a file "tampered", never "not signed" or "changed after signing".
//
// Anything malformed makes a signature "not intact" with a reason; nothing in a file makes this throw.
import 'reflect-metadata';
import { createHash, verify as verifySignature, X509Certificate } from 'node:crypto';
import * as x509 from '@peculiar/x509';
import { CmsFormatError, DIGEST_NAMES, OIDS, readSignedData, type SignedDataView } from './cms-signature.js';
import { DerError, readDer } from './der-encoding.js';
import {
  certificationLevel,
  classifyUpdate,
  DEFAULT_PERMISSION,
  isAllowed,
  mapDocument,
  newWalkBudget,
  permissionText,
  type Change,
  type ChangeKind,
  type DocumentMap,
  type PermissionLevel,
} from './pdf-changes.js';
import { certificateDer } from './pdf-signing.js';
import type { PdfDict } from './pdf/pdf-objects.js';
import { asArray, asDict, asInteger, asName, PdfRef, PdfString, type PdfValue } from './pdf/pdf-objects.js';
import { compareRevisions, readRevisions } from './pdf/pdf-revisions.js';
import { PdfStructure, PdfStructureError } from './pdf/pdf-structure.js';
import { digestRanges, type DigestTarget } from './range-digests.js';

export interface VerifyPdfOptions {
  /** The platform CA certificate (DER or PEM): the only anchor a signer certificate may chain to. */
  caCertificate: Uint8Array | string;
  /** Whether the platform itself completed a signature that left a file with this SHA-256 (hex). */
  isKnownDigest?: (sha256Hex: string) => boolean | Promise<boolean>;
  /**
   * How many changes a signature's `changesAfter` lists at most (default 50); the ones not allowed are kept
   * first and the rest summed up in the last entry. An API passes the bound its answer's schema sets.
   */
  maxListedChanges?: number;
  /**
   * Whether the platform still vouches for a signature's signer, asked only for a signature that chains to the
   * CA: undefined when it does, else the problem, in plain words (it is added to the signature's `problems`, sets
   * `signerWithdrawn` and makes the verdict "untrusted"). `certificateSha256` is the signer certificate's SHA-256
   * (hex), `revisionSha256` the signature's `revisionDigest`; `signingTime` is what the signature claims.
   */
  signerStanding?: (signature: {
    certificateSha256: string;
    revisionSha256: string | null;
    signingTime: Date | null;
  }) => string | undefined | Promise<string | undefined>;
}

const DEFAULT_MAX_LISTED_CHANGES = 50;

export interface SignerSummary {
  commonName: string | null;
  /** The UID attribute: the Careplane username. */
  username: string | null;
  email: string | null;
  serialNumber: string;
  /** SHA-256 of the certificate (hex). */
  fingerprint: string;
}

export interface SignatureReport {
  /** 1-based, in the order the signatures were made (by where their signed bytes end). */
  index: number;
  fieldName: string | null;
  subFilter: string | null;
  byteRange: number[] | null;
  signer: SignerSummary | null;
  signingTime: Date | null;
  /** Where the time comes from: a CMS signing-time attribute, or /M in the signed signature dictionary. */
  signingTimeSource: 'signed-attribute' | 'signature-dictionary' | null;
  intact: boolean;
  /** False when the signature uses a format this verifier does not check (a document timestamp, RSA-PSS…). */
  supported: boolean;
  coversWholeFile: boolean;
  laterRevisionAdded: boolean;
  /**
   * What the signature covers: bytes 0 to `bytes`, which are revision `revision` of `revisions` (revision 1 is
   * the file as the first signature covers it; each later incremental update is the next). `revision` is null
   * when those bytes are not a revision that can be read; `covers` is null when the byte range is unusable.
   */
  covers: { revision: number | null; revisions: number; bytes: number } | null;
  /** The DocMDP permission level when this is a certification signature. */
  certification: { permission: PermissionLevel } | null;
  /** What the later revisions changed, oldest first, each with whether this signature allows it. */
  changesAfter: ChangeReport[];
  /** A change this signature does not allow was made after it (a later signature does not undo that). */
  changedAfterSigning: boolean;
  chainsToPlatformCa: boolean;
  /**
   * The certificate chains to the CA, but the platform no longer vouches for its signer (`signerStanding`
   * answered a problem, the last of `problems`): the signature is not vouched for, however intact it is.
   */
  signerWithdrawn: boolean;
  /** SHA-256 (hex) of the file as it was when this signature was made (bytes 0 to the end of its range). */
  revisionDigest: string | null;
  knownToPlatform: boolean;
  /** What is wrong, in plain words; empty when nothing is. */
  problems: string[];
}

export interface ChangeReport {
  /** The revision whose update made the change; null when the changes could not be compared. */
  revision: number | null;
  kind: ChangeKind;
  /** What it did, to be read after "revision 2 of 3": "filled in form field "Name"". */
  description: string;
  allowed: boolean;
}

export type VerdictStatus =
  | 'authentic'
  | 'modified-after-signing'
  | 'untrusted'
  | 'unsupported'
  | 'tampered'
  | 'unsigned'
  | 'unreadable';

export interface VerificationReport {
  fileDigest: string;
  fileKnownToPlatform: boolean;
  signatures: SignatureReport[];
  /** Which changes are allowed after signing: a certification signature's DocMDP level, or the default (P=2). */
  allowedChanges: { level: PermissionLevel; certifiedBy: number | null; description: string };
  verdict: {
    status: VerdictStatus;
    summary: string;
    /** The earliest signature after which a change it does not allow was made, and that change. */
    changedAfter: { signature: number; revision: number | null; description: string } | null;
  };
}

const MAX_SIGNATURES = 64;
const MAX_FIELDS = 10_000;

const SIGNATURE_ALGORITHMS: Record<string, { type: 'ec' | 'rsa'; digest?: string }> = {
  [OIDS.ecdsaWithSha256]: { type: 'ec', digest: 'sha256' },
  [OIDS.ecdsaWithSha384]: { type: 'ec', digest: 'sha384' },
  [OIDS.ecdsaWithSha512]: { type: 'ec', digest: 'sha512' },
  [OIDS.ecPublicKey]: { type: 'ec' },
  [OIDS.sha256WithRsa]: { type: 'rsa', digest: 'sha256' },
  [OIDS.sha384WithRsa]: { type: 'rsa', digest: 'sha384' },
  [OIDS.sha512WithRsa]: { type: 'rsa', digest: 'sha512' },
  [OIDS.rsaEncryption]: { type: 'rsa' },
};

export async function verifyPdf(bytes: Uint8Array, options: VerifyPdfOptions): Promise<VerificationReport> {
  const ca = new X509Certificate(certificateDer(options.caCertificate, 'CA certificate'));
  const lookup = async (digest: string | null) => {
    if (!digest || !options.isKnownDigest) return false;
    return (await options.isKnownDigest(digest)) === true;
  };

  let found: FoundSignature[] = [];
  let structure: PdfStructure | undefined;
  let unreadable: string | undefined;
  try {
    structure = PdfStructure.read(bytes);
    found = findSignatures(structure);
  } catch (error) {
    // Whatever a hostile file does to the reader ends here, as a verdict, not as an exception.
    unreadable = error instanceof PdfStructureError ? error.message : 'its structure cannot be read';
  }
  const values = scanSignatureValues(bytes);
  if (unreadable !== undefined && values.length === 0) {
    const fileDigest = createHash('sha256').update(bytes).digest('hex');
    return {
      fileDigest,
      fileKnownToPlatform: await lookup(fileDigest),
      signatures: [],
      allowedChanges: defaultAllowedChanges(),
      verdict: {
        status: 'unreadable',
        summary: `Not a readable PDF: ${lowerFirst(unreadable)}.`,
        changedAfter: null,
      },
    };
  }

  // First the checks that need no hashing; then every digest in one pass over the file.
  const checked: Inspected[] = found.map((signature) => {
    try {
      const inspected = inspectSignature(bytes, signature);
      const level = signature.dict && structure ? certificationLevel(structure, signature.dict) : undefined;
      if (level !== undefined) inspected.report.certification = { permission: level };
      return inspected;
    } catch {
      const report = emptyReport(signature.fieldName);
      report.problems.push('The signature cannot be read');
      return { report };
    }
  });
  // The signed values the fields did not lead to.
  const reached = new Set(checked.map((entry) => entry.report.byteRange?.join(' ')));
  const unreached =
    unreadable === undefined
      ? 'Its signature field is no longer part of the document: the file was changed after it was signed'
      : `The file around it cannot be read (${lowerFirst(unreadable)}): it was changed after it was signed`;
  for (const value of values) {
    if (reached.has(value.byteRange.join(' ')) || checked.length >= MAX_SIGNATURES) continue;
    reached.add(value.byteRange.join(' '));
    checked.push(inspectSignatureValue(bytes, value, unreached));
  }
  const targets: DigestTarget[] = [{ algorithm: 'sha256', ranges: [[0, bytes.length]] }];
  const targetOf = checked.map((entry) => {
    if (!entry.ranges) return undefined;
    const first = targets.length;
    targets.push({ algorithm: entry.digestAlgorithm ?? 'sha256', ranges: entry.ranges });
    targets.push({ algorithm: 'sha256', ranges: [[0, entry.ranges[1]![1]]] });
    return first;
  });
  const digests = digestRanges(bytes, targets);
  const fileDigest = digests[0]!.toString('hex');

  const reports: SignatureReport[] = [];
  for (const [i, entry] of checked.entries()) {
    const target = targetOf[i];
    const report = entry.report;
    if (target !== undefined) {
      report.revisionDigest = digests[target + 1]!.toString('hex');
      if (entry.cms && entry.report.problems.length === 0) {
        checkCryptography(entry.cms, digests[target]!, report);
      } else if (entry.cms && entry.digestAlgorithm) {
        // A signature in a form this verifier does not check, or one found only by its value, still says which
        // bytes it signed: when they are not those bytes, they were changed, whatever else is true of it.
        if (entry.cms.messageDigest && Buffer.compare(entry.cms.messageDigest, digests[target]!) !== 0) {
          report.problems.unshift(CHANGED_BYTES);
          report.supported = true;
        }
      }
    }
    if (entry.unreached) report.problems.push(entry.unreached);
    report.intact = report.problems.length === 0;
    checkChain(entry.cms?.signerCertificate, ca, report);
    if (report.chainsToPlatformCa && entry.cms?.signerCertificate && options.signerStanding) {
      const problem = await options.signerStanding({
        certificateSha256: createHash('sha256').update(entry.cms.signerCertificate).digest('hex'),
        revisionSha256: report.revisionDigest,
        signingTime: report.signingTime,
      });
      if (problem !== undefined) {
        report.problems.push(problem);
        report.signerWithdrawn = true;
      }
    }
    report.knownToPlatform = await lookup(report.revisionDigest);
    reports.push(report);
  }
  reports.sort((a, b) => signedEnd(a) - signedEnd(b));
  reports.forEach((report, i) => (report.index = i + 1));
  const maxListed = Math.max(1, Math.floor(options.maxListedChanges ?? DEFAULT_MAX_LISTED_CHANGES));
  const allowedChanges = structure
    ? reviewChanges(bytes, structure, reports, maxListed)
    : defaultAllowedChanges();

  const fileKnownToPlatform = await lookup(fileDigest);
  return {
    fileDigest,
    fileKnownToPlatform,
    signatures: reports,
    allowedChanges,
    verdict: verdictOf(reports, bytes.length, fileKnownToPlatform),
  };
}

// ---------------------------------------------------------------------------------------------------------
// Finding signature fields

interface FoundSignature {
  fieldName: string | null;
  dict: PdfDict | undefined;
  /** Where the object holding the signature dictionary lies in the file; undefined if not at a file offset. */
  span: { start: number; end: number } | undefined;
  problem?: string;
}

/** Signature fields of the AcroForm (with /FT inherited down /Kids), each with its signature dictionary. */
function findSignatures(structure: PdfStructure): FoundSignature[] {
  const { dict: catalog } = structure.catalog();
  const acroForm = asDict(structure.resolve(catalog.get('AcroForm')));
  const found: FoundSignature[] = [];
  const seen = new Set<number>();
  let visited = 0;
  const visit = (
    value: PdfValue | undefined,
    inheritedType: string | undefined,
    holder: PdfRef | undefined,
    depth: number,
  ) => {
    if (depth > 32 || visited++ > MAX_FIELDS || found.length >= MAX_SIGNATURES) return;
    if (value instanceof PdfRef) {
      if (seen.has(value.num)) return;
      seen.add(value.num);
      holder = value;
    }
    const resolved = structure.resolve(value);
    const array = asArray(resolved);
    if (array) return array.forEach((item) => visit(item, inheritedType, holder, depth + 1));
    const field = asDict(resolved);
    if (!field) return;
    const type = asName(field.get('FT')) ?? inheritedType;
    const kids = field.get('Kids');
    if (kids !== undefined) visit(kids, type, holder, depth + 1);
    if (type !== 'Sig' || field.get('V') === undefined) return;
    const title = field.get('T');
    const fieldName = title instanceof PdfString ? title.text() : null;
    const v = field.get('V');
    // The signature dictionary's own object, or (written inline) the field object that holds it.
    const container = v instanceof PdfRef ? v : holder;
    const entry = container ? structure.entry(container.num) : undefined;
    const span = entry?.kind === 'offset' ? safeSpan(structure, entry.offset, container!.num) : undefined;
    const dict = asDict(structure.resolve(v));
    found.push({
      fieldName,
      dict,
      span,
      ...(dict ? {} : { problem: 'The signature field has no readable signature dictionary' }),
    });
  };
  visit(acroForm?.get('Fields'), undefined, undefined, 0);
  return found;
}

function safeSpan(structure: PdfStructure, offset: number, num: number) {
  try {
    const object = structure.parseObjectAt(offset);
    return object.num === num ? object.span : undefined;
  } catch {
    return undefined;
  }
}

/** A signature value as the bytes hold it: a /ByteRange whose gap is a hex string, wherever it is written. */
interface SignatureValue {
  byteRange: [number, number, number, number];
  /** The dictionary's /M, read from the bytes around the value (a literal D: date only). */
  time: Date | null;
}

const DICTIONARY_TIME = /\/M\s*\((D:[0-9Zz+\-']{4,24})\)/;

/** The /M of the dictionary that writes a /ByteRange at `at` and ends its gap at `gapEnd`, in its own bytes. */
function timeNear(buffer: Buffer, at: number, gapEnd: number): Date | null {
  const before = buffer.toString('latin1', Math.max(0, at - 256), at);
  const after = buffer.toString('latin1', gapEnd, Math.min(buffer.length, gapEnd + 256));
  const ownBefore = before.slice(before.lastIndexOf('<<') + 1);
  const ownAfter = after.split('>>')[0] ?? '';
  const match = DICTIONARY_TIME.exec(ownAfter) ?? DICTIONARY_TIME.exec(ownBefore);
  return match ? parsePdfDate(new PdfString(Buffer.from(match[1]!, 'latin1'))) : null;
}

const BYTE_RANGE = Buffer.from('/ByteRange');
const BYTE_RANGE_NUMBERS = /^\s*\[\s*(\d{1,12})\s+(\d{1,12})\s+(\d{1,12})\s+(\d{1,12})\s*\]/;

/**
 * Every signature value in the file's bytes. A signature's /Contents is never compressed (its byte range's gap
 * must be in the file), so neither is the dictionary beside it: the plain bytes show every one. Only a byte range
 * that starts at 0 and whose gap is a `<…>` string inside the file counts, so text about byte ranges does not.
 */
function scanSignatureValues(bytes: Uint8Array): SignatureValue[] {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
  const values: SignatureValue[] = [];
  for (let at = buffer.indexOf(BYTE_RANGE); at !== -1; at = buffer.indexOf(BYTE_RANGE, at + 1)) {
    if (values.length >= MAX_SIGNATURES) break;
    const after = at + BYTE_RANGE.length;
    const match = BYTE_RANGE_NUMBERS.exec(
      buffer.toString('latin1', after, Math.min(after + 64, buffer.length)),
    );
    if (!match) continue;
    const [start1, length1, start2, length2] = match.slice(1).map(Number) as [number, number, number, number];
    const gapStart = start1 + length1;
    const plausible =
      start1 === 0 &&
      gapStart < start2 - 1 &&
      start2 + length2 <= bytes.length &&
      bytes[gapStart] === 0x3c &&
      bytes[start2 - 1] === 0x3e;
    if (plausible)
      values.push({ byteRange: [start1, length1, start2, length2], time: timeNear(buffer, at, start2) });
  }
  return values;
}

/** A signature found by its value only: what it signed and who signed it, with why the document lost it. */
function inspectSignatureValue(bytes: Uint8Array, value: SignatureValue, unreached: string): Inspected {
  const report = emptyReport(null);
  const [, length1, start2, length2] = value.byteRange;
  report.byteRange = [...value.byteRange];
  report.coversWholeFile = start2 + length2 === bytes.length;
  report.laterRevisionAdded = !report.coversWholeFile;
  const ranges: Array<[number, number]> = [
    [0, length1],
    [start2, start2 + length2],
  ];
  const hex = Buffer.from(bytes.buffer, bytes.byteOffset + length1 + 1, start2 - length1 - 2).toString(
    'latin1',
  );
  let cms: SignedDataView | undefined;
  try {
    if (!/^[0-9a-fA-F]*$/.test(hex) || hex.length % 2 !== 0) throw new CmsFormatError('Not a hex string');
    cms = readSignedData(trimPadding(Buffer.from(hex, 'hex')));
  } catch {
    cms = undefined;
  }
  if (cms?.signerCertificate) report.signer = signerOf(cms.signerCertificate);
  if (cms?.signingTime) {
    report.signingTime = cms.signingTime;
    report.signingTimeSource = 'signed-attribute';
  } else if (value.time) {
    report.signingTime = value.time;
    report.signingTimeSource = 'signature-dictionary';
  }
  const digestAlgorithm = cms ? DIGEST_NAMES[cms.digestAlgorithm] : undefined;
  if (!cms) report.problems.push('The signature data is malformed');
  return {
    report,
    ranges,
    unreached,
    ...(cms ? { cms } : {}),
    ...(digestAlgorithm ? { digestAlgorithm } : {}),
  };
}

// ---------------------------------------------------------------------------------------------------------
// Checks

interface Inspected {
  report: SignatureReport;
  ranges?: Array<[number, number]>;
  digestAlgorithm?: 'sha256' | 'sha384' | 'sha512';
  cms?: SignedDataView;
  /** Found by its value only: why the document no longer leads to it, said after any other problem. */
  unreached?: string;
}

const CHANGED_BYTES = 'The signed bytes were changed: their digest does not match the signature';

function emptyReport(fieldName: string | null): SignatureReport {
  return {
    index: 0,
    fieldName,
    subFilter: null,
    byteRange: null,
    signer: null,
    signingTime: null,
    signingTimeSource: null,
    intact: false,
    supported: true,
    coversWholeFile: false,
    laterRevisionAdded: false,
    covers: null,
    certification: null,
    changesAfter: [],
    changedAfterSigning: false,
    chainsToPlatformCa: false,
    signerWithdrawn: false,
    revisionDigest: null,
    knownToPlatform: false,
    problems: [],
  };
}

/** Everything about one signature that needs no digest: where its bytes are and what its CMS says. */
function inspectSignature(bytes: Uint8Array, found: FoundSignature): Inspected {
  const report = emptyReport(found.fieldName);
  const fail = (problem: string): Inspected => {
    report.problems.push(problem);
    return { report };
  };
  if (found.problem || !found.dict) return fail(found.problem ?? 'No signature dictionary');
  const dict = found.dict;
  report.subFilter = asName(dict.get('SubFilter')) ?? null;

  const rawRange = asArray(dict.get('ByteRange'));
  const range = rawRange?.map((n) => asInteger(n));
  if (range) report.byteRange = range.map((n) => n ?? -1);
  if (!range || range.length !== 4 || range.some((n) => n === undefined || n < 0)) {
    return fail('The byte range is missing or malformed');
  }
  const [start1, length1, start2, length2] = range as [number, number, number, number];
  const gapStart = start1 + length1;
  const end = start2 + length2;
  if (end <= bytes.length) {
    report.coversWholeFile = end === bytes.length;
    report.laterRevisionAdded = end < bytes.length;
  }
  if (start1 !== 0) return fail('The signed bytes do not start at the beginning of the file');
  if (!(gapStart < start2)) return fail('The byte ranges overlap or are out of order');
  if (end > bytes.length) return fail('The byte range reaches beyond the end of the file');
  const ranges: Array<[number, number]> = [
    [0, gapStart],
    [start2, end],
  ];

  // The gap must be exactly this dictionary's /Contents, and the dictionary must lie inside the signed bytes.
  const contents = dict.get('Contents');
  if (!(contents instanceof PdfString)) return fail('The signature has no /Contents');
  if (!found.span) return fail('The signature dictionary is not stored where signed bytes can cover it');
  if (!(found.span.start < gapStart && start2 <= found.span.end && found.span.end <= end)) {
    return fail('The signature dictionary is not the one the signed bytes contain');
  }
  if (
    bytes[gapStart] !== 0x3c ||
    bytes[start2 - 1] !== 0x3e ||
    !gapMatches(bytes, gapStart + 1, start2 - 1, contents.bytes)
  ) {
    return fail("The byte range's gap is not the signature's /Contents");
  }

  let cms: SignedDataView;
  try {
    cms = readSignedData(trimPadding(contents.bytes));
  } catch (error) {
    if (!(error instanceof CmsFormatError || error instanceof DerError)) throw error;
    report.problems.push(`The signature data is malformed (${lowerFirst(error.message)})`);
    return { report, ranges };
  }
  if (cms.signerCertificate) report.signer = signerOf(cms.signerCertificate);
  const dictTime = parsePdfDate(dict.get('M'));
  if (cms.signingTime) {
    report.signingTime = cms.signingTime;
    report.signingTimeSource = 'signed-attribute';
  } else if (dictTime) {
    report.signingTime = dictTime;
    report.signingTimeSource = 'signature-dictionary';
  }
  const digestAlgorithm = DIGEST_NAMES[cms.digestAlgorithm];
  const unsupported = (problem: string) => {
    report.supported = false;
    report.problems.push(problem);
  };
  if (report.subFilter !== 'ETSI.CAdES.detached' && report.subFilter !== 'adbe.pkcs7.detached') {
    unsupported(`The signature format ${report.subFilter ?? '(none)'} is not one Careplane checks`);
  }
  if (!digestAlgorithm) unsupported('The digest algorithm is not one Careplane checks');
  if (cms.hasContent) unsupported('The signature is not detached from the document');
  if (!cms.signedAttributes) unsupported('The signature has no signed attributes');
  if (!cms.signerCertificate) report.problems.push("The signer's certificate is not in the signature");
  return { report, ranges, cms, ...(digestAlgorithm ? { digestAlgorithm } : {}) };
}

/** The message digest, the CMS signature and the certificate binding. */
function checkCryptography(cms: SignedDataView, digest: Buffer, report: SignatureReport): void {
  if (cms.contentType !== OIDS.data) report.problems.push('The signed content type is not data');
  if (!cms.messageDigest || Buffer.compare(cms.messageDigest, digest) !== 0)
    report.problems.push(CHANGED_BYTES);
  const certificate = cms.signerCertificate!;
  const algorithm = SIGNATURE_ALGORITHMS[cms.signatureAlgorithm];
  let valid = false;
  try {
    const key = new X509Certificate(certificate).publicKey;
    if (algorithm && key.asymmetricKeyType === algorithm.type) {
      const hash = algorithm.digest ?? DIGEST_NAMES[cms.digestAlgorithm];
      valid = verifySignature(
        hash ?? 'sha256',
        cms.signedAttributes!,
        algorithm.type === 'ec' ? { key, dsaEncoding: 'der' } : key,
        cms.signature,
      );
    } else if (!algorithm) {
      report.supported = false;
      report.problems.push('The signature algorithm is not one Careplane checks');
      return;
    }
  } catch {
    valid = false;
  }
  if (!valid) report.problems.push("The signature does not verify with the signer's certificate");
  if (cms.signingCertificateV2) {
    const named = cms.signingCertificateV2.some(({ algorithm: hashOid, hash }) => {
      const name = DIGEST_NAMES[hashOid];
      return name !== undefined && Buffer.compare(createHash(name).update(certificate).digest(), hash) === 0;
    });
    if (!named) report.problems.push('The embedded certificate is not the one the signer signed with');
  }
}

function checkChain(
  certificateBytes: Uint8Array | undefined,
  ca: X509Certificate,
  report: SignatureReport,
): void {
  if (!certificateBytes) return;
  try {
    const certificate = new X509Certificate(certificateBytes);
    const problem = (() => {
      if (!certificate.checkIssued(ca) || !certificate.verify(ca.publicKey)) {
        return 'The certificate was not issued by the Careplane document signing CA';
      }
      if (certificate.ca) return 'The signer certificate is a CA certificate';
      const time = report.signingTime?.getTime();
      if (time === undefined) return 'The signing time is unknown, so the certificate cannot be checked';
      if (time < Date.parse(certificate.validFrom) || time > Date.parse(certificate.validTo)) {
        return 'The certificate was not valid at the signing time';
      }
      if (time < Date.parse(ca.validFrom) || time > Date.parse(ca.validTo)) {
        return 'The CA certificate was not valid at the signing time';
      }
      return undefined;
    })();
    if (problem) report.problems.push(problem);
    else report.chainsToPlatformCa = true;
  } catch {
    report.problems.push('The signer certificate cannot be read');
  }
}

// ---------------------------------------------------------------------------------------------------------
// Changes after each signature

function defaultAllowedChanges(): VerificationReport['allowedChanges'] {
  return {
    level: DEFAULT_PERMISSION,
    certifiedBy: null,
    description: `${permissionText[DEFAULT_PERMISSION]} (no certification signature: the default)`,
  };
}

/** Where a signature's byte range ends, when it is four usable numbers inside the file. */
function usableEnd(report: SignatureReport, fileLength: number): number | undefined {
  const range = report.byteRange;
  if (!range || range.length !== 4 || range.some((n) => n < 0)) return undefined;
  const end = range[2]! + range[3]!;
  return end > 0 && end <= fileLength ? end : undefined;
}

/**
 * Fills in what each signature covers and what was changed after it, and answers which changes are allowed.
 * The revisions from the first signed one on are read once each; every update is compared with the revision
 * before it and its changes classified (pdf-changes.ts); a signature then lists the changes of every revision
 * after its own, each judged by the permission level in force (a certification signature before it, else P=2).
 */
function reviewChanges(
  bytes: Uint8Array,
  structure: PdfStructure,
  reports: SignatureReport[],
  maxListed: number,
): VerificationReport['allowedChanges'] {
  const ends = reports.map((report) => usableEnd(report, bytes.length));
  const known = ends.filter((end): end is number => end !== undefined);
  let allowed = defaultAllowedChanges();
  if (known.length === 0) return allowed;

  let changes: Change[] = [];
  let revisionOf: (end: number) => number | null = () => null;
  let revisions = 0;
  let unreadable = 'the signed bytes are not a complete revision of the file';
  try {
    const history = readRevisions(bytes, structure, Math.min(...known), known);
    revisions = history.revisions.length;
    revisionOf = (end) => history.revisionAt(end)?.number ?? null;
    if (history.incomplete) unreadable = history.incomplete;
    const budget = newWalkBudget();
    const maps = new Map<number, DocumentMap>();
    const mapOf = (i: number) => {
      let map = maps.get(i);
      if (!map) {
        map = mapDocument(history.revisions[i]!.structure, budget);
        maps.set(i, map);
      }
      return map;
    };
    for (let i = 1; i < history.revisions.length; i++) {
      const before = history.revisions[i - 1]!;
      const after = history.revisions[i]!;
      const comparison = compareRevisions(before.structure, after.structure, budget);
      if (comparison.kind === 'not-compared') {
        changes.push({ revision: after.number, kind: 'other', description: comparison.reason });
      } else if (comparison.changed.length > 0) {
        changes.push(
          ...classifyUpdate({
            revision: after.number,
            before: before.structure,
            after: after.structure,
            mapBefore: mapOf(i - 1),
            mapAfter: mapOf(i),
            changed: comparison.changed,
          }),
        );
      }
    }
    if (history.incomplete) {
      changes.push({
        revision: null,
        kind: 'other',
        description: `could not be compared: ${history.incomplete}`,
      });
    }
  } catch {
    // Nothing in a file should get here; if something does, the changes are unknown, never fine.
    changes = [
      { revision: null, kind: 'other', description: 'could not be compared: the file cannot be read' },
    ];
    unreadable = 'the file cannot be read';
  }

  // The permission level in force for a revision: the strictest certification signed before it.
  const certifications = reports.flatMap((report, i) => {
    const end = ends[i];
    const revision = end === undefined ? null : revisionOf(end);
    return report.certification && revision !== null
      ? [{ index: report.index, revision, level: report.certification.permission }]
      : [];
  });
  const levelFor = (revision: number | null): PermissionLevel => {
    const inForce = certifications.filter(
      (certification) => revision !== null && certification.revision < revision,
    );
    if (inForce.length === 0) return DEFAULT_PERMISSION;
    return Math.min(...inForce.map((certification) => certification.level)) as PermissionLevel;
  };
  const strictest = [...certifications].sort((x, y) => x.level - y.level)[0];
  if (strictest) {
    allowed = {
      level: strictest.level,
      certifiedBy: strictest.index,
      description: `${permissionText[strictest.level]} (certified by signature ${strictest.index})`,
    };
  }

  const describe = (change: Change): string => {
    if (change.kind === 'signature') {
      const signature = reports.find((report) => report.fieldName === change.field);
      return signature
        ? `added signature ${signature.index} (${signature.signer?.commonName ?? 'an unknown signer'})${change.description}`
        : `added a signature in field "${change.field ?? ''}"${change.description}`;
    }
    if (change.kind === 'signature-field') {
      return `added an empty signature field "${change.field ?? ''}"${change.description}`;
    }
    return change.description;
  };

  reports.forEach((report, i) => {
    const end = ends[i];
    if (end === undefined) return;
    const revision = revisionOf(end);
    report.covers = { revision, revisions, bytes: end };
    const listed: ChangeReport[] =
      revision === null
        ? [
            {
              revision: null,
              kind: 'other',
              description: `could not be compared: ${unreadable}`,
              allowed: false,
            },
          ]
        : changes
            .filter((change) => change.revision === null || change.revision > revision)
            .map((change) => ({
              revision: change.revision,
              kind: change.kind,
              description: describe(change),
              allowed: isAllowed(change.kind, levelFor(change.revision)),
            }));
    report.changesAfter = limitChanges(listed, maxListed);
    report.changedAfterSigning = listed.some((change) => !change.allowed);
  });
  return allowed;
}

/** At most `max`, the ones not allowed first to keep; the rest summed up in one entry. */
function limitChanges(changes: ChangeReport[], max: number): ChangeReport[] {
  if (changes.length <= max) return changes;
  const keep = new Set(
    [...changes.filter((change) => !change.allowed), ...changes.filter((change) => change.allowed)].slice(
      0,
      max - 1,
    ),
  );
  const rest = changes.filter((change) => !keep.has(change));
  return [
    ...changes.filter((change) => keep.has(change)),
    {
      revision: null,
      kind: rest.every((change) => change.allowed) ? rest[0]!.kind : 'other',
      description: `made ${rest.length} further changes`,
      allowed: rest.every((change) => change.allowed),
    },
  ];
}

// ---------------------------------------------------------------------------------------------------------
// Verdict

function verdictOf(
  reports: SignatureReport[],
  fileLength: number,
  fileKnown: boolean,
): VerificationReport['verdict'] {
  const who = (report: SignatureReport) => {
    const name = report.signer?.commonName ?? 'an unknown signer';
    const id = report.signer?.username ?? report.signer?.email;
    return id ? `${name} (${id})` : name;
  };
  const revisionText = (report: SignatureReport, change: ChangeReport) =>
    `revision ${change.revision} of ${report.covers?.revisions ?? '?'}`;
  const verdict = (status: VerdictStatus, summary: string): VerificationReport['verdict'] => ({
    status,
    summary,
    changedAfter: null,
  });
  const known = fileKnown
    ? ' Careplane completed this exact file.'
    : reports.some((report) => report.knownToPlatform)
      ? ' Careplane completed a signed version of this document.'
      : '';
  if (reports.length === 0) return verdict('unsigned', 'Not signed: the file contains no signatures.');
  const broken = reports.find((report) => !report.intact && report.supported);
  if (broken) {
    return verdict(
      'tampered',
      `Tampered or damaged: signature ${broken.index} (${who(broken)}) does not hold: ${lowerFirst(broken.problems[0] ?? 'it cannot be checked')}. Do not rely on this document.`,
    );
  }
  // A change a signature does not allow, whatever was signed after it.
  const changed = reports.find((report) => report.changedAfterSigning);
  if (changed) {
    const change = changed.changesAfter.find((entry) => !entry.allowed)!;
    const later = reports.filter((report) => report.index > changed.index);
    const certification = reports.find(
      (report) => report.certification && report.index <= changed.index,
    )?.certification;
    const forbiddenHere = change.kind !== 'other' && certification;
    const reason = forbiddenHere
      ? `, which the certification signature does not allow (it allows ${permissionText[certification.permission]})`
      : '';
    // Only a later signature nothing was changed after vouches for the file as it is; one the change came
    // after as well vouches for nothing of it, and the words must not let it seem to.
    const vouching = later.filter((report) => !report.changedAfterSigning);
    const afterwards = vouching.length
      ? ` ${vouching.length === 1 ? 'The later signature vouches' : 'Later signatures vouch'} only for what ${vouching.length === 1 ? 'its signer' : 'their signers'} signed, not for what ${changed.signer?.commonName ?? 'the earlier signer'} signed.`
      : later.length
        ? ` The change also came after ${later.length === 1 ? 'the later signature' : 'every later signature'}.`
        : '';
    const summary =
      change.revision === null
        ? `Cannot tell what changed after ${who(changed)} signed: the changes ${change.description}.${afterwards}`
        : `Changed after ${who(changed)} signed: ${revisionText(changed, change)} ${change.description}${reason}.${afterwards}`;
    return {
      status: 'modified-after-signing',
      summary,
      changedAfter: { signature: changed.index, revision: change.revision, description: change.description },
    };
  }
  const unchecked = reports.find((report) => !report.supported);
  if (unchecked) {
    return verdict(
      'unsupported',
      `Not verifiable: signature ${unchecked.index} (${who(unchecked)}) is in a form Careplane does not check (${lowerFirst(unchecked.problems[0] ?? 'unknown format')}). Do not rely on it as signed.`,
    );
  }
  const foreign = reports.find((report) => !report.chainsToPlatformCa || report.signerWithdrawn);
  if (foreign) {
    // A certificate that chains was let down by its signer's standing, whose problem comes last.
    const problem = foreign.chainsToPlatformCa ? foreign.problems.at(-1) : foreign.problems[0];
    return verdict(
      'untrusted',
      `The signed bytes are intact, but signature ${foreign.index} (${who(foreign)}) is not vouched for by Careplane: ${lowerFirst(problem ?? 'its certificate does not chain to the Careplane CA')}.`,
    );
  }
  const last = reports[reports.length - 1]!;
  let validationNote = '';
  if (!last.coversWholeFile) {
    const trailing = last.changesAfter;
    const shown = trailing.filter((change) => change.kind !== 'validation-data');
    if (trailing.length === 0) {
      const added = fileLength - signedEnd(last);
      return verdict(
        'modified-after-signing',
        `The signatures are intact, but the file was changed after the last signature (${added} bytes were added after it).${known}`,
      );
    }
    if (shown.length > 0) {
      const list = shown.map((change) => `${revisionText(last, change)} ${change.description}`).join('; ');
      const one = shown.length === 1;
      return verdict(
        'modified-after-signing',
        `The signatures are intact, but the file was changed after ${who(last)} signed last: ${list}. The signatures allow ${one ? 'this change' : 'these changes'}, but nobody signed ${one ? 'it' : 'them'}.${known}`,
      );
    }
    validationNote = ' Validation data for the signatures was added after the last signature.';
  }
  const signed = reports.map((report) => `${who(report)} on ${formatTime(report.signingTime)}`);
  const between = reports[0]!.changesAfter.filter(
    (change) =>
      change.kind !== 'signature' &&
      change.kind !== 'validation-data' &&
      change.revision !== null &&
      change.revision <= (last.covers?.revision ?? 0),
  );
  const betweenNote = between.length
    ? ` Between the signatures, changes the signatures allow: ${between.map((change) => `${revisionText(last, change)} ${change.description}`).join('; ')}.`
    : '';
  return verdict(
    'authentic',
    `Authentic and untampered: signed by ${signed.join(', then by ')}.${betweenNote}${validationNote}${known}`,
  );
}

// ---------------------------------------------------------------------------------------------------------
// Helpers

function signerOf(der: Uint8Array): SignerSummary | null {
  try {
    const certificate = new x509.X509Certificate(der);
    const field = (id: string) => certificate.subjectName.getField(id)[0] ?? null;
    const san = certificate.getExtension(x509.SubjectAlternativeNameExtension);
    const sanEmail = san?.names.items.find((name) => name.type === 'email')?.value ?? null;
    return {
      commonName: field('2.5.4.3'),
      username: field('0.9.2342.19200300.100.1.1'),
      email: field('1.2.840.113549.1.9.1') ?? sanEmail,
      serialNumber: certificate.serialNumber,
      fingerprint: createHash('sha256').update(der).digest('hex'),
    };
  } catch {
    return null;
  }
}

/** /Contents is zero-padded to its reserved size: the CMS is the first DER element. */
function trimPadding(contents: Uint8Array): Uint8Array {
  const element = readDer(contents);
  for (let i = element.end; i < contents.length; i++) {
    if (contents[i] !== 0) throw new CmsFormatError('Data after the signature');
  }
  return contents.subarray(0, element.end);
}

function gapMatches(bytes: Uint8Array, start: number, end: number, expected: Uint8Array): boolean {
  if ((end - start) % 2 !== 0 || (end - start) / 2 !== expected.length) return false;
  const text = Buffer.from(bytes.buffer, bytes.byteOffset + start, end - start).toString('latin1');
  if (!/^[0-9a-fA-F]*$/.test(text)) return false;
  return Buffer.compare(Buffer.from(text, 'hex'), expected) === 0;
}

/** D:YYYYMMDDHHmmSSOHH'mm' with every part after the year optional (ISO 32000-1 §7.9.4). */
export function parsePdfDate(value: PdfValue | undefined): Date | null {
  if (!(value instanceof PdfString)) return null;
  const match =
    /^D:(\d{4})(\d{2})?(\d{2})?(\d{2})?(\d{2})?(\d{2})?(?:([Zz+-])(?:(\d{2})'?(?:(\d{2})'?)?)?)?$/.exec(
      value.text().trim(),
    );
  if (!match) return null;
  const [, y, mo = '01', d = '01', h = '00', mi = '00', s = '00', sign, oh = '00', om = '00'] = match;
  let time = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s));
  if (sign === '+' || sign === '-') {
    const offset = (Number(oh) * 60 + Number(om)) * 60_000;
    time += sign === '+' ? -offset : offset;
  }
  return Number.isNaN(time) ? null : new Date(time);
}

/** 23.11.2026 14:02 UTC: the product's date format with hour and zone. */
export function formatTime(date: Date | null): string {
  if (!date) return 'an unknown date';
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(date.getUTCDate())}.${pad(date.getUTCMonth() + 1)}.${date.getUTCFullYear()} ${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())} UTC`;
}

/** Where a signature's signed bytes end (its revision's length). */
const signedEnd = (report: SignatureReport) => (report.byteRange?.[2] ?? 0) + (report.byteRange?.[3] ?? 0);

const lowerFirst = (text: string) => text.charAt(0).toLowerCase() + text.slice(1);
