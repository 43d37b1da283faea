import { createHash, createPublicKey, generateKeyPairSync, sign, verify } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { CertificateAuthority } from './certificate-authority.js';
import {
  buildSignedAttributes,
  buildSignedData,
  CmsFormatError,
  ecdsaSignatureToDer,
  OIDS,
  readSignedData,
} from './cms-signature.js';
import { children, decodeOid, readDer, rawBytes, sortDer } from './der-encoding.js';
import { ANN, testAuthority, testSigner, type TestSigner } from './test-helpers.js';

let ca: CertificateAuthority;
let ann: TestSigner;

beforeAll(async () => {
  ca = await testAuthority();
  ann = await testSigner(ca, ANN);
});

describe('ECDSA signatures', () => {
  it("convert WebCrypto's P1363 form to DER that verifies, whatever the top bits of r and s", async () => {
    const data = new TextEncoder().encode('to be signed');
    for (let i = 0; i < 24; i++) {
      const p1363 = await ann.sign(data);
      const der = ecdsaSignatureToDer(p1363);
      const [r, s] = children(readDer(der));
      for (const integer of [r!, s!]) {
        const content = der.subarray(integer.contentStart, integer.contentEnd);
        // Minimal and positive: a leading zero only before a set top bit.
        if (content[0] === 0) expect(content[1]! & 0x80).toBe(0x80);
        else expect(content[0]! & 0x80).toBe(0);
      }
      const key = createPublicKey({ key: { ...ann.publicJwk }, format: 'jwk' });
      expect(verify('sha256', data, { key, dsaEncoding: 'der' }, der)).toBe(true);
    }
  });

  it('pass DER through and refuse anything else', () => {
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const der = sign('sha256', Buffer.from('x'), privateKey);
    expect(ecdsaSignatureToDer(der)).toBe(der);
    for (const bad of [
      new Uint8Array(63),
      new Uint8Array(65),
      Buffer.concat([der, Uint8Array.of(0)]),
      Uint8Array.of(0x30, 0),
    ]) {
      expect(() => ecdsaSignatureToDer(bad)).toThrow(CmsFormatError);
    }
  });
});

describe('signed attributes', () => {
  it('are a DER SET of content type, message digest and signing-certificate-v2, without signing-time', () => {
    const digest = createHash('sha256').update('document').digest();
    const set = buildSignedAttributes({ messageDigest: digest, signerCertificate: ann.certificate.der });
    const node = readDer(set);
    expect(node.tag).toBe(0x31);
    expect(node.end).toBe(set.length);
    const attributes = children(node);
    const encodings = attributes.map((attribute) => rawBytes(attribute));
    expect(sortDer(encodings)).toEqual(encodings);
    expect(attributes.map((attribute) => decodeOid(children(attribute)[0]!)).sort()).toEqual(
      [OIDS.contentType, OIDS.messageDigest, OIDS.signingCertificateV2].sort(),
    );
  });
});

describe('SignedData', () => {
  async function signedData() {
    const digest = createHash('sha256').update('document').digest();
    const signedAttributes = buildSignedAttributes({
      messageDigest: digest,
      signerCertificate: ann.certificate.der,
    });
    const signature = ecdsaSignatureToDer(await ann.sign(signedAttributes));
    return {
      digest,
      signedAttributes,
      cms: buildSignedData({
        signedAttributes,
        signature,
        signerCertificate: ann.certificate.der,
        certificates: [ca.certificateDer],
      }),
    };
  }

  it('reads back what was built: digest, attributes as signed, the signer among the certificates', async () => {
    const { digest, signedAttributes, cms } = await signedData();
    const view = readSignedData(cms);
    expect(view.digestAlgorithm).toBe(OIDS.sha256);
    expect(view.signatureAlgorithm).toBe(OIDS.ecdsaWithSha256);
    expect(view.contentType).toBe(OIDS.data);
    expect(Buffer.from(view.messageDigest!)).toEqual(digest);
    expect(Buffer.from(view.signedAttributes!)).toEqual(Buffer.from(signedAttributes));
    expect(view.signingTime).toBeUndefined();
    expect(view.hasContent).toBe(false);
    expect(view.certificates).toHaveLength(2);
    expect(Buffer.from(view.signerCertificate!)).toEqual(Buffer.from(ann.certificate.der));
    expect(Buffer.from(view.signingCertificateV2![0]!.hash)).toEqual(
      createHash('sha256').update(ann.certificate.der).digest(),
    );
    const key = createPublicKey({ key: { ...ann.publicJwk }, format: 'jwk' });
    const verified = verify('sha256', view.signedAttributes!, { key, dsaEncoding: 'der' }, view.signature);
    expect(verified).toBe(true);
  });

  it('refuses malformed input with a CmsFormatError only, never another error', async () => {
    const { cms } = await signedData();
    expect(() => readSignedData(new Uint8Array(0))).toThrow(CmsFormatError);
    expect(() => readSignedData(cms.subarray(0, cms.length - 10))).toThrow(CmsFormatError);
    expect(() => readSignedData(Uint8Array.of(0x30, 0x84, 0xff, 0xff, 0xff, 0xff))).toThrow(CmsFormatError);
    // Every single-byte change either still reads or fails as CmsFormatError.
    let seed = 7;
    for (let i = 0; i < 2000; i++) {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      const mutated = Uint8Array.from(cms);
      mutated[seed % mutated.length] = seed & 0xff;
      try {
        readSignedData(mutated);
      } catch (error) {
        expect(error).toBeInstanceOf(CmsFormatError);
      }
    }
  });
});
