// The authenticator's check of what it is asked to sign (packages/shared checkDocumentSignedAttributes),
// against the signed attributes this core really prepares, and against everything else.
import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  base64url,
  checkDocumentSignRequest,
  checkDocumentSignedAttributes,
  SignedAttributesError,
  type PendingRequest,
} from '@careplane/shared/authenticator/protocol';
import type { CertificateAuthority } from './certificate-authority.js';
import { buildSignedAttributes, OIDS } from './cms-signature.js';
import { explicit, octetString, oid, sequence, setOf, tlv, TAG } from './der-encoding.js';
import { ANN, BOB, testAuthority, testSigner, type TestSigner } from './test-helpers.js';
import { createSamplePdf } from './sample-pdf.js';
import { prepareSignature } from './pdf-signing.js';

let ca: CertificateAuthority;
let ann: TestSigner;
let bob: TestSigner;
let der: Uint8Array;
let certificateSha256: string;

const attribute = (type: string, ...values: Uint8Array[]) => sequence(oid(type), setOf(...values));
const digest = createHash('sha256').update('the byte ranges').digest();
const certIdFor = (hash: Uint8Array) => sequence(sequence(sequence(octetString(hash))));
const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest();

beforeAll(async () => {
  ca = await testAuthority();
  ann = await testSigner(ca, ANN);
  bob = await testSigner(ca, BOB);
  certificateSha256 = ann.certificate.fingerprint;
  der = buildSignedAttributes({ messageDigest: digest, signerCertificate: ann.certificate.der });
});

describe('checkDocumentSignedAttributes', () => {
  it("accepts the core's signed attributes for the announced certificate and reads their digest", () => {
    expect(checkDocumentSignedAttributes(der, { certificateSha256 })).toEqual({
      messageDigest: digest.toString('hex'),
      certificateSha256,
    });
  });

  it('accepts what prepareSignature gives the phone for a real PDF', async () => {
    const prepared = prepareSignature(await createSamplePdf(), {
      signerName: 'Ann Lee',
      signingTime: new Date(),
      signerCertificate: ann.certificate.der,
      caCertificate: ca.certificateDer,
    });
    expect(checkDocumentSignedAttributes(prepared.toBeSigned, { certificateSha256 }).messageDigest).toBe(
      prepared.documentDigest,
    );
  });

  it("accepts an explicit SHA-256 hash algorithm in the certificate id (DER's DEFAULT may be spelled out)", () => {
    const explicitAlgorithm = setOf(
      attribute(OIDS.contentType, oid(OIDS.data)),
      attribute(OIDS.messageDigest, octetString(digest)),
      attribute(
        OIDS.signingCertificateV2,
        sequence(sequence(sequence(sequence(oid(OIDS.sha256)), octetString(sha(ann.certificate.der))))),
      ),
    );
    expect(() => checkDocumentSignedAttributes(explicitAlgorithm, { certificateSha256 })).not.toThrow();
  });

  const refused = (bytes: Uint8Array, reason: RegExp, hash = certificateSha256) =>
    expect(() => checkDocumentSignedAttributes(bytes, { certificateSha256: hash })).toThrow(reason);

  it('refuses a certificate other than the announced one', () => {
    refused(der, /another certificate/, bob.certificate.fingerprint);
    const forBob = buildSignedAttributes({ messageDigest: digest, signerCertificate: bob.certificate.der });
    refused(forBob, /another certificate/);
  });

  it('refuses an extra attribute, a signing-time, a missing one or a duplicate', () => {
    const base = [
      attribute(OIDS.contentType, oid(OIDS.data)),
      attribute(OIDS.messageDigest, octetString(digest)),
      attribute(OIDS.signingCertificateV2, certIdFor(sha(ann.certificate.der))),
    ];
    expect(() => checkDocumentSignedAttributes(setOf(...base), { certificateSha256 })).not.toThrow();
    const signingTime = attribute(OIDS.signingTime, tlv(TAG.utcTime, Buffer.from('261123090000Z')));
    refused(setOf(...base, signingTime), /Unexpected signed attribute 1\.2\.840\.113549\.1\.9\.5/);
    refused(
      setOf(...base, attribute('1.2.3.4', octetString(digest))),
      /Unexpected signed attribute 1\.2\.3\.4/,
    );
    refused(setOf(base[0]!, base[2]!), /Missing signed attribute 1\.2\.840\.113549\.1\.9\.4/);
    refused(setOf(...base, base[1]!), /appears twice/);
  });

  it('refuses another content type, a short digest, two values, two certificates', () => {
    const certificate = attribute(OIDS.signingCertificateV2, certIdFor(sha(ann.certificate.der)));
    const digestAttribute = attribute(OIDS.messageDigest, octetString(digest));
    refused(
      setOf(attribute(OIDS.contentType, oid(OIDS.signedData)), digestAttribute, certificate),
      /content type is not data/,
    );
    refused(
      setOf(
        attribute(OIDS.contentType, oid(OIDS.data)),
        attribute(OIDS.messageDigest, octetString(digest.subarray(0, 20))),
        certificate,
      ),
      /not a SHA-256/,
    );
    refused(
      setOf(
        attribute(OIDS.contentType, oid(OIDS.data)),
        attribute(OIDS.messageDigest, octetString(digest), octetString(sha(digest))),
        certificate,
      ),
      /must have one value/,
    );
    const twoCertificates = attribute(
      OIDS.signingCertificateV2,
      sequence(
        sequence(
          sequence(octetString(sha(ann.certificate.der))),
          sequence(octetString(sha(bob.certificate.der))),
        ),
      ),
    );
    refused(
      setOf(attribute(OIDS.contentType, oid(OIDS.data)), digestAttribute, twoCertificates),
      /name one certificate/,
    );
    const sha1Id = attribute(
      OIDS.signingCertificateV2,
      sequence(sequence(sequence(sequence(oid('1.3.14.3.2.26')), octetString(sha(ann.certificate.der))))),
    );
    refused(setOf(attribute(OIDS.contentType, oid(OIDS.data)), digestAttribute, sha1Id), /not a SHA-256/);
  });

  it('refuses garbage, trailing bytes, BER forms and oversized input', () => {
    refused(new Uint8Array(0), /No signed attributes/);
    refused(Buffer.from('{"action":"document.sign"}'), /Expected a SET|Not DER/);
    refused(Buffer.concat([der, Uint8Array.of(0)]), /Bytes after/);
    refused(der.subarray(0, der.length - 1), /Not DER/);
    // The same SET with an indefinite length (BER), and with a non-minimal length.
    refused(Buffer.concat([Uint8Array.of(0x31, 0x80), der.subarray(3), Uint8Array.of(0, 0)]), /indefinite/);
    expect(der[1]).toBe(0x81); // about 200 bytes of content: one length octet after 0x81
    refused(Buffer.concat([Uint8Array.of(0x31, 0x82, 0, der[2]!), der.subarray(3)]), /minimally/);
    refused(explicit(0, der), /Expected a SET/);
    refused(new Uint8Array(2048), /too large/);
    refused(der, /not a SHA-256 in hex/, 'not-hex');
  });
});

describe('checkDocumentSignRequest', () => {
  const request = (details: Record<string, unknown>): Pick<PendingRequest, 'kind' | 'details'> => ({
    kind: 'resource',
    details,
  });
  const details = () => ({
    action: 'document.sign',
    resource: 'documents/0190a0b0-0000-7000-8000-00000000beef',
    digest: sha(der).toString('base64url'),
    title: 'Care plan',
    documentSha256: 'a'.repeat(64),
    signedAttributes: base64url(der),
    signingTime: '2026-11-23T09:00:00.000Z',
    certificateSha256,
    keyId: 'k'.repeat(43),
  });

  it('returns the bytes to sign when the digest, the key and the attributes agree', async () => {
    const checked = await checkDocumentSignRequest(request(details()), 'k'.repeat(43));
    expect(Buffer.from(checked.signedAttributes)).toEqual(Buffer.from(der));
    expect(checked.details.title).toBe('Care plan');
  });

  it('refuses a request for another key, a digest of something else, or missing details', async () => {
    await expect(checkDocumentSignRequest(request(details()), 'x'.repeat(43))).rejects.toThrow(
      /another authenticator/,
    );
    await expect(
      checkDocumentSignRequest(
        request({ ...details(), digest: sha(digest).toString('base64url') }),
        'k'.repeat(43),
      ),
    ).rejects.toThrow(/not the SHA-256 of the signed attributes/);
    const untitled: Record<string, unknown> = details();
    delete untitled.title;
    await expect(checkDocumentSignRequest(request(untitled), 'k'.repeat(43))).rejects.toThrow(
      SignedAttributesError,
    );
    await expect(
      checkDocumentSignRequest(request({ ...details(), title: 'x'.repeat(201) }), 'k'.repeat(43)),
    ).rejects.toThrow(/title/);
    await expect(
      checkDocumentSignRequest({ kind: 'login', details: details() }, 'k'.repeat(43)),
    ).rejects.toThrow(/Not a document signing request/);
  });
});
