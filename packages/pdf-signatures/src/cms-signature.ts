// CMS SignedData (RFC 5652) for PDF signatures: the signed attributes a phone signs, the detached SignedData
// assembled around its signature (CAdES-BES as PAdES baseline B-B profiles it, ETSI EN 319 142-1 §6.3), and a
// defensive reader for SignedData found in any file. Written on the DER module so that the exact signed bytes
// are kept, never re-encoded.
import { createHash } from 'node:crypto';
import {
  children,
  contentBytes,
  decodeOid,
  decodeTime,
  DerError,
  type DerNode,
  expectTag,
  explicit,
  octetString,
  oid,
  rawBytes,
  readDer,
  sequence,
  setOf,
  smallInteger,
  sortDer,
  TAG,
  tlv,
  unsignedInteger,
} from './der-encoding.js';

export const OIDS = {
  data: '1.2.840.113549.1.7.1',
  signedData: '1.2.840.113549.1.7.2',
  contentType: '1.2.840.113549.1.9.3',
  messageDigest: '1.2.840.113549.1.9.4',
  signingTime: '1.2.840.113549.1.9.5',
  signingCertificateV2: '1.2.840.113549.1.9.16.2.47',
  sha256: '2.16.840.1.101.3.4.2.1',
  sha384: '2.16.840.1.101.3.4.2.2',
  sha512: '2.16.840.1.101.3.4.2.3',
  ecdsaWithSha256: '1.2.840.10045.4.3.2',
  ecdsaWithSha384: '1.2.840.10045.4.3.3',
  ecdsaWithSha512: '1.2.840.10045.4.3.4',
  ecPublicKey: '1.2.840.10045.2.1',
  rsaEncryption: '1.2.840.113549.1.1.1',
  sha256WithRsa: '1.2.840.113549.1.1.11',
  sha384WithRsa: '1.2.840.113549.1.1.12',
  sha512WithRsa: '1.2.840.113549.1.1.13',
  subjectKeyIdentifier: '2.5.29.14',
} as const;

export const DIGEST_NAMES: Record<string, 'sha256' | 'sha384' | 'sha512'> = {
  [OIDS.sha256]: 'sha256',
  [OIDS.sha384]: 'sha384',
  [OIDS.sha512]: 'sha512',
};

export class CmsFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CmsFormatError';
  }
}

// ---------------------------------------------------------------------------------------------------------
// Certificates: the few fields CMS refers to, taken from the certificate's own bytes.

export interface CertificateParts {
  issuer: Uint8Array;
  serialNumber: Uint8Array;
  subjectKeyIdentifier?: Uint8Array;
}

export function certificateParts(der: Uint8Array): CertificateParts {
  try {
    const certificate = expectTag(readDer(der), TAG.sequence, 'a certificate');
    const tbs = children(expectTag(children(certificate)[0], TAG.sequence, 'a TBSCertificate'));
    let i = tbs[0]?.tag === 0xa0 ? 1 : 0; // [0] version
    const serial = expectTag(tbs[i++], TAG.integer, 'a serial number');
    i++; // signature algorithm
    const issuer = expectTag(tbs[i++], TAG.sequence, 'an issuer name');
    const parts: CertificateParts = { issuer: rawBytes(issuer), serialNumber: rawBytes(serial) };
    const extensions = tbs.find((node) => node.tag === 0xa3);
    if (extensions) {
      for (const extension of children(expectTag(children(extensions)[0], TAG.sequence, 'extensions'))) {
        const fields = children(extension);
        if (decodeOid(fields[0]!) !== OIDS.subjectKeyIdentifier) continue;
        const value = readDer(contentBytes(expectTag(fields.at(-1), TAG.octetString, 'an extension value')));
        parts.subjectKeyIdentifier = contentBytes(expectTag(value, TAG.octetString, 'a key identifier'));
      }
    }
    return parts;
  } catch (error) {
    if (error instanceof DerError) throw new CmsFormatError(`Malformed certificate: ${error.message}`);
    throw error;
  }
}

// ---------------------------------------------------------------------------------------------------------
// Writing

const algorithm = (dotted: string) => sequence(oid(dotted));
const attribute = (type: string, ...values: Uint8Array[]) => sequence(oid(type), setOf(...values));

/**
 * The DER SET of signed attributes the signer's key signs (ECDSA with SHA-256 over these bytes): content type
 * (data), the message digest of the PDF's byte ranges, and signing-certificate-v2 binding the signer's
 * certificate. No signing-time: PAdES baseline forbids it; the claimed time is the signature dictionary's /M,
 * which the byte ranges cover.
 */
export function buildSignedAttributes(input: {
  messageDigest: Uint8Array;
  signerCertificate: Uint8Array;
}): Uint8Array {
  const signer = certificateParts(input.signerCertificate);
  const certHash = createHash('sha256').update(input.signerCertificate).digest();
  // ESSCertIDv2 { certHash, issuerSerial { issuer GeneralNames { [4] directoryName }, serialNumber } };
  // hashAlgorithm is SHA-256, the DEFAULT, and so left out as DER requires.
  const essCertIdV2 = sequence(
    octetString(certHash),
    sequence(sequence(explicit(4, signer.issuer)), signer.serialNumber),
  );
  return setOf(
    attribute(OIDS.contentType, oid(OIDS.data)),
    attribute(OIDS.messageDigest, octetString(input.messageDigest)),
    attribute(OIDS.signingCertificateV2, sequence(sequence(essCertIdV2))),
  );
}

/**
 * An ECDSA signature as DER (the form CMS carries). Accepts WebCrypto's IEEE P1363 form (r‖s, 64 bytes for
 * P-256) or DER already; anything else is refused.
 */
export function ecdsaSignatureToDer(signature: Uint8Array): Uint8Array {
  if (signature.length === 64) {
    return sequence(unsignedInteger(signature.subarray(0, 32)), unsignedInteger(signature.subarray(32)));
  }
  try {
    const node = expectTag(readDer(signature), TAG.sequence, 'an ECDSA signature');
    const [r, s, extra] = children(node);
    expectTag(r, TAG.integer, 'r');
    expectTag(s, TAG.integer, 's');
    if (extra || node.end !== signature.length || node.contentEnd !== node.end)
      throw new DerError('trailing data');
    return signature;
  } catch {
    throw new CmsFormatError('The signature is neither P1363 (64 bytes) nor a DER ECDSA signature');
  }
}

/** A detached SignedData (ContentInfo) around a signature over `signedAttributes`, with the certificates. */
export function buildSignedData(input: {
  signedAttributes: Uint8Array;
  signature: Uint8Array;
  signerCertificate: Uint8Array;
  certificates: Uint8Array[];
}): Uint8Array {
  const signer = certificateParts(input.signerCertificate);
  const attributes = readDer(input.signedAttributes);
  if (attributes.tag !== TAG.set || attributes.end !== input.signedAttributes.length) {
    throw new CmsFormatError('The signed attributes are not one DER SET');
  }
  const signerInfo = sequence(
    smallInteger(1),
    sequence(signer.issuer, signer.serialNumber),
    algorithm(OIDS.sha256),
    // [0] IMPLICIT: the same content under a context tag; the signature covers the SET form.
    tlv(0xa0, contentBytes(attributes)),
    algorithm(OIDS.ecdsaWithSha256),
    octetString(input.signature),
  );
  const certificates = [
    input.signerCertificate,
    ...input.certificates.filter((c) => c !== input.signerCertificate),
  ];
  const signedData = sequence(
    smallInteger(1),
    setOf(algorithm(OIDS.sha256)),
    sequence(oid(OIDS.data)),
    tlv(0xa0, ...sortDer(certificates)),
    setOf(signerInfo),
  );
  return sequence(oid(OIDS.signedData), explicit(0, signedData));
}

// ---------------------------------------------------------------------------------------------------------
// Reading

export interface SignedDataView {
  digestAlgorithm: string;
  signatureAlgorithm: string;
  signature: Uint8Array;
  /** The signed attributes as the signature covers them (the SET form); undefined when there are none. */
  signedAttributes?: Uint8Array;
  contentType?: string;
  messageDigest?: Uint8Array;
  signingTime?: Date;
  /** Hashes of ESSCertIDv2 entries, with their algorithm. */
  signingCertificateV2?: { algorithm: string; hash: Uint8Array }[];
  /** The certificate the signer identifier names, as embedded; undefined when none matches. */
  signerCertificate?: Uint8Array;
  certificates: Uint8Array[];
  /** SignedData with an embedded content is not a detached signature. */
  hasContent: boolean;
}

/** Reads the first signer of a ContentInfo/SignedData. Throws CmsFormatError on anything malformed. */
export function readSignedData(der: Uint8Array): SignedDataView {
  try {
    return readSignedDataUnchecked(der);
  } catch (error) {
    if (error instanceof DerError) throw new CmsFormatError(`Malformed CMS: ${error.message}`);
    throw error;
  }
}

function readSignedDataUnchecked(der: Uint8Array): SignedDataView {
  const contentInfo = children(expectTag(readDer(der), TAG.sequence, 'a ContentInfo'));
  if (decodeOid(contentInfo[0]!) !== OIDS.signedData) throw new CmsFormatError('Not a CMS SignedData');
  const wrapper = expectTag(contentInfo[1], 0xa0, 'SignedData content');
  const fields = children(expectTag(children(wrapper)[0], TAG.sequence, 'SignedData'));
  let i = 1; // version
  i++; // digestAlgorithms
  const encap = children(expectTag(fields[i++], TAG.sequence, 'EncapsulatedContentInfo'));
  const hasContent = encap.length > 1;
  const certificates: Uint8Array[] = [];
  if (fields[i]?.tag === 0xa0) {
    for (const certificate of children(fields[i++]!)) {
      if (certificate.tag === TAG.sequence) certificates.push(rawBytes(certificate));
    }
  }
  if (fields[i]?.tag === 0xa1) i++; // CRLs
  const signerInfos = children(expectTag(fields[i], TAG.set, 'SignerInfos'));
  if (signerInfos.length === 0) throw new CmsFormatError('The SignedData has no signer');
  const signerFields = children(expectTag(signerInfos[0], TAG.sequence, 'SignerInfo'));
  let j = 1; // version
  const sid = signerFields[j++]!;
  const digestAlgorithm = decodeOid(
    children(expectTag(signerFields[j++], TAG.sequence, 'digest algorithm'))[0]!,
  );
  const view: SignedDataView = {
    digestAlgorithm,
    signatureAlgorithm: '',
    signature: new Uint8Array(0),
    certificates,
    hasContent,
  };
  if (signerFields[j]?.tag === 0xa0) {
    const attrs = signerFields[j++]!;
    const set = Uint8Array.from(rawBytes(attrs));
    set[0] = TAG.set;
    view.signedAttributes = set;
    readAttributes(children(attrs), view);
  }
  view.signatureAlgorithm = decodeOid(
    children(expectTag(signerFields[j++], TAG.sequence, 'signature algorithm'))[0]!,
  );
  view.signature = contentBytes(expectTag(signerFields[j++], TAG.octetString, 'a signature value'));
  view.signerCertificate = findSignerCertificate(sid, certificates);
  return view;
}

function readAttributes(attributes: DerNode[], view: SignedDataView): void {
  const seen = new Set<string>();
  for (const attribute of attributes) {
    const [typeNode, valuesNode] = children(expectTag(attribute, TAG.sequence, 'an attribute'));
    const type = decodeOid(typeNode!);
    const values = children(expectTag(valuesNode, TAG.set, 'attribute values'));
    // RFC 5652 §11: these attributes carry exactly one value and appear once.
    if (seen.has(type)) throw new CmsFormatError(`Signed attribute ${type} appears twice`);
    seen.add(type);
    const single = () => {
      if (values.length !== 1) throw new CmsFormatError(`Signed attribute ${type} must have one value`);
      return values[0]!;
    };
    switch (type) {
      case OIDS.contentType:
        view.contentType = decodeOid(single());
        break;
      case OIDS.messageDigest:
        view.messageDigest = contentBytes(expectTag(single(), TAG.octetString, 'a message digest'));
        break;
      case OIDS.signingTime:
        view.signingTime = decodeTime(single());
        break;
      case OIDS.signingCertificateV2: {
        const certs = children(
          expectTag(
            children(expectTag(single(), TAG.sequence, 'SigningCertificateV2'))[0],
            TAG.sequence,
            'certs',
          ),
        );
        view.signingCertificateV2 = certs.map((id) => {
          const parts = children(expectTag(id, TAG.sequence, 'ESSCertIDv2'));
          const hasAlgorithm = parts[0]?.tag === TAG.sequence;
          return {
            algorithm: hasAlgorithm ? decodeOid(children(parts[0]!)[0]!) : OIDS.sha256,
            hash: contentBytes(expectTag(parts[hasAlgorithm ? 1 : 0], TAG.octetString, 'a certificate hash')),
          };
        });
        break;
      }
      default:
        break;
    }
  }
}

function findSignerCertificate(sid: DerNode, certificates: Uint8Array[]): Uint8Array | undefined {
  if (sid.tag === TAG.sequence) {
    const [issuer, serial] = children(sid);
    if (!issuer || !serial) throw new CmsFormatError('Malformed IssuerAndSerialNumber');
    return certificates.find((certificate) => {
      try {
        const parts = certificateParts(certificate);
        return equal(parts.issuer, rawBytes(issuer)) && equal(parts.serialNumber, rawBytes(serial));
      } catch {
        return false;
      }
    });
  }
  if (sid.tag === 0x80) {
    const keyId = contentBytes(sid);
    return certificates.find((certificate) => {
      try {
        const ski = certificateParts(certificate).subjectKeyIdentifier;
        return ski !== undefined && equal(ski, keyId);
      } catch {
        return false;
      }
    });
  }
  throw new CmsFormatError('Unknown signer identifier');
}

const equal = (a: Uint8Array, b: Uint8Array) => Buffer.compare(a, b) === 0;
