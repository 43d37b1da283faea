import { createHash, sign as nodeSign, generateKeyPairSync } from 'node:crypto';
import { PDFDocument } from 'pdf-lib';
import { beforeAll, describe, expect, it } from 'vitest';
import type { CertificateAuthority } from './certificate-authority.js';
import { OIDS } from './cms-signature.js';
import { children, contentBytes, decodeOid, readDer } from './der-encoding.js';
import { SigningError } from './signing-error.js';
import { ANN, BOB, pdfsig, signPdf, testAuthority, testSigner, type TestSigner } from './test-helpers.js';
import { completeSignature, prepareSignature, type PrepareSignatureOptions } from './pdf-signing.js';
import { createSamplePdf } from './sample-pdf.js';

let ca: CertificateAuthority;
let ann: TestSigner;
let bob: TestSigner;

beforeAll(async () => {
  ca = await testAuthority();
  ann = await testSigner(ca, ANN);
  bob = await testSigner(ca, BOB);
});

// Signing times inside the certificates' validity, which starts when the test issues them.
const signedAt = new Date(Math.floor(Date.now() / 60_000) * 60_000 + 60_000);
const nextDay = new Date(signedAt.getTime() + 18.5 * 3_600_000);
const two = (n: number) => String(n).padStart(2, '0');
/** The PDF date of `signedAt`, as in the signature's /M entry. */
const pdfDate = (d: Date) =>
  `D:${d.getUTCFullYear()}${two(d.getUTCMonth() + 1)}${two(d.getUTCDate())}${two(d.getUTCHours())}${two(d.getUTCMinutes())}00+00'00'`;
/** How pdfsig prints it ("Nov 23 2026 14:02:00"). */
const pdfsigDate = (d: Date) =>
  `${d.toLocaleString('en-US', { month: 'short', timeZone: 'UTC' })} ${two(d.getUTCDate())} ${d.getUTCFullYear()} ${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:00`;

const options = (
  signer: TestSigner,
  extra: Partial<PrepareSignatureOptions> = {},
): PrepareSignatureOptions => ({
  signerName: `${signer.identity.firstName} ${signer.identity.lastName}`,
  signingTime: signedAt,
  signerCertificate: signer.certificate.pem,
  caCertificate: ca.certificatePem,
  reason: 'Care plan agreed',
  location: 'Bangkok',
  ...extra,
});

const startsWith = (bytes: Uint8Array, prefix: Uint8Array) =>
  Buffer.compare(bytes.subarray(0, prefix.length), prefix) === 0;
const text = (bytes: Uint8Array) => Buffer.from(bytes).toString('latin1');

/** A classic-table PDF whose page keeps /Annots in its own object and whose catalog holds the form inline. */
function handmadePdf(): Uint8Array {
  const content = 'BT /F1 12 Tf 20 150 Td (Handmade page) Tj ET';
  const objects = [
    '<</Type /Catalog /Pages 2 0 R /AcroForm <</Fields [] /DA (/Helv 0 Tf 0 g)>>>>',
    '<</Type /Pages /Kids [3 0 R] /Count 1>>',
    '<</Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Annots 4 0 R /Contents 5 0 R>>',
    '[]',
    `<</Length ${content.length}>>\nstream\n${content}\nendstream`,
  ];
  let out = '%PDF-1.4\n%\xe2\xe3\xcf\xd3\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) out += `${String(offset).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<</Size ${objects.length + 1} /Root 1 0 R /ID [<0011> <0011>]>>\nstartxref\n${xref}\n%%EOF\n`;
  return new Uint8Array(Buffer.from(out, 'latin1'));
}

describe('a signature made on the phone, checked by pdfsig', () => {
  for (const useObjectStreams of [true, false]) {
    const kind = useObjectStreams ? 'a cross-reference stream' : 'a classic table';

    it(`is valid and covers the whole document (input with ${kind})`, async () => {
      const original = await createSamplePdf({ useObjectStreams });
      const signed = await signPdf(original, ann, ca, options(ann));
      expect(startsWith(signed, original)).toBe(true);

      const { output, signatures } = await pdfsig(signed);
      expect(signatures, output).toHaveLength(1);
      expect(signatures[0]).toEqual({
        fieldName: 'Signature1',
        commonName: 'Ann Lee',
        validation: 'Signature is Valid.',
        totalDocumentSigned: true,
        subFilter: 'ETSI.CAdES.detached',
      });
      expect(output).toContain(`Signing Time: ${pdfsigDate(signedAt)}`);
    });

    it(`stays valid when a second party signs (input with ${kind})`, async () => {
      const original = await createSamplePdf({ useObjectStreams });
      const first = await signPdf(original, ann, ca, options(ann));
      const second = await signPdf(first, bob, ca, options(bob, { signingTime: nextDay }));
      expect(startsWith(second, first)).toBe(true);

      const { output, signatures } = await pdfsig(second);
      expect(signatures, output).toHaveLength(2);
      expect(signatures.map((s) => [s.fieldName, s.commonName, s.validation, s.totalDocumentSigned])).toEqual(
        [
          ['Signature1', 'Ann Lee', 'Signature is Valid.', false],
          ['Signature2', 'Bob Okafor', 'Signature is Valid.', true],
        ],
      );
      expect(output).toMatch(
        /Signature #1:[\s\S]*Not total document signed[\s\S]*Signature #2:[\s\S]*Total document signed/,
      );
    });
  }

  it('keeps the fields of a form and the other readers of the file happy', async () => {
    const doc = await PDFDocument.load(await createSamplePdf());
    doc.getForm().createTextField('patient.name').setText('Ann Example');
    const original = await doc.save();
    const signed = await signPdf(original, ann, ca, options(ann));
    const { signatures } = await pdfsig(signed);
    expect(signatures.map((s) => s.validation)).toEqual(['Signature is Valid.']);
    const reloaded = await PDFDocument.load(signed);
    expect(
      reloaded
        .getForm()
        .getFields()
        .map((field) => field.getName()),
    ).toEqual(['patient.name', 'Signature1']);
  });

  it('updates indirect /Annots and an inline AcroForm of a hand-written file', async () => {
    const original = handmadePdf();
    const once = await signPdf(original, ann, ca, options(ann));
    const twice = await signPdf(once, bob, ca, options(bob));
    expect(text(once.subarray(original.length))).toMatch(/\n4 0 obj\n\[\d+ 0 R\]\nendobj/); // the /Annots array
    expect(text(once.subarray(original.length))).toMatch(/\n1 0 obj\n<<\/Type \/Catalog .*\/SigFlags 3/);
    expect(text(once.subarray(original.length))).toContain('/ID [<0011> <0011>]');
    const { output, signatures } = await pdfsig(twice);
    expect(
      signatures.map((s) => [s.validation, s.totalDocumentSigned]),
      output,
    ).toEqual([
      ['Signature is Valid.', false],
      ['Signature is Valid.', true],
    ]);
  });
});

describe('prepareSignature', () => {
  it('returns the signed attributes, whose message digest is the digest of the byte ranges', async () => {
    const original = await createSamplePdf();
    const prepared = prepareSignature(original, options(ann));
    const [start1, length1, start2, length2] = prepared.byteRange;
    expect(start1).toBe(0);
    expect(start2 + length2).toBe(prepared.prepared.length);
    expect(prepared.prepared[length1]).toBe(0x3c); // '<'
    expect(prepared.prepared[start2 - 1]).toBe(0x3e); // '>'
    const digest = createHash('sha256')
      .update(prepared.prepared.subarray(0, length1))
      .update(prepared.prepared.subarray(start2))
      .digest('hex');
    expect(prepared.documentDigest).toBe(digest);
    expect(prepared.originalDigest).toBe(createHash('sha256').update(original).digest('hex'));
    const attributes = children(readDer(prepared.toBeSigned));
    const messageDigest = attributes.find((a) => decodeOid(children(a)[0]!) === OIDS.messageDigest)!;
    const value = children(children(messageDigest)[1]!)[0]!;
    expect(Buffer.from(contentBytes(value)).toString('hex')).toBe(digest);
    expect(text(prepared.prepared)).toContain(`/ByteRange [0 ${length1} ${start2} ${length2}`);
    expect(text(prepared.prepared)).toContain(`/M (${pdfDate(signedAt)})`);
    expect(prepared.fieldName).toBe('Signature1');
  });

  it('is deterministic: the same inputs give the same bytes (a server can prepare again instead of storing)', async () => {
    const original = await createSamplePdf();
    const a = prepareSignature(original, options(ann));
    const b = prepareSignature(original, options(ann));
    expect(Buffer.compare(a.prepared, b.prepared)).toBe(0);
    expect(Buffer.compare(a.toBeSigned, b.toBeSigned)).toBe(0);
  });

  it('writes names outside ASCII as UTF-16 text strings', async () => {
    const prepared = prepareSignature(await createSamplePdf(), options(ann, { signerName: 'Zoë Ørsted' }));
    expect(text(prepared.prepared)).toContain('/Name <feff005a006f00eb0020');
  });

  it('refuses a certificate the CA did not issue, a signing time outside it, and files it cannot sign', async () => {
    const pdf = await createSamplePdf();
    const rogueCa = await testAuthority('Rogue CA');
    const rogue = await testSigner(rogueCa, ANN);
    expect(() => prepareSignature(pdf, options(rogue))).toThrow(/not issued by the CA/);
    expect(() =>
      prepareSignature(pdf, options(ann, { signingTime: new Date('2040-01-01T00:00:00Z') })),
    ).toThrow(/not valid at the signing time/);
    expect(() => prepareSignature(pdf, options(ann, { signerCertificate: 'not a certificate' }))).toThrow(
      SigningError,
    );
    expect(() => prepareSignature(new TextEncoder().encode('hello'), options(ann))).toThrow(/not a PDF/);
    const encrypted = text(handmadePdf()).replace(
      '/ID [<0011> <0011>]',
      '/ID [<0011> <0011>] /Encrypt 9 0 R',
    );
    expect(() => prepareSignature(Buffer.from(encrypted, 'latin1'), options(ann))).toThrow(/Encrypted PDFs/);
    const tooLong = 'x'.repeat(300);
    expect(() => prepareSignature(pdf, options(ann, { reason: tooLong }))).toThrow(SigningError);
  });
});

describe('completeSignature', () => {
  it('accepts the P1363 signature as bytes or base64url, and DER', async () => {
    const prepared = prepareSignature(await createSamplePdf(), options(ann));
    const p1363 = await ann.sign(prepared.toBeSigned);
    const fromBytes = completeSignature(prepared, { signature: p1363 });
    const fromText = completeSignature(prepared, { signature: Buffer.from(p1363).toString('base64url') });
    expect(Buffer.compare(fromBytes, fromText)).toBe(0);
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    // DER is accepted as a form; this one is by another key, so it is refused for that reason.
    const der = nodeSign('sha256', prepared.toBeSigned, privateKey);
    expect(() => completeSignature(prepared, { signature: der })).toThrow(/does not verify/);
    // The prepared document itself is not changed.
    expect(text(prepared.prepared)).toMatch(/\/Contents <0{16384}>/);
  });

  it('refuses a signature by another key, over other bytes, or not a signature at all', async () => {
    const prepared = prepareSignature(await createSamplePdf(), options(ann));
    await expect(
      bob.sign(prepared.toBeSigned).then((s) => completeSignature(prepared, { signature: s })),
    ).rejects.toThrow(
      new SigningError('invalid-input', "The signature does not verify with the signer's certificate"),
    );
    const overOther = await ann.sign(new TextEncoder().encode('something else'));
    expect(() => completeSignature(prepared, { signature: overOther })).toThrow(/does not verify/);
    expect(() => completeSignature(prepared, { signature: new Uint8Array(10) })).toThrow(SigningError);
    expect(() => completeSignature(prepared, { signature: '***' })).toThrow(SigningError);
  });

  it('refuses a prepared document that changed since it was prepared', async () => {
    const prepared = prepareSignature(await createSamplePdf(), options(ann));
    const signature = await ann.sign(prepared.toBeSigned);
    const changed = Uint8Array.from(prepared.prepared);
    changed[20] = changed[20]! ^ 1;
    expect(() => completeSignature({ ...prepared, prepared: changed }, { signature })).toThrow(
      /changed after it was prepared/,
    );
    // Not the signer's mistake: the caller answers it as its own failure.
    expect(() => completeSignature({ ...prepared, prepared: changed }, { signature })).toThrow(
      expect.objectContaining({ reason: 'internal' }),
    );
  });
});
