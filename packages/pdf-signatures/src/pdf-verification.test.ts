import 'reflect-metadata';
import { createHash, webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  createCertificateAuthority,
  loadCertificateAuthority,
  type CertificateAuthority,
} from './certificate-authority.js';
import { buildSignedAttributes, buildSignedData, readSignedData } from './cms-signature.js';
import {
  ANN,
  BOB,
  signPdf,
  TEST_PASSPHRASE,
  testAuthority,
  testSigner,
  type TestSigner,
} from './test-helpers.js';
import { appendIncrementalUpdate } from './pdf/pdf-incremental-update.js';
import { PdfDict, PdfRef, PdfString, serialize } from './pdf/pdf-objects.js';
import { PdfStructure } from './pdf/pdf-structure.js';
import { completeSignature, prepareSignature, rangeDigest } from './pdf-signing.js';
import { formatTime, parsePdfDate, verifyPdf, type VerificationReport } from './pdf-verification.js';
import { createLargeSamplePdf, createSamplePdf } from './sample-pdf.js';

let ca: CertificateAuthority;
let ann: TestSigner;
let bob: TestSigner;
let original: Uint8Array;
let signedOnce: Uint8Array;
let signedTwice: Uint8Array;

const ANN_TIME = new Date('2026-11-23T14:02:00Z');
const BOB_TIME = new Date('2026-11-24T08:30:00Z');
/** The certificates are issued before those fixed signing times, whenever the tests run. */
const ISSUED_AT = new Date('2026-11-20T00:00:00Z');

beforeAll(async () => {
  ca = await testAuthority(undefined, ISSUED_AT);
  ann = await testSigner(ca, ANN, ISSUED_AT);
  bob = await testSigner(ca, BOB, ISSUED_AT);
  original = await createSamplePdf();
  signedOnce = await signPdf(original, ann, ca, { signingTime: ANN_TIME });
  signedTwice = await signPdf(signedOnce, bob, ca, { signingTime: BOB_TIME });
});

const verify = (bytes: Uint8Array, known: Iterable<string> = []) => {
  const digests = new Set(known);
  return verifyPdf(bytes, {
    caCertificate: ca.certificatePem,
    isKnownDigest: (digest) => digests.has(digest),
  });
};
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const latin1 = (bytes: Uint8Array) => Buffer.from(bytes).toString('latin1');

/** The n-th (0-based) signature's byte range as written in the file. */
function byteRangeOf(bytes: Uint8Array, n: number): { at: number; width: number; values: number[] } {
  const matches = [...latin1(bytes).matchAll(/\/ByteRange \[([0-9 ]+)\]/g)];
  const match = matches[n]!;
  const at = match.index + '/ByteRange ['.length;
  return { at, width: match[1]!.length, values: match[1]!.trim().split(/\s+/).map(Number) };
}

function withByteRange(bytes: Uint8Array, n: number, values: number[]): Uint8Array {
  const range = byteRangeOf(bytes, n);
  const copy = Buffer.from(bytes);
  copy.write(values.join(' ').padEnd(range.width, ' '), range.at, 'latin1');
  return copy;
}

function withContents(bytes: Uint8Array, n: number, hex: string): Uint8Array {
  const [, gapStart, gapEnd] = byteRangeOf(bytes, n).values as [number, number, number];
  const room = gapEnd - gapStart - 2;
  const copy = Buffer.from(bytes);
  copy.write(hex.padEnd(room, '0').slice(0, room), gapStart + 1, 'latin1');
  return copy;
}

function contentsOf(bytes: Uint8Array, n: number): Uint8Array {
  const [, gapStart, gapEnd] = byteRangeOf(bytes, n).values as [number, number, number];
  const reserved = Buffer.from(latin1(bytes.subarray(gapStart + 1, gapEnd - 1)), 'hex');
  // The CMS ends where its DER length says; the rest is zero padding (a signature may itself end in 00).
  const lengthOctets = reserved[1]! & 0x80 ? reserved[1]! & 0x7f : 0;
  const length = lengthOctets ? reserved.readUIntBE(2, lengthOctets) : reserved[1]!;
  return reserved.subarray(0, 2 + lengthOctets + length);
}

function flipByte(bytes: Uint8Array, at: number): Uint8Array {
  const copy = Uint8Array.from(bytes);
  copy[at] = copy[at]! ^ 0x01;
  return copy;
}

function expectNoSignatureHolds(report: VerificationReport) {
  expect(report.verdict.status).toBe('tampered');
  expect(report.verdict.summary).toMatch(/^Tampered or damaged: /);
}

describe('a signed file', () => {
  it('is authentic and untampered, with signer, time and coverage from the file', async () => {
    const report = await verify(signedOnce);
    expect(report.verdict).toEqual({
      status: 'authentic',
      summary: 'Authentic and untampered: signed by Ann Lee (ann@careplane.local) on 23.11.2026 14:02 UTC.',
      changedAfter: null,
    });
    expect(report.signatures).toHaveLength(1);
    expect(report.signatures[0]).toMatchObject({
      index: 1,
      fieldName: 'Signature1',
      subFilter: 'ETSI.CAdES.detached',
      signer: {
        commonName: 'Ann Lee',
        username: 'ann@careplane.local',
        email: null,
        serialNumber: ann.certificate.serialNumber,
        fingerprint: ann.certificate.fingerprint,
      },
      signingTime: ANN_TIME,
      signingTimeSource: 'signature-dictionary',
      intact: true,
      supported: true,
      coversWholeFile: true,
      laterRevisionAdded: false,
      covers: { revision: 1, revisions: 1, bytes: signedOnce.length },
      certification: null,
      changesAfter: [],
      changedAfterSigning: false,
      chainsToPlatformCa: true,
      signerWithdrawn: false,
      revisionDigest: sha256(signedOnce),
      knownToPlatform: false,
      problems: [],
    });
    expect(report.fileDigest).toBe(sha256(signedOnce));
  });

  it('signed twice keeps the first signature intact, covered by the second', async () => {
    const report = await verify(signedTwice);
    expect(report.verdict.status).toBe('authentic');
    expect(report.verdict.summary).toBe(
      'Authentic and untampered: signed by Ann Lee (ann@careplane.local) on 23.11.2026 14:02 UTC, ' +
        'then by Bob Okafor (bob@careplane.local) on 24.11.2026 08:30 UTC.',
    );
    expect(
      report.signatures.map((s) => [s.index, s.signer?.commonName, s.intact, s.coversWholeFile]),
    ).toEqual([
      [1, 'Ann Lee', true, false],
      [2, 'Bob Okafor', true, true],
    ]);
    expect(report.signatures[0]!.laterRevisionAdded).toBe(true);
    // Not covering the whole file is what an earlier signature does: it says what it covers instead.
    expect(report.signatures.map((s) => s.covers)).toEqual([
      { revision: 1, revisions: 2, bytes: signedOnce.length },
      { revision: 2, revisions: 2, bytes: signedTwice.length },
    ]);
    expect(report.signatures[0]!.changesAfter).toEqual([
      { revision: 2, kind: 'signature', description: 'added signature 2 (Bob Okafor)', allowed: true },
    ]);
    expect(report.signatures[0]!.revisionDigest).toBe(sha256(signedOnce));
    expect(report.signatures[1]!.revisionDigest).toBe(sha256(signedTwice));
  });

  it('is known to the platform when its lookup knows the signed version', async () => {
    const report = await verify(signedTwice, [sha256(signedOnce), sha256(signedTwice)]);
    expect(report.fileKnownToPlatform).toBe(true);
    expect(report.signatures.map((s) => s.knownToPlatform)).toEqual([true, true]);
    expect(report.verdict.summary).toMatch(/Careplane completed this exact file\.$/);
    const partly = await verify(signedTwice, [sha256(signedOnce)]);
    expect(partly.fileKnownToPlatform).toBe(false);
    expect(partly.signatures.map((s) => s.knownToPlatform)).toEqual([true, false]);
  });

  it('verifies with the classic-table input too', async () => {
    const signed = await signPdf(await createSamplePdf({ useObjectStreams: false }), ann, ca);
    const report = await verify(signed);
    expect(report.verdict.status).toBe('authentic');
  });
});

describe('a file is reported as not intact', () => {
  it('when a byte inside the signed range changed (at the start, in a page, in the signature dictionary)', async () => {
    const [, gapStart] = byteRangeOf(signedOnce, 0).values as [number, number];
    const inDictionary = latin1(signedOnce).indexOf('/Reason (Approved)') + 9;
    for (const at of [
      12,
      Math.floor(original.length / 2),
      inDictionary,
      gapStart - 3,
      signedOnce.length - 3,
    ]) {
      const report = await verify(flipByte(signedOnce, at));
      expectNoSignatureHolds(report);
      expect(report.signatures[0]?.intact ?? false).toBe(false);
    }
    const report = await verify(flipByte(signedOnce, Math.floor(original.length / 2)));
    expect(report.signatures[0]!.problems).toContain(
      'The signed bytes were changed: their digest does not match the signature',
    );
  });

  it('when a byte of the first revision of a twice-signed file changed: both signatures fail', async () => {
    const report = await verify(flipByte(signedTwice, Math.floor(original.length / 2)));
    expectNoSignatureHolds(report);
    expect(report.signatures.map((s) => s.intact)).toEqual([false, false]);
  });

  it('whatever signed byte changed: never unsigned, unreadable, unsupported or changed after signing', async () => {
    // Every fifth signed byte, and every byte of the form's field list and of each signature field: a change
    // there once hid a signature from the reader ("not signed"), or left a later signature's revision looking
    // like an unsigned update ("changed after Ann Lee signed").
    const text = latin1(signedTwice);
    const gaps = [0, 1].map((n) => byteRangeOf(signedTwice, n).values as [number, number, number, number]);
    const signed = (at: number) => gaps.every(([, gapStart, gapEnd]) => at < gapStart || at >= gapEnd);
    const regions = [...text.matchAll(/\/Fields \[[^\]]*\]|\/FT \/Sig[^>]*>>/g)].map(
      (match) => [match.index, match.index + match[0].length] as const,
    );
    expect(regions.length).toBeGreaterThanOrEqual(3);
    const positions = new Set<number>();
    for (let at = 0; at < signedTwice.length; at += 5) positions.add(at);
    for (const [start, end] of regions) for (let at = start; at < end; at++) positions.add(at);
    const verdicts = new Map<string, number[]>();
    for (const at of [...positions].filter(signed)) {
      const status = (await verify(flipByte(signedTwice, at))).verdict.status;
      verdicts.set(status, [...(verdicts.get(status) ?? []), at]);
    }
    expect([...verdicts.keys()]).toEqual(['tampered']);
  }, 60_000);

  it('names the signers of a file whose structure a change made unreadable, and calls it tampered', async () => {
    const xref = latin1(signedTwice).lastIndexOf('startxref');
    const report = await verify(flipByte(signedTwice, xref + 2));
    expectNoSignatureHolds(report);
    expect(report.signatures.map((signature) => signature.signer?.commonName)).toEqual([
      'Ann Lee',
      'Bob Okafor',
    ]);
    expect(report.signatures.map((signature) => signature.signingTime)).toEqual([ANN_TIME, BOB_TIME]);
    expect(report.signatures[0]!.problems).toEqual([
      expect.stringMatching(/^The file around it cannot be read \(.+\): it was changed after it was signed$/),
    ]);
    expect(report.signatures[1]!.problems[0]).toBe(
      'The signed bytes were changed: their digest does not match the signature',
    );
    expect(report.verdict.summary).toMatch(
      /^Tampered or damaged: signature 1 \(Ann Lee \(ann@careplane.local\)\)/,
    );
  });

  it('when a revision was appended after signing: intact, but not covering the file, and the change named', async () => {
    const structure = PdfStructure.read(signedOnce);
    const info = new PdfDict([['Title', PdfString.text('Something else entirely')]]);
    const appended = appendIncrementalUpdate(structure, [
      { ref: structure.trailer.get('Info') as PdfRef, body: serialize(info) },
    ]).bytes;
    const report = await verify(appended);
    expect(report.signatures[0]).toMatchObject({
      intact: true,
      coversWholeFile: false,
      laterRevisionAdded: true,
    });
    expect(report.verdict).toEqual({
      status: 'modified-after-signing',
      summary:
        'Changed after Ann Lee (ann@careplane.local) signed: revision 2 of 2 changed the document information ' +
        '(/CreationDate, /Creator, /Title).',
      changedAfter: {
        signature: 1,
        revision: 2,
        description: 'changed the document information (/CreationDate, /Creator, /Title)',
      },
    });
    // Plain bytes after the end count as a change too.
    const padded = Buffer.concat([signedOnce, Buffer.from('\n% appended\n')]);
    expect((await verify(padded)).verdict.summary).toBe(
      'The signatures are intact, but the file was changed after the last signature (12 bytes were added after it).',
    );
  });

  it('when the byte range was shrunk', async () => {
    const [a, b, c, d] = byteRangeOf(signedOnce, 0).values as [number, number, number, number];
    const report = await verify(withByteRange(signedOnce, 0, [a, b, c, d - 100]));
    expectNoSignatureHolds(report);
    expect(report.signatures[0]).toMatchObject({ intact: false, coversWholeFile: false });
  });

  it('when the byte range is malformed: beyond the file, overlapping, not from the start, not four numbers', async () => {
    const [a, b, c, d] = byteRangeOf(signedOnce, 0).values as [number, number, number, number];
    const cases: Array<[number[], string]> = [
      [[a, b, c, d + 10], 'The byte range reaches beyond the end of the file'],
      [[a, c + 10, c, d], 'The byte ranges overlap or are out of order'],
      [[5, b - 5, c, d], 'The signed bytes do not start at the beginning of the file'],
      [[a, b, c], 'The byte range is missing or malformed'],
      [[a, b - 2, c, d], "The byte range's gap is not the signature's /Contents"],
    ];
    for (const [values, problem] of cases) {
      const report = await verify(withByteRange(signedOnce, 0, values));
      expectNoSignatureHolds(report);
      expect(report.signatures[0]!.problems).toContain(problem);
    }
  });

  it('when the certificate was swapped for another with another key', async () => {
    const cms = readSignedData(contentsOf(signedOnce, 0));
    const swapped = buildSignedData({
      signedAttributes: cms.signedAttributes!,
      signature: cms.signature,
      signerCertificate: bob.certificate.der,
      certificates: [ca.certificateDer],
    });
    const report = await verify(withContents(signedOnce, 0, Buffer.from(swapped).toString('hex')));
    expectNoSignatureHolds(report);
    expect(report.signatures[0]!.signer?.commonName).toBe('Bob Okafor');
    expect(report.signatures[0]!.problems).toEqual(
      expect.arrayContaining([
        "The signature does not verify with the signer's certificate",
        'The embedded certificate is not the one the signer signed with',
      ]),
    );
  });

  it('when /Contents is garbage, zeros (never completed) or cut short', async () => {
    const hex = Buffer.from(contentsOf(signedOnce, 0)).toString('hex');
    const variants = [
      'deadbeef'.repeat(200),
      '',
      hex.slice(0, hex.length / 2),
      `30820000${hex.slice(8)}`,
      `${hex}ff`,
    ];
    for (const contents of variants) {
      const report = await verify(withContents(signedOnce, 0, contents));
      expectNoSignatureHolds(report);
      expect(report.signatures[0]!.problems[0]).toMatch(/malformed|does not verify/);
    }
  });

  it('when the signature dictionary was replaced in a later revision (signature wrapping)', async () => {
    const structure = PdfStructure.read(signedOnce);
    const [, num, body] = /\n(\d+) 0 obj\n(<<\/Type \/Sig [\s\S]*?)\nendobj/.exec(latin1(signedOnce))!;
    const sigNum = Number(num);
    // Same byte range and /Contents, another time: the copy lies outside the bytes the signature covers.
    const forged = body!.replace("(D:20261123140200+00'00')", "(D:20200101000000+00'00')");
    expect(forged).not.toBe(body);
    const appended = appendIncrementalUpdate(structure, [{ ref: new PdfRef(sigNum, 0), body: forged }]).bytes;
    const report = await verify(appended);
    expectNoSignatureHolds(report);
    expect(report.signatures[0]!.problems).toContain(
      'The signature dictionary is not the one the signed bytes contain',
    );
  });
});

describe('signatures of a kind this verifier does not check', () => {
  const genuine = '/SubFilter /ETSI.CAdES.detached';
  const imitation = '/SubFilter /ETSI.RFC3161'.padEnd(genuine.length, ' ');

  it('are not verifiable, never authentic', async () => {
    // A document timestamp (ETSI.RFC3161) is a signature field too; here its /SubFilter is imitated, before the
    // bytes are signed, so that the signature covers the file as it reads.
    const prepared = prepareSignature(original, {
      signerName: 'Ann Lee',
      signingTime: ANN_TIME,
      signerCertificate: ann.certificate.der,
      caCertificate: ca.certificateDer,
    });
    const relabelled = Buffer.from(latin1(prepared.prepared).replace(genuine, imitation), 'latin1');
    const digest = rangeDigest(relabelled, prepared.byteRange);
    const toBeSigned = buildSignedAttributes({
      messageDigest: digest,
      signerCertificate: ann.certificate.der,
    });
    const bytes = completeSignature(
      {
        ...prepared,
        prepared: relabelled,
        toBeSigned,
        documentDigest: Buffer.from(digest).toString('hex'),
      },
      { signature: await ann.sign(toBeSigned) },
    );
    const report = await verify(bytes);
    expect(report.signatures[0]).toMatchObject({ intact: false, supported: false });
    expect(report.verdict.status).toBe('unsupported');
    expect(report.verdict.summary).toBe(
      'Not verifiable: signature 1 (Ann Lee (ann@careplane.local)) is in a form Careplane does not check ' +
        '(the signature format ETSI.RFC3161 is not one Careplane checks). Do not rely on it as signed.',
    );
  });

  it('are tampered when their signed bytes were changed, the format named in them included', async () => {
    const bytes = Buffer.from(latin1(signedOnce).replace(genuine, imitation), 'latin1');
    expect(bytes.length).toBe(signedOnce.length);
    const report = await verify(bytes);
    expectNoSignatureHolds(report);
    expect(report.signatures[0]!.problems[0]).toBe(
      'The signed bytes were changed: their digest does not match the signature',
    );
  });
});

describe('trust', () => {
  it('a signature by a key our CA never certified is intact but not vouched for, even under a CA of the same name', async () => {
    const impostorCa = await testAuthority(); // same subject name as ours, another key
    const impostor = await testSigner(impostorCa, ANN);
    const signed = await signPdf(original, impostor, impostorCa);
    const report = await verify(signed);
    expect(report.signatures[0]).toMatchObject({
      intact: true,
      chainsToPlatformCa: false,
      coversWholeFile: true,
    });
    expect(report.signatures[0]!.problems).toEqual([
      'The certificate was not issued by the Careplane document signing CA',
    ]);
    expect(report.verdict.status).toBe('untrusted');
    expect(report.verdict.summary).toBe(
      'The signed bytes are intact, but signature 1 (Ann Lee (ann@careplane.local)) is not vouched for by Careplane: ' +
        'the certificate was not issued by the Careplane document signing CA.',
    );
    // The file embeds the impostor CA; only the configured CA counts.
    const embedded = readSignedData(contentsOf(signed, 0)).certificates.map((c) => sha256(c));
    expect(embedded).toContain(sha256(impostorCa.certificateDer));
  });

  it('an impostor CA copying our name and key identifier does not pass for ours', async () => {
    const ours = new x509.X509Certificate(ca.certificateDer);
    const ourKeyId = ours.getExtension(x509.SubjectKeyIdentifierExtension)!.keyId;
    const rogueKeys = await webcrypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, false, [
      'sign',
      'verify',
    ]);
    const validity = {
      notBefore: new Date(Date.now() - 86_400_000),
      notAfter: new Date(Date.now() + 86_400_000),
    };
    const rogueCa = await x509.X509CertificateGenerator.createSelfSigned({
      serialNumber: '01',
      name: ours.subjectName,
      keys: rogueKeys,
      ...validity,
      extensions: [
        new x509.BasicConstraintsExtension(true, 0, true),
        new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign, true),
        new x509.SubjectKeyIdentifierExtension(ourKeyId),
      ],
    });
    const forged = await x509.X509CertificateGenerator.create({
      serialNumber: '02',
      issuer: rogueCa.subjectName,
      subject: [{ CN: ['Ann Lee'] }, { '0.9.2342.19200300.100.1.1': ['ann@careplane.local'] }],
      publicKey: await webcrypto.subtle.importKey(
        'jwk',
        { ...ann.publicJwk },
        { name: 'ECDSA', namedCurve: 'P-256' },
        true,
        ['verify'],
      ),
      signingKey: rogueKeys.privateKey,
      ...validity,
      extensions: [
        new x509.BasicConstraintsExtension(false),
        new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
        new x509.AuthorityKeyIdentifierExtension(ourKeyId),
      ],
    });
    const prepared = prepareSignature(original, {
      signerName: 'Ann Lee',
      signingTime: new Date(),
      signerCertificate: new Uint8Array(forged.rawData),
      caCertificate: new Uint8Array(rogueCa.rawData),
    });
    const signed = completeSignature(prepared, { signature: await ann.sign(prepared.toBeSigned) });
    const report = await verify(signed);
    expect(report.signatures[0]).toMatchObject({ intact: true, chainsToPlatformCa: false });
    expect(report.signatures[0]!.problems).toEqual([
      'The certificate was not issued by the Careplane document signing CA',
    ]);
    expect(report.verdict.status).toBe('untrusted');
  });

  it('validity is judged at the signing time: expired by now still chains, before the CA existed does not', async () => {
    const oldStored = await createCertificateAuthority({
      passphrase: TEST_PASSPHRASE,
      kdfIterations: 100_000,
      now: new Date('2019-12-01T00:00:00Z'),
    });
    const oldCa = await loadCertificateAuthority(oldStored, TEST_PASSPHRASE);
    const expired = await oldCa.issueSignerCertificate({
      publicJwk: ann.publicJwk,
      identity: ANN,
      now: new Date('2020-01-01T00:00:00Z'),
      validityDays: 30,
    });
    const signed = await signPdf(original, { ...ann, certificate: expired }, oldCa, {
      signingTime: new Date('2020-01-15T00:00:00Z'),
    });
    const report = await verifyPdf(signed, { caCertificate: oldCa.certificateDer });
    expect(report.signatures[0]).toMatchObject({ intact: true, chainsToPlatformCa: true });
    expect(report.verdict.status).toBe('authentic');

    // Our CA was made today: a certificate dated 2020 cannot have come from it, whatever its signature says.
    const backdated = await ca.issueSignerCertificate({
      publicJwk: ann.publicJwk,
      identity: ANN,
      now: new Date('2020-01-01T00:00:00Z'),
      validityDays: 30,
    });
    const early = await signPdf(original, { ...ann, certificate: backdated }, ca, {
      signingTime: new Date('2020-01-15T00:00:00Z'),
    });
    const earlyReport = await verify(early);
    expect(earlyReport.signatures[0]).toMatchObject({ intact: true, chainsToPlatformCa: false });
    expect(earlyReport.signatures[0]!.problems).toEqual([
      'The CA certificate was not valid at the signing time',
    ]);
  });
});

describe("the signer's standing", () => {
  const WITHDRAWN = "The signer's phone was revoked";
  type Asked = { certificateSha256: string; revisionSha256: string | null; signingTime: Date | null };
  const withStanding = (bytes: Uint8Array, answer: (signature: Asked) => string | undefined) => {
    const asked: Asked[] = [];
    const report = verifyPdf(bytes, {
      caCertificate: ca.certificatePem,
      signerStanding: (signature) => {
        asked.push(signature);
        return Promise.resolve(answer(signature));
      },
    });
    return { report, asked };
  };

  it('a problem it answers makes an intact signature that chains not vouched for, and says why', async () => {
    const { report: pending, asked } = withStanding(signedOnce, () => WITHDRAWN);
    const report = await pending;
    expect(asked).toEqual([
      {
        certificateSha256: ann.certificate.fingerprint,
        revisionSha256: sha256(signedOnce),
        signingTime: ANN_TIME,
      },
    ]);
    expect(report.signatures[0]).toMatchObject({
      intact: true,
      chainsToPlatformCa: true,
      signerWithdrawn: true,
      problems: [WITHDRAWN],
    });
    expect(report.verdict).toEqual({
      status: 'untrusted',
      summary:
        'The signed bytes are intact, but signature 1 (Ann Lee (ann@careplane.local)) is not vouched for by Careplane: ' +
        "the signer's phone was revoked.",
      changedAfter: null,
    });
  });

  it('names the signature whose signer it withdrew, not an earlier one it still vouches for', async () => {
    const { report: pending } = withStanding(signedTwice, ({ certificateSha256 }) =>
      certificateSha256 === bob.certificate.fingerprint ? WITHDRAWN : undefined,
    );
    const report = await pending;
    expect(report.signatures.map((signature) => signature.signerWithdrawn)).toEqual([false, true]);
    expect(report.verdict.status).toBe('untrusted');
    expect(report.verdict.summary).toBe(
      'The signed bytes are intact, but signature 2 (Bob Okafor (bob@careplane.local)) is not vouched for by Careplane: ' +
        "the signer's phone was revoked.",
    );
  });

  it('answering nothing leaves the signature authentic', async () => {
    const { report: pending, asked } = withStanding(signedTwice, () => undefined);
    const report = await pending;
    expect(asked.map((signature) => signature.certificateSha256)).toEqual([
      ann.certificate.fingerprint,
      bob.certificate.fingerprint,
    ]);
    expect(report.verdict.status).toBe('authentic');
    expect(report.signatures.map((signature) => [signature.signerWithdrawn, signature.problems])).toEqual([
      [false, []],
      [false, []],
    ]);
  });

  it('is not asked about a signature that does not chain to the CA', async () => {
    const impostorCa = await testAuthority();
    const impostor = await testSigner(impostorCa, ANN);
    const { report: pending, asked } = withStanding(
      await signPdf(original, impostor, impostorCa),
      () => WITHDRAWN,
    );
    const report = await pending;
    expect(asked).toEqual([]);
    expect(report.signatures[0]).toMatchObject({ chainsToPlatformCa: false, signerWithdrawn: false });
    expect(report.signatures[0]!.problems).toEqual([
      'The certificate was not issued by the Careplane document signing CA',
    ]);
    expect(report.verdict.summary).toMatch(
      /the certificate was not issued by the Careplane document signing CA\.$/,
    );
  });

  it('does not hide tampering', async () => {
    const { report: pending } = withStanding(
      flipByte(signedOnce, Math.floor(original.length / 2)),
      () => WITHDRAWN,
    );
    const report = await pending;
    expectNoSignatureHolds(report);
    expect(report.signatures[0]).toMatchObject({
      intact: false,
      chainsToPlatformCa: true,
      signerWithdrawn: true,
    });
    expect(report.verdict.summary).toContain('the signed bytes were changed');
  });
});

describe('files without valid signatures', () => {
  it('a PDF with no signature is unsigned', async () => {
    const report = await verify(original, [sha256(original)]);
    expect(report.verdict).toEqual({
      status: 'unsigned',
      summary: 'Not signed: the file contains no signatures.',
      changedAfter: null,
    });
    expect(report.fileKnownToPlatform).toBe(true);
  });

  it('what is not a PDF, or a cut PDF, gets a verdict and never an exception', async () => {
    const inputs = [
      new Uint8Array(0),
      new TextEncoder().encode('%PDF-1.7\nnothing else'),
      signedOnce.subarray(0, Math.floor(signedOnce.length / 2)),
      signedOnce.subarray(0, signedOnce.length - 20),
      Uint8Array.from({ length: 4096 }, (_, i) => (i * 7919) & 0xff),
    ];
    for (const bytes of inputs) {
      const report = await verify(bytes);
      expect(['unreadable', 'tampered', 'unsigned']).toContain(report.verdict.status);
      expect(report.verdict.summary.length).toBeGreaterThan(10);
    }
  });

  it('random damage to a signed file never throws', async () => {
    let seed = 11;
    for (let i = 0; i < 150; i++) {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      const damaged = Uint8Array.from(signedTwice);
      for (let k = 0; k < 4; k++) damaged[(seed >> k) % damaged.length] = (seed >> (k * 3)) & 0xff;
      const report = await verify(damaged);
      expect(['tampered', 'unreadable', 'unsigned', 'authentic']).toContain(report.verdict.status);
    }
  });
});

describe('large files', () => {
  it('a 10 MB PDF signs twice and verifies', async () => {
    const large = await createLargeSamplePdf(10 * 1024 * 1024);
    expect(large.length).toBeGreaterThan(9.5 * 1024 * 1024);
    const signed = await signPdf(await signPdf(large, ann, ca), bob, ca);
    const report = await verify(signed);
    expect(report.verdict.status).toBe('authentic');
    expect(report.signatures.map((s) => s.intact)).toEqual([true, true]);
  });
});

describe('dates', () => {
  it('read PDF dates with zones and missing parts, and show them as DD.MM.YYYY HH:mm UTC', () => {
    const date = (text: string) => parsePdfDate(PdfString.text(text));
    expect(date("D:20261123140200+00'00'")).toEqual(new Date('2026-11-23T14:02:00Z'));
    expect(date("D:20261123210200+07'00'")).toEqual(new Date('2026-11-23T14:02:00Z'));
    expect(date('D:20261123140200Z')).toEqual(new Date('2026-11-23T14:02:00Z'));
    expect(date('D:2026')).toEqual(new Date('2026-01-01T00:00:00Z'));
    expect(date('yesterday')).toBeNull();
    expect(formatTime(new Date('2026-11-23T14:02:59Z'))).toBe('23.11.2026 14:02 UTC');
    expect(formatTime(null)).toBe('an unknown date');
  });
});
