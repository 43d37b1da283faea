import 'reflect-metadata';
import { createPublicKey, X509Certificate as NodeCertificate } from 'node:crypto';
import { inspect } from 'node:util';
import * as x509 from '@peculiar/x509';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  certificateAuthorityPem,
  CertificateAuthorityError,
  createCertificateAuthority,
  DEFAULT_KDF_ITERATIONS,
  loadCertificateAuthority,
  type CertificateAuthority,
  type StoredCertificateAuthority,
} from './certificate-authority.js';
import { children, contentBytes, decodeOid, readDer } from './der-encoding.js';
import { SigningError } from './signing-error.js';
import { ANN, TEST_PASSPHRASE, testSigner } from './test-helpers.js';

const PASSPHRASE = 'the right passphrase, long enough';

let stored: StoredCertificateAuthority;
let ca: CertificateAuthority;

beforeAll(async () => {
  stored = await createCertificateAuthority({
    passphrase: PASSPHRASE,
    now: new Date('2026-11-23T10:00:00Z'),
  });
  ca = await loadCertificateAuthority(stored, PASSPHRASE);
});

describe('the platform CA', () => {
  it('is a self-signed P-256 root for about ten years, allowed to sign certificates only', async () => {
    const certificate = new x509.X509Certificate(stored.certificatePem);
    expect(certificate.subjectName.getField('CN')).toEqual(['Careplane Document Signing CA']);
    expect(certificate.subject).toBe(certificate.issuer);
    expect(await certificate.verify({ signatureOnly: true })).toBe(true);
    expect(certificate.publicKey.algorithm).toMatchObject({ name: 'ECDSA', namedCurve: 'P-256' });
    const basic = certificate.getExtension(x509.BasicConstraintsExtension)!;
    expect([basic.ca, basic.critical]).toEqual([true, true]);
    const usage = certificate.getExtension(x509.KeyUsagesExtension)!;
    expect(usage.usages).toBe(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign);
    expect(usage.critical).toBe(true);
    expect(certificate.getExtension(x509.SubjectKeyIdentifierExtension)?.keyId).toMatch(/^[0-9a-f]{40}$/);
    const years = (certificate.notAfter.getTime() - certificate.notBefore.getTime()) / (365.25 * 86_400_000);
    expect(years).toBeGreaterThan(9.99);
    expect(years).toBeLessThan(10.01);
  });

  it('stores its key encrypted: PBES2 with PBKDF2-HMAC-SHA256 (600k rounds) and AES-256-CBC', () => {
    expect(stored.encryptedPrivateKeyPem).toMatch(/^-----BEGIN ENCRYPTED PRIVATE KEY-----\n/);
    expect(JSON.stringify(stored)).not.toMatch(/BEGIN (EC )?PRIVATE KEY/);
    const der = Buffer.from(stored.encryptedPrivateKeyPem.replace(/-----[^-]+-----|\s/g, ''), 'base64');
    const [algorithm] = children(readDer(der));
    const [pbes2, params] = children(algorithm!);
    expect(decodeOid(pbes2!)).toBe('1.2.840.113549.1.5.13');
    const [kdf, cipher] = children(params!);
    const [kdfOid, kdfParams] = children(kdf!);
    expect(decodeOid(kdfOid!)).toBe('1.2.840.113549.1.5.12');
    const [salt, iterations, , prf] = children(kdfParams!);
    expect(contentBytes(salt!).length).toBe(16);
    expect(Number.parseInt(Buffer.from(contentBytes(iterations!)).toString('hex'), 16)).toBe(
      DEFAULT_KDF_ITERATIONS,
    );
    expect(decodeOid(children(prf!)[0]!)).toBe('1.2.840.113549.2.9'); // hmacWithSHA256
    expect(decodeOid(children(cipher!)[0]!)).toBe('2.16.840.1.101.3.4.1.42'); // aes256-CBC
  });

  it('opens with the right passphrase only, saying clearly when it is wrong', async () => {
    await expect(loadCertificateAuthority(stored, 'not the passphrase at all')).rejects.toThrow(
      new CertificateAuthorityError(
        'Cannot open the document-signing CA key: the passphrase is wrong or the stored key is damaged',
      ),
    );
    await expect(loadCertificateAuthority(stored, '')).rejects.toThrow(CertificateAuthorityError);
  });

  it('refuses a stored key that does not belong to the stored certificate', async () => {
    const other = await createCertificateAuthority({ passphrase: PASSPHRASE, kdfIterations: 100_000 });
    await expect(
      loadCertificateAuthority({ ...stored, certificatePem: other.certificatePem }, PASSPHRASE),
    ).rejects.toThrow('The stored CA key does not belong to the stored CA certificate');
  });

  it('refuses a short passphrase and a weak key derivation', async () => {
    await expect(createCertificateAuthority({ passphrase: 'short' })).rejects.toThrow(
      /at least 12 characters/,
    );
    await expect(createCertificateAuthority({ passphrase: PASSPHRASE, kdfIterations: 2048 })).rejects.toThrow(
      /at least 100000 iterations/,
    );
  });

  it('never shows its private key, whatever serialises it', () => {
    expect(JSON.parse(JSON.stringify(ca))).toEqual({ certificatePem: stored.certificatePem });
    expect(inspect(ca, { showHidden: true, depth: 5 })).not.toMatch(/PRIVATE KEY|"d":/);
    expect(Object.values(ca)).not.toContainEqual(expect.objectContaining({ type: 'private' }));
  });

  it('serves its certificate as PEM without the passphrase', () => {
    const pem = certificateAuthorityPem(stored);
    expect(pem).toMatch(/^-----BEGIN CERTIFICATE-----\n/);
    expect(new NodeCertificate(pem).fingerprint256).toBe(
      new NodeCertificate(stored.certificatePem).fingerprint256,
    );
    expect(ca.certificatePem).toBe(stored.certificatePem);
  });
});

describe('signer certificates', () => {
  it("certify the phone's key for the identity: CN, UID, usages, key identifiers, chain", async () => {
    const signer = await testSigner(ca, { ...ANN, email: 'ann@example.org' });
    const certificate = new x509.X509Certificate(signer.certificate.der);
    expect(certificate.subjectName.getField('CN')).toEqual(['Ann Lee']);
    expect(certificate.subjectName.getField('0.9.2342.19200300.100.1.1')).toEqual(['ann@careplane.local']);
    expect(certificate.issuer).toBe(new x509.X509Certificate(stored.certificatePem).subject);
    const basic = certificate.getExtension(x509.BasicConstraintsExtension)!;
    expect(basic.ca).toBe(false);
    const usage = certificate.getExtension(x509.KeyUsagesExtension)!;
    expect(usage.usages).toBe(x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.nonRepudiation);
    expect(usage.critical).toBe(true);
    expect(certificate.getExtension(x509.ExtendedKeyUsageExtension)?.usages).toEqual([
      '1.3.6.1.5.5.7.3.4',
      '1.3.6.1.5.5.7.3.36',
    ]);
    const caKeyId = new x509.X509Certificate(stored.certificatePem).getExtension(
      x509.SubjectKeyIdentifierExtension,
    )!.keyId;
    expect(certificate.getExtension(x509.AuthorityKeyIdentifierExtension)?.keyId).toBe(caKeyId);
    expect(certificate.getExtension(x509.SubjectAlternativeNameExtension)?.names.items[0]).toMatchObject({
      type: 'email',
      value: 'ann@example.org',
    });

    const node = new NodeCertificate(signer.certificate.der);
    const caNode = new NodeCertificate(stored.certificatePem);
    expect(node.checkIssued(caNode) && node.verify(caNode.publicKey)).toBe(true);
    // The certified key is the phone's key.
    expect(node.publicKey.export({ format: 'jwk' })).toMatchObject({
      x: signer.publicJwk.x,
      y: signer.publicJwk.y,
    });
    expect(createPublicKey({ key: { ...signer.publicJwk }, format: 'jwk' }).equals(node.publicKey)).toBe(
      true,
    );
    expect(signer.certificate.fingerprint).toBe(node.fingerprint256.replace(/:/g, '').toLowerCase());
  });

  it('get random positive 128-bit serial numbers and end no later than the CA', async () => {
    const a = await testSigner(ca, ANN);
    const b = await testSigner(ca, ANN);
    for (const serial of [a.certificate.serialNumber, b.certificate.serialNumber]) {
      expect(serial).toMatch(/^[0-7][0-9a-f]{31}$/);
    }
    expect(a.certificate.serialNumber).not.toBe(b.certificate.serialNumber);
    const late = await ca.issueSignerCertificate({
      publicJwk: a.publicJwk,
      identity: ANN,
      validityDays: 365 * 20,
    });
    expect(late.notAfter.getTime()).toBe(ca.notAfter.getTime());
  });

  it('are refused for keys that are not P-256 public keys, and for missing names', async () => {
    const valid = (await testSigner(ca, ANN)).publicJwk;
    const bad = [
      { ...valid, crv: 'P-384' },
      { ...valid, kty: 'RSA' },
      { ...valid, x: valid.y.replace(/^./, (c) => (c === 'A' ? 'B' : 'A')) },
      { kty: 'EC', crv: 'P-256' },
    ];
    for (const publicJwk of bad) {
      await expect(
        ca.issueSignerCertificate({ publicJwk: publicJwk as never, identity: ANN }),
      ).rejects.toBeInstanceOf(SigningError);
    }
    await expect(
      ca.issueSignerCertificate({ publicJwk: valid, identity: { ...ANN, firstName: '', lastName: '' } }),
    ).rejects.toThrow(/name/);
  });

  it('chain to a CA made with the test helper too (sanity of the helper)', async () => {
    const other = await loadCertificateAuthority(
      await createCertificateAuthority({ passphrase: TEST_PASSPHRASE, kdfIterations: 100_000 }),
      TEST_PASSPHRASE,
    );
    const signer = await testSigner(other, ANN);
    expect(
      new NodeCertificate(signer.certificate.der).checkIssued(new NodeCertificate(other.certificateDer)),
    ).toBe(true);
  });
});
