// What an authenticator checks before it signs a document: the DER SignedAttributes of a PAdES signature
// (ETSI EN 319 142-1 baseline B-B, as the server's pdf-signing prepares them). The phone signs these bytes with
// the user's key, so it must be sure they are a document signature and nothing else: a SET holding exactly
// content-type = id-data, a 32-byte message digest and signing-certificate-v2 naming the certificate the
// request announced. A tiny strict DER reader, pure TypeScript, for the PWA, the CLI and the server alike.

/** Signed attributes are about 200 bytes; anything near this bound is not ours. */
export const MAX_SIGNED_ATTRIBUTES_BYTES = 1024;

const OID_CONTENT_TYPE = '1.2.840.113549.1.9.3';
const OID_MESSAGE_DIGEST = '1.2.840.113549.1.9.4';
const OID_SIGNING_CERTIFICATE_V2 = '1.2.840.113549.1.9.16.2.47';
const OID_DATA = '1.2.840.113549.1.7.1';
const OID_SHA256 = '2.16.840.1.101.3.4.2.1';

const TAG_INTEGER = 0x02;
const TAG_OCTET_STRING = 0x04;
const TAG_NULL = 0x05;
const TAG_OID = 0x06;
const TAG_SEQUENCE = 0x30;
const TAG_SET = 0x31;

export class SignedAttributesError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SignedAttributesError';
  }
}

interface Node {
  tag: number;
  /** The whole element (tag, length, content). */
  start: number;
  end: number;
  content: Uint8Array;
}

/** One DER element at `offset`: definite, minimal lengths only; never reads past `limit`. */
function readNode(bytes: Uint8Array, offset: number, limit: number): Node {
  const fail = (why: string) => new SignedAttributesError(`Not DER: ${why}`);
  if (offset + 2 > limit) throw fail('truncated element');
  const tag = bytes[offset]!;
  if ((tag & 0x1f) === 0x1f) throw fail('multi-byte tags are not expected');
  let at = offset + 1;
  const first = bytes[at++]!;
  let length: number;
  if (first < 0x80) {
    length = first;
  } else {
    const count = first & 0x7f;
    if (count === 0) throw fail('indefinite length');
    if (count > 2) throw fail('length too large');
    if (at + count > limit) throw fail('truncated length');
    length = 0;
    for (let i = 0; i < count; i++) length = (length << 8) | bytes[at++]!;
    if (length < 0x80 || (count === 2 && length < 0x100)) throw fail('length not minimally encoded');
  }
  if (at + length > limit) throw fail('element runs past its container');
  return { tag, start: offset, end: at + length, content: bytes.subarray(at, at + length) };
}

/** The elements inside a constructed element's content, which they must fill exactly. */
function childrenOf(node: Node): Node[] {
  const out: Node[] = [];
  let at = 0;
  while (at < node.content.length) {
    const child = readNode(node.content, at, node.content.length);
    out.push(child);
    at = child.end;
    if (out.length > 16) throw new SignedAttributesError('Not DER: too many elements');
  }
  return out;
}

function expect(node: Node | undefined, tag: number, what: string): Node {
  if (!node || node.tag !== tag) throw new SignedAttributesError(`Expected ${what}`);
  return node;
}

function decodeOid(node: Node): string {
  const bytes = node.content;
  if (bytes.length === 0 || bytes.length > 32) throw new SignedAttributesError('Malformed object identifier');
  const parts: number[] = [];
  let value = 0;
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i]!;
    if (value === 0 && byte === 0x80) throw new SignedAttributesError('Malformed object identifier');
    value = value * 128 + (byte & 0x7f);
    if (value > Number.MAX_SAFE_INTEGER / 128) throw new SignedAttributesError('Malformed object identifier');
    if ((byte & 0x80) === 0) {
      parts.push(value);
      value = 0;
    } else if (i === bytes.length - 1) {
      throw new SignedAttributesError('Malformed object identifier');
    }
  }
  const first = parts.shift()!;
  const head = first < 40 ? [0, first] : first < 80 ? [1, first - 40] : [2, first - 80];
  return [...head, ...parts].join('.');
}

const hex = (bytes: Uint8Array) => Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');

export interface DocumentSignedAttributes {
  /** SHA-256 (hex) of the PDF's signed byte ranges, as the attributes carry it. */
  messageDigest: string;
  /** SHA-256 (hex) of the signer certificate named by signing-certificate-v2. */
  certificateSha256: string;
}

/**
 * Accepts only the signed attributes of a document signature for the announced certificate: a DER SET of
 * exactly content-type (id-data), message-digest (32 bytes) and signing-certificate-v2 with one ESSCertIDv2
 * (SHA-256) whose certHash is `details.certificateSha256`. Anything else (another attribute, a signing-time,
 * another certificate, trailing bytes, a BER form) throws SignedAttributesError with the reason.
 */
export function checkDocumentSignedAttributes(
  der: Uint8Array,
  details: { certificateSha256: string },
): DocumentSignedAttributes {
  if (!(der instanceof Uint8Array) || der.length === 0)
    throw new SignedAttributesError('No signed attributes');
  if (der.length > MAX_SIGNED_ATTRIBUTES_BYTES)
    throw new SignedAttributesError('Signed attributes too large');
  if (!/^[0-9a-f]{64}$/.test(details.certificateSha256)) {
    throw new SignedAttributesError('The announced certificate hash is not a SHA-256 in hex');
  }
  const set = expect(readNode(der, 0, der.length), TAG_SET, 'a SET of attributes');
  if (set.end !== der.length) throw new SignedAttributesError('Bytes after the signed attributes');

  const seen = new Map<string, Node>();
  for (const attribute of childrenOf(set)) {
    const [type, values, ...rest] = childrenOf(expect(attribute, TAG_SEQUENCE, 'an attribute'));
    if (rest.length) throw new SignedAttributesError('Malformed attribute');
    const oid = decodeOid(expect(type, TAG_OID, 'an attribute type'));
    if (seen.has(oid)) throw new SignedAttributesError(`Attribute ${oid} appears twice`);
    const valueList = childrenOf(expect(values, TAG_SET, 'attribute values'));
    if (valueList.length !== 1) throw new SignedAttributesError(`Attribute ${oid} must have one value`);
    seen.set(oid, valueList[0]!);
  }
  const expected = [OID_CONTENT_TYPE, OID_MESSAGE_DIGEST, OID_SIGNING_CERTIFICATE_V2];
  const unexpected = [...seen.keys()].filter((oid) => !expected.includes(oid));
  if (unexpected.length) {
    throw new SignedAttributesError(`Unexpected signed attribute ${unexpected.join(', ')}`);
  }
  const missing = expected.filter((oid) => !seen.has(oid));
  if (missing.length) throw new SignedAttributesError(`Missing signed attribute ${missing.join(', ')}`);

  if (decodeOid(expect(seen.get(OID_CONTENT_TYPE), TAG_OID, 'a content type')) !== OID_DATA) {
    throw new SignedAttributesError('The content type is not data');
  }
  const digest = expect(seen.get(OID_MESSAGE_DIGEST), TAG_OCTET_STRING, 'a message digest').content;
  if (digest.length !== 32) throw new SignedAttributesError('The message digest is not a SHA-256');

  // SigningCertificateV2 ::= SEQUENCE { certs SEQUENCE OF ESSCertIDv2, policies OPTIONAL }
  const signingCertificate = childrenOf(
    expect(seen.get(OID_SIGNING_CERTIFICATE_V2), TAG_SEQUENCE, 'a signing certificate'),
  );
  if (signingCertificate.length !== 1) {
    throw new SignedAttributesError('The signing certificate attribute must name one certificate only');
  }
  const certs = childrenOf(expect(signingCertificate[0], TAG_SEQUENCE, 'a list of certificates'));
  if (certs.length !== 1)
    throw new SignedAttributesError('The signing certificate attribute must name one certificate');
  // ESSCertIDv2 ::= SEQUENCE { hashAlgorithm DEFAULT sha256, certHash OCTET STRING, issuerSerial OPTIONAL }
  const fields = childrenOf(expect(certs[0], TAG_SEQUENCE, 'a certificate id'));
  let index = 0;
  if (fields[0]?.tag === TAG_SEQUENCE) {
    const [algorithm, parameters, ...more] = childrenOf(fields[0]);
    if (decodeOid(expect(algorithm, TAG_OID, 'a hash algorithm')) !== OID_SHA256) {
      throw new SignedAttributesError('The certificate hash is not a SHA-256');
    }
    if (more.length || (parameters && parameters.tag !== TAG_NULL)) {
      throw new SignedAttributesError('Malformed hash algorithm');
    }
    index = 1;
  }
  const certHash = expect(fields[index], TAG_OCTET_STRING, 'a certificate hash').content;
  const issuerSerial = fields[index + 1];
  if (issuerSerial) {
    const parts = childrenOf(expect(issuerSerial, TAG_SEQUENCE, 'an issuer and serial'));
    expect(parts[1], TAG_INTEGER, 'a serial number');
  }
  if (fields.length > index + 2) throw new SignedAttributesError('Malformed certificate id');
  if (certHash.length !== 32 || hex(certHash) !== details.certificateSha256) {
    throw new SignedAttributesError('The signed attributes name another certificate than the one announced');
  }
  return { messageDigest: hex(digest), certificateSha256: hex(certHash) };
}
