// The verifier once a phone is lost (decision 099): a signature Careplane completed stays vouched for, one made
// with the same phone key outside Careplane is vouched for only while the key is enrolled and not revoked.
import { webcrypto } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completeSignature, prepareSignature } from '@careplane/pdf-signatures';
import { createSamplePdf } from '@careplane/pdf-signatures/samples';
import type { VerificationReport } from '@careplane/shared/documents/documents.contract';
import { authAuthenticatorKeys, documentSignerCertificates, documents } from '@/db/schema/index.js';
import { createTestContext, type TestContext } from '@/test/harness.js';
import { documentsTestKit, multipart, type Person } from './documents.test-helpers.js';

let context: TestContext;
const db = () => context.database.db;
const { person, call, upload, sign } = documentsTestKit(() => context);

const REVOKED =
  "The signer's phone was revoked, and Careplane did not complete this signature: it cannot tell when it was made";
const NOT_ENROLLED =
  "The signer's phone is no longer enrolled, and Careplane did not complete this signature: it cannot tell when it was made";
const REVOKED_TH = 'โทรศัพท์ของผู้ลงนามถูกเพิกถอนแล้ว และ Careplane ไม่ได้เป็นผู้ทำลายมือชื่อนี้ให้สมบูรณ์ จึงบอกไม่ได้ว่าลงนามเมื่อใด';
const NOT_ENROLLED_TH =
  'โทรศัพท์ของผู้ลงนามไม่ได้ลงทะเบียนไว้แล้ว และ Careplane ไม่ได้เป็นผู้ทำลายมือชื่อนี้ให้สมบูรณ์ จึงบอกไม่ได้ว่าลงนามเมื่อใด';

async function verify(bytes: Uint8Array, language = 'en'): Promise<VerificationReport> {
  const body = multipart([{ name: 'file', value: bytes, filename: 'x.pdf' }]);
  const answer = await context.app.inject({
    method: 'POST',
    url: '/api/documents/verify',
    headers: { 'content-type': body.contentType, 'accept-language': language },
    payload: body.payload,
  });
  expect(answer.statusCode, answer.body).toBe(200);
  return answer.json<VerificationReport>();
}

/** A signature made with the phone's key and the certificate Careplane issued for it, without Careplane. */
async function signOutside(pdf: Uint8Array, who: Person, signingTime: Date): Promise<Uint8Array> {
  const [certificate] = await db()
    .select({ der: documentSignerCertificates.der })
    .from(documentSignerCertificates)
    .where(eq(documentSignerCertificates.keyId, who.key.keyId));
  const prepared = prepareSignature(pdf, {
    signerName: 'Rita Lost',
    signingTime,
    signerCertificate: certificate!.der,
    caCertificate: (await call(null).get('/api/documents/ca.pem')).body,
  });
  const signature = await webcrypto.subtle.sign(
    { name: 'ECDSA', hash: 'SHA-256' },
    who.key.privateKey as webcrypto.CryptoKey,
    prepared.toBeSigned,
  );
  return completeSignature(prepared, { signature: new Uint8Array(signature) });
}

let rita: Person;
let documentId: string;
/** Signed through Careplane: the phone answered Careplane's request. */
let completed: Uint8Array;
/** Signed with the same key, outside Careplane: a fresh file, and Careplane's signed file signed again. */
let outside: Uint8Array;
let outsideAfterCompleted: Uint8Array;

beforeAll(async () => {
  context = await createTestContext({ DOCUMENTS_VERIFY_RATE_LIMIT: '1000' });
  rita = await person('Rita', 'Lost');
  documentId = (await upload(rita, await createSamplePdf({ title: 'Signed on Careplane' }), 'Signed')).id;
  await sign(rita, documentId);
  completed = (await call(rita.token).get(`/api/documents/${documentId}/download/signed`)).rawPayload;
  const signingTime = new Date();
  outside = await signOutside(await createSamplePdf({ title: 'Signed elsewhere' }), rita, signingTime);
  outsideAfterCompleted = await signOutside(completed, rita, signingTime);
});
afterAll(async () => {
  await context?.close();
});

const withdrawnIn = (report: VerificationReport) =>
  report.signatures.map((signature) => signature.signerWithdrawn);

describe("a signer's phone key", () => {
  it('while enrolled, vouches for signatures made with it, on Careplane or not', async () => {
    for (const bytes of [completed, outside, outsideAfterCompleted]) {
      const report = await verify(bytes);
      expect(report.verdict.status, report.verdict.summary).toBe('authentic');
      expect(
        report.signatures.every((signature) => !signature.signerWithdrawn && signature.problems.length === 0),
      ).toBe(true);
    }
  });

  it('calls known only what Careplane completed, not a file someone uploaded', async () => {
    // Anyone signed in may upload any file: holding it says nothing about who made it.
    await upload(rita, outside, 'Signed elsewhere, uploaded');
    const report = await verify(outside);
    expect(report.verdict.status).toBe('authentic');
    expect(report.fileKnownToPlatform).toBe(false);
    expect(report.signatures[0]!.knownToPlatform).toBe(false);
    expect(report.verdict.summary).not.toMatch(/Careplane completed/);

    const made = await verify(completed);
    expect(made.fileKnownToPlatform).toBe(true);
    expect(made.signatures[0]!.knownToPlatform).toBe(true);
    expect(made.verdict.summary).toMatch(/ Careplane completed this exact file\.$/);

    // Careplane's signed file, signed again outside and uploaded: only the first signature is Careplane's.
    await upload(rita, outsideAfterCompleted, 'Signed again elsewhere, uploaded');
    const both = await verify(outsideAfterCompleted);
    expect(both.fileKnownToPlatform).toBe(false);
    expect(both.signatures.map((signature) => signature.knownToPlatform)).toEqual([true, false]);
    expect(both.verdict.summary).toMatch(/ Careplane completed a signed version of this document\.$/);
  });

  it('once revoked, vouches only for what Careplane completed, and says why in English and Thai', async () => {
    await db()
      .update(authAuthenticatorKeys)
      .set({ revokedAt: new Date() })
      .where(eq(authAuthenticatorKeys.id, rita.key.keyId));

    const kept = await verify(completed);
    expect(kept.verdict.status, kept.verdict.summary).toBe('authentic');
    expect(withdrawnIn(kept)).toEqual([false]);

    const report = await verify(outside);
    expect(report.verdict.status).toBe('untrusted');
    expect(report.signatures[0]).toMatchObject({
      intact: true,
      chainsToPlatformCa: true,
      signerWithdrawn: true,
      problems: [REVOKED],
    });
    expect(report.verdict.summary).toMatch(
      /^The signed bytes are intact, but signature 1 \(Rita Lost \(rita\d+@careplane\.test\)\) is not vouched for by Careplane: the signer's phone was revoked, and Careplane did not complete this signature: it cannot tell when it was made\.$/,
    );
    const thai = await verify(outside, 'th');
    expect(thai.signatures[0]!.problems).toEqual([REVOKED_TH]);
    expect(thai.verdict).toMatchObject({ status: 'untrusted' });
    expect(thai.verdict.summary).toMatch(
      /^ข้อมูลที่ลงนามยังครบถ้วน แต่ Careplane ไม่ได้รับรองลายมือชื่อที่ 1 \(Rita Lost \(rita\d+@careplane\.test\)\): /,
    );
    expect(thai.verdict.summary.endsWith(REVOKED_TH)).toBe(true);

    // Careplane's own signature first, the outside one after it: the verdict names the second.
    const both = await verify(outsideAfterCompleted);
    expect(both.verdict.status).toBe('untrusted');
    expect(withdrawnIn(both)).toEqual([false, true]);
    expect(both.verdict.summary).toMatch(
      / but signature 2 \(Rita Lost \(rita\d+@careplane\.test\)\) is not vouched for by Careplane: the signer's phone was revoked, /,
    );
    const bothInThai = await verify(outsideAfterCompleted, 'th');
    expect(bothInThai.verdict.summary).toMatch(/ไม่ได้รับรองลายมือชื่อที่ 2 \(Rita Lost .*\): /);
    expect(bothInThai.verdict.summary.endsWith(REVOKED_TH)).toBe(true);
  });

  it('once no longer enrolled (its row deleted), vouches only for what Careplane completed', async () => {
    await db().delete(authAuthenticatorKeys).where(eq(authAuthenticatorKeys.id, rita.key.keyId));

    expect((await verify(completed)).verdict.status).toBe('authentic');
    const report = await verify(outside);
    expect(report.verdict.status).toBe('untrusted');
    expect(report.signatures[0]).toMatchObject({ signerWithdrawn: true, problems: [NOT_ENROLLED] });
    expect(report.verdict.summary).toMatch(
      /: the signer's phone is no longer enrolled, and Careplane did not complete /,
    );
    const thai = await verify(outside, 'th');
    expect(thai.signatures[0]!.problems).toEqual([NOT_ENROLLED_TH]);
    expect(thai.verdict.summary.endsWith(NOT_ENROLLED_TH)).toBe(true);
  });

  it('whose certificate is no longer on record still leaves what Careplane completed vouched for', async () => {
    // The document goes, and with it its signing requests (which name the certificate); the record stays.
    expect((await call(rita.token).delete(`/api/documents/${documentId}`)).statusCode).toBe(204);
    await db().delete(documentSignerCertificates).where(eq(documentSignerCertificates.keyId, rita.key.keyId));

    expect((await verify(completed)).verdict.status).toBe('authentic');
    const report = await verify(outsideAfterCompleted);
    expect(withdrawnIn(report)).toEqual([false, true]);
    expect(report.signatures[1]!.problems).toEqual([NOT_ENROLLED]);
  });
});

describe('a signature waiting on a phone that is revoked', () => {
  it('ends as failed and says the phone was revoked, in English and Thai; a phone that denied still reads denied', async () => {
    const admin = await person('Ada', 'Admin', ['admin']);
    const sam = await person('Sam', 'Lost');
    const id = (await upload(sam, await createSamplePdf({ title: 'Waiting' }), 'Waiting')).id;
    const started = await call(sam.token).post(`/api/documents/${id}/sign`);
    expect(started.statusCode, started.body).toBe(200);
    const { requestId } = started.json<{ requestId: string }>();

    const revoked = await call(admin.token).post(`/api/users/${sam.userId}/phones/${sam.key.keyId}/revoke`);
    expect(revoked.statusCode, revoked.body).toBe(200);

    // Sam's sign-ins ended with the phone: Sam signs in again (a fresh token) and reads the request.
    const again = await context.signer.sign({ roles: ['public'] }, { subject: sam.identityId });
    const state = async (language: string) =>
      context.app.inject({
        url: `/api/documents/${id}/signing/${requestId}`,
        headers: { authorization: `Bearer ${again}`, 'accept-language': language },
      });
    expect((await state('en')).json()).toEqual({
      requestId,
      status: 'failed',
      message:
        'The phone was revoked before it answered, so nothing was signed: ask again once another phone is enrolled',
    });
    expect((await state('th')).json()).toMatchObject({
      status: 'failed',
      message: 'โทรศัพท์ถูกเพิกถอนก่อนที่จะตอบกลับ จึงไม่มีการลงนามใด ๆ โปรดขอลงนามอีกครั้งเมื่อลงทะเบียนโทรศัพท์เครื่องใหม่แล้ว',
    });
    const [document] = await db().select().from(documents).where(eq(documents.id, id));
    expect(document).toMatchObject({ signedSha256: null, isSigned: false });
    // Asking again before another phone is enrolled says why nothing can sign.
    const refused = await context.app.inject({
      method: 'POST',
      url: `/api/documents/${id}/sign`,
      headers: { authorization: `Bearer ${again}` },
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(
      "The signer has no phone that may sign: none is enrolled, or every one was revoked. An administrator enrolls one on the signer's page",
    );

    // The phone's own denial, its key revoked afterwards, stays the phone's.
    const other = await person('Dee', 'Nied');
    const denied = (await upload(other, await createSamplePdf({ title: 'Denied' }), 'Denied')).id;
    const { requestId: deniedId } = await sign(other, denied, 'deny');
    await call(admin.token).post(`/api/users/${other.userId}/phones/${other.key.keyId}/revoke`);
    const later = await context.signer.sign({ roles: ['public'] }, { subject: other.identityId });
    const read = await context.app.inject({
      url: `/api/documents/${denied}/signing/${deniedId}`,
      headers: { authorization: `Bearer ${later}` },
    });
    expect(read.json()).toEqual({ requestId: deniedId, status: 'denied' });
  });
});
