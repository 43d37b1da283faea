// The custody chain completes on the server when the phone answers: nobody polls the signing request here.
// Issue and pickup reach their status with a signed receipt; denied and expired requests end cleanly and
// leave the status; of two approved pickups the first wins; an action whose signature ended without it is
// settled by the sweep. Runs on the embedded database and, with DATABASE_URL_TEST, on PostgreSQL.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  authRequests,
  documentSigningRequests,
  documents,
  prescriptionSignings,
  prescriptions,
  users,
} from '@/db/schema/index.js';
import {
  answerOnPhone,
  createServiceProvider,
  createSigningUser,
  type SigningUser,
} from '@/test/factories.js';
import { api, createTestContext, type TestContext } from '@/test/harness.js';
import { auditRows } from '@/test/records.js';
import { pdfsig } from '@careplane/pdf-signatures/testing';

let context: TestContext;
const db = () => context.database.db;
let pharmacy: string;
let couriers: string;
let doctor: SigningUser;
let patient: SigningUser;
let courier: SigningUser;
let otherCourier: SigningUser;

const as = (who: SigningUser) => api(context, who.token);

beforeAll(async () => {
  // The sweep runs every second here, so expiry is seen without waiting the default 30 s.
  context = await createTestContext({ DOCUMENTS_SIGNING_SWEEP_SECONDS: '1' });
  pharmacy = (await createServiceProvider(context, { title: 'Riverside Pharmacy', type: 'pharmacy' })).id;
  couriers = (await createServiceProvider(context, { title: 'Swift Couriers', type: 'courier' })).id;
  doctor = await createSigningUser(context, 'Dora', { localRoles: ['doctor'] });
  patient = await createSigningUser(context, 'Pia', { localRoles: ['patient'] });
  courier = await createSigningUser(context, 'Cole', { localRoles: ['courier'], employers: [couriers] });
  otherCourier = await createSigningUser(context, 'Cleo', { localRoles: ['courier'], employers: [couriers] });
});
afterAll(async () => {
  await context?.close();
});

/** The text of a PDF as an ordinary tool reads it (poppler's pdftotext), its columns run together. */
async function pdfText(bytes: Uint8Array): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'careplane-receipt-'));
  try {
    const file = path.join(dir, 'receipt.pdf');
    await writeFile(file, bytes);
    const { stdout } = await promisify(execFile)('pdftotext', [file, '-']);
    return stdout.replace(/\s+/g, ' ');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function prescription(status?: 'ready') {
  const answer = await as(doctor).post('/api/prescriptions', {
    issuer: doctor.id,
    supplier: pharmacy,
    recipient: patient.id,
    shipper: couriers,
    content: [{ name: 'Metformin', strength: '500 mg', quantity: 60, unit: 'tablets' }],
  });
  expect(answer.statusCode, answer.body).toBe(201);
  const id = answer.json<{ id: string }>().id;
  if (status) await db().update(prescriptions).set({ status }).where(eq(prescriptions.id, id));
  return id;
}

async function ask(who: SigningUser, id: string, action: 'issue' | 'pickup') {
  const started = await as(who).post(`/api/prescriptions/${id}/${action}`);
  expect(started.statusCode, started.body).toBe(202);
  return started.json<{ requestId: string; bindingMessage: string }>().requestId;
}

const rowOf = async (id: string) =>
  (await db().select().from(prescriptions).where(eq(prescriptions.id, id)))[0]!;

const signingOf = async (requestId: string) =>
  (await db().select().from(prescriptionSignings).where(eq(prescriptionSignings.id, requestId)))[0]!;

/** Waits for the server to settle the action: an event, looked at in the database, never through the API. */
async function settled(requestId: string) {
  await expect
    .poll(async () => (await signingOf(requestId)).status, { timeout: 15_000, interval: 50 })
    .not.toBe('pending');
  return signingOf(requestId);
}

const actions = async (resource: string, id: string) =>
  (await auditRows(context, resource, id)).map((row) => row.action);

/** The receipt an action generated for the phone to sign (its document), looked up before it settles. */
const receiptOf = async (requestId: string) => (await signingOf(requestId)).documentId!;

/**
 * A receipt withdrawn with the action that did not happen (decision 063): no document, no file of its own,
 * not in its signer's documents, and its removal audited.
 */
async function expectWithdrawn(documentId: string, signer: SigningUser) {
  expect(await db().select().from(documents).where(eq(documents.id, documentId))).toEqual([]);
  expect((await as(signer).get(`/api/documents/${documentId}`)).statusCode).toBe(404);
  const listed = await as(signer).get('/api/documents?limit=100');
  expect(listed.json<{ items: { id: string }[] }>().items.map((item) => item.id)).not.toContain(documentId);
  expect((await actions('documents', documentId)).at(-1)).toBe('delete');
}

describe('a phone approval completes on the server, with nobody polling', () => {
  it('issues the prescription with the doctor’s signed receipt, once', async () => {
    const id = await prescription();
    const requestId = await ask(doctor, id, 'issue');
    await answerOnPhone(doctor, requestId, 'approve');

    expect(await settled(requestId)).toMatchObject({ status: 'signed', failure: null });
    const row = await rowOf(id);
    expect(row.status).toBe('issued');
    expect(row.issuerReceiptId).not.toBeNull();
    const [receipt] = await db().select().from(documents).where(eq(documents.id, row.issuerReceiptId!));
    expect(receipt).toMatchObject({ isSigned: true });
    expect(receipt!.signingPartiesMetadata).toHaveLength(1);
    expect(await actions('prescriptions', id)).toEqual(['create', 'issue-requested', 'issue']);
    expect(await actions('documents', receipt!.id)).toEqual(['create', 'sign-request', 'sign']);
    const [audit] = (await auditRows(context, 'prescriptions', id)).filter((r) => r.action === 'issue');
    expect(audit).toMatchObject({ actorUserId: doctor.id, changes: { status: 'issued', requestId } });

    // The receipt an ordinary PDF tool reads: one valid signature.
    const file = await as(doctor).get(`/api/prescriptions/${id}/receipts/issuer`);
    expect(file.statusCode).toBe(200);
    const { signatures } = await pdfsig(file.rawPayload);
    expect(signatures).toHaveLength(1);
    expect(signatures[0]).toMatchObject({ validation: 'Signature is Valid.', totalDocumentSigned: true });
    expect(signatures[0]!.commonName).toContain('Dora');

    // A look afterwards reports what the server did; it changes nothing more.
    const state = await as(doctor).get(`/api/prescriptions/${id}/signing/${requestId}`);
    expect(state.json()).toMatchObject({ status: 'signed', prescription: { id, status: 'issued' } });
    expect(await actions('prescriptions', id)).toEqual(['create', 'issue-requested', 'issue']);
  });

  it('asks the prescriber’s phone when an admin issues, and says whose', async () => {
    const id = await prescription();
    const started = await api(context).post(`/api/prescriptions/${id}/issue`);
    expect(started.statusCode, started.body).toBe(202);
    expect(started.json()).toMatchObject({ signerUserId: doctor.id, signerName: 'Dora Test' });
    // The phone says what is signed, and for whom.
    const asked = (await doctor.authenticator.pending(doctor.key)).find(
      (request) => request.id === started.json().requestId,
    );
    expect(asked?.details.description).toBe(
      'Issue the prescription for Pia Test: Metformin 500 mg × 60 tablets',
    );
    await answerOnPhone(doctor, started.json().requestId, 'approve');
    expect((await settled(started.json().requestId)).status).toBe('signed');
    const [audit] = (await auditRows(context, 'prescriptions', id)).filter((r) => r.action === 'issue');
    expect(audit).toMatchObject({ actorUserId: doctor.id, changes: { requestedBy: context.adminUserId } });
  });

  it('tells the phone what it signs in the signer’s own language, else in the request’s', async () => {
    const titles: string[] = [];
    const description = async (
      who: SigningUser,
      id: string,
      action: 'issue' | 'pickup',
      language?: string,
    ) => {
      const started = await context.app.inject({
        method: 'POST',
        url: `/api/prescriptions/${id}/${action}`,
        headers: {
          authorization: `Bearer ${who.token}`,
          ...(language ? { 'accept-language': language } : {}),
        },
      });
      expect(started.statusCode, started.body).toBe(202);
      const asked = (await who.authenticator.pending(who.key)).find(
        (request) => request.id === started.json().requestId,
      );
      // The generated receipt's title, in the signer's documents, follows the same language.
      const [generated] = await db()
        .select({ title: documents.title })
        .from(prescriptionSignings)
        .innerJoin(documents, eq(documents.id, prescriptionSignings.documentId))
        .where(eq(prescriptionSignings.id, started.json<{ requestId: string }>().requestId));
      titles.push(generated?.title.replace(`(${id.slice(0, 8)})`, '(…)') ?? '');
      await answerOnPhone(who, started.json().requestId, 'deny');
      return asked?.details.description;
    };
    const setLanguage = (who: SigningUser, language: string | null) =>
      db().update(users).set({ language }).where(eq(users.id, who.id));

    // The doctor chose Thai: asked from a console in English, the phone still speaks Thai.
    await setLanguage(doctor, 'th');
    try {
      expect(await description(doctor, await prescription(), 'issue', 'en')).toBe(
        'ออกใบสั่งยาให้ Pia Test: Metformin 500 mg × 60 tablets',
      );
    } finally {
      await setLanguage(doctor, null);
    }
    // Nobody chose: the request's language.
    expect(await description(doctor, await prescription(), 'issue', 'th-TH')).toBe(
      'ออกใบสั่งยาให้ Pia Test: Metformin 500 mg × 60 tablets',
    );
    expect(await description(doctor, await prescription(), 'issue')).toBe(
      'Issue the prescription for Pia Test: Metformin 500 mg × 60 tablets',
    );
    // The courier chose English: a Thai request does not change their phone's words.
    await setLanguage(courier, 'en');
    try {
      expect(await description(courier, await prescription('ready'), 'pickup', 'th')).toBe(
        'Pick up for Pia Test from Riverside Pharmacy: Metformin 500 mg × 60 tablets',
      );
    } finally {
      await setLanguage(courier, null);
    }
    // Which receipt, for whom, and which prescription (its short id).
    expect(titles).toEqual([
      'ใบสั่งยาของ Pia Test (…)',
      'ใบสั่งยาของ Pia Test (…)',
      'Prescription for Pia Test (…)',
      'Pickup receipt for Pia Test (…)',
    ]);
  });

  it('picks up with the courier’s signed receipt and makes the courier the driver', async () => {
    const id = await prescription('ready');
    const deliveryAddress = { title: 'Home', street: 'Nimman Rd', houseNumber: '7', city: 'Chiang Mai' };
    await db().update(prescriptions).set({ deliveryAddress }).where(eq(prescriptions.id, id));
    const requestId = await ask(courier, id, 'pickup');
    await answerOnPhone(courier, requestId, 'approve');
    expect((await settled(requestId)).status).toBe('signed');
    const row = await rowOf(id);
    expect(row).toMatchObject({ status: 'picked_up', shipperDriverId: courier.id });
    expect(row.pickupReceiptId).not.toBeNull();
    // The receipt writes the address where it goes as the console does: street and number, then the city (the
    // address's own name, "Home", is the patient's label for it, not part of it).
    const file = await as(courier).get(`/api/prescriptions/${id}/receipts/pickup`);
    expect(file.statusCode).toBe(200);
    const text = await pdfText(file.rawPayload);
    expect(text).toContain('Nimman Rd 7, Chiang Mai');
    expect(text).not.toContain('Home');
  });

  it('ends a denied request cleanly: nothing moves, the history says so', async () => {
    const id = await prescription();
    const requestId = await ask(doctor, id, 'issue');
    const receipt = await receiptOf(requestId);
    await answerOnPhone(doctor, requestId, 'deny');
    expect(await settled(requestId)).toMatchObject({ status: 'denied', documentId: null });
    expect((await rowOf(id)).status).toBe('new');
    await expectWithdrawn(receipt, doctor);
    expect(await actions('prescriptions', id)).toEqual(['create', 'issue-requested', 'issue-denied']);
    const state = await as(doctor).get(`/api/prescriptions/${id}/signing/${requestId}`);
    expect(state.json()).toMatchObject({ status: 'denied' });
    expect(state.json().prescription).toBeUndefined();
    // Asking again works: the denial left nothing half done.
    const again = await ask(doctor, id, 'issue');
    await answerOnPhone(doctor, again, 'approve');
    expect((await settled(again)).status).toBe('signed');
    expect((await rowOf(id)).status).toBe('issued');
  });

  it('ends a request whose time ran out on the sweep: nothing moves', async () => {
    const id = await prescription();
    const requestId = await ask(doctor, id, 'issue');
    const receipt = await receiptOf(requestId);
    // The phone never answers; the request's time runs out (moved into the past rather than waited for).
    const past = new Date(Date.now() - 1000);
    await db().update(authRequests).set({ expiresAt: past }).where(eq(authRequests.id, requestId));
    await db()
      .update(documentSigningRequests)
      .set({ expiresAt: past })
      .where(eq(documentSigningRequests.id, requestId));
    expect(await settled(requestId)).toMatchObject({ status: 'expired' });
    expect((await rowOf(id)).status).toBe('new');
    await expectWithdrawn(receipt, doctor);
    expect(await actions('prescriptions', id)).toEqual(['create', 'issue-requested', 'issue-expired']);
    // Too late for the phone as well.
    const late = (await doctor.authenticator.pending(doctor.key)).find((request) => request.id === requestId);
    expect(late).toBeUndefined();
  });

  it('answers a second ask while the phone holds the first with the same request: one receipt, one prompt', async () => {
    const id = await prescription('ready');
    const prompts = async () => (await courier.authenticator.pending(courier.key)).length;
    const before = await prompts();
    const first = await as(courier).post(`/api/prescriptions/${id}/pickup`);
    expect(first.statusCode, first.body).toBe(202);
    const again = await as(courier).post(`/api/prescriptions/${id}/pickup`);
    expect(again.statusCode, again.body).toBe(202);
    const started = first.json<{
      requestId: string;
      bindingMessage: string;
      expiresIn: number;
      interval: number;
    }>();
    expect(again.json()).toMatchObject({
      action: 'pickup',
      signerUserId: courier.id,
      requestId: started.requestId,
      bindingMessage: started.bindingMessage,
      interval: started.interval,
    });
    expect(again.json().expiresIn).toBeGreaterThan(0);
    expect(again.json().expiresIn).toBeLessThanOrEqual(started.expiresIn);
    expect(await prompts()).toBe(before + 1);
    const signings = await db()
      .select()
      .from(prescriptionSignings)
      .where(eq(prescriptionSignings.prescriptionId, id));
    expect(signings).toHaveLength(1);
    expect(await actions('prescriptions', id)).toEqual(['create', 'pickup-requested']);
    // Someone else's phone is asked for itself.
    const other = await ask(otherCourier, id, 'pickup');
    expect(other).not.toBe(started.requestId);
    await answerOnPhone(courier, started.requestId, 'approve');
    expect((await settled(started.requestId)).status).toBe('signed');
    // Once it has ended, asking is asking anew (here refused: the prescription moved on).
    const late = await as(courier).post(`/api/prescriptions/${id}/pickup`);
    expect(late.statusCode).toBe(409);
  });

  it('lets the first approved pickup win; the other ends with it, naming the status, and leaves its phone', async () => {
    const id = await prescription('ready');
    const first = await ask(courier, id, 'pickup');
    const second = await ask(otherCourier, id, 'pickup');
    const lostReceipt = await receiptOf(second);
    const offered = async () =>
      (await otherCourier.authenticator.pending(otherCourier.key)).map((request) => request.id);
    expect(await offered()).toContain(second);
    await answerOnPhone(courier, first, 'approve');
    expect((await settled(first)).status).toBe('signed');
    // The other courier's phone has not answered: the pickup it was asked for can no longer happen, so it
    // ended with the first one, and the phone no longer offers it.
    expect(await signingOf(second)).toMatchObject({
      status: 'failed',
      failure: 'The prescription is picked_up: pickup needs ready',
    });
    expect(await offered()).not.toContain(second);
    expect(await rowOf(id)).toMatchObject({ status: 'picked_up', shipperDriverId: courier.id });
    expect((await actions('prescriptions', id)).filter((action) => action.startsWith('pickup'))).toEqual([
      'pickup-requested',
      'pickup-requested',
      'pickup-failed',
      'pickup',
    ]);
    // The loser's receipt is of a pickup that never happened: the platform keeps none of it, so nobody can
    // show it as one the platform holds (decision 063). The winner's stays.
    await expectWithdrawn(lostReceipt, otherCourier);
    expect((await as(courier).get(`/api/documents/${(await rowOf(id)).pickupReceiptId}`)).statusCode).toBe(
      200,
    );
    const state = await as(otherCourier).get(`/api/prescriptions/${id}/signing/${second}`);
    expect(state.json()).toMatchObject({
      status: 'failed',
      message: 'The prescription is picked_up: pickup needs ready',
      prescriptionStatus: 'picked_up',
    });
    // Stored once in English; a Thai courier reads why in Thai.
    const thai = await context.app.inject({
      method: 'GET',
      url: `/api/prescriptions/${id}/signing/${second}`,
      headers: { authorization: `Bearer ${otherCourier.token}`, 'accept-language': 'th' },
    });
    expect(thai.json()).toMatchObject({
      status: 'failed',
      message:
        'ใบสั่งยานี้อยู่ในสถานะ "รับยาแล้ว" (picked_up): "รับยา" (pickup) ทำได้เมื่อสถานะเป็น "พร้อมรับยา" (ready) เท่านั้น',
    });
    // The history tells why in the reader's language too (a Thai admin reads the failed pickup there).
    const historyIn = async (language: string) =>
      (
        await context.app.inject({
          method: 'GET',
          url: `/api/prescriptions/${id}/history`,
          headers: { authorization: `Bearer ${context.adminToken}`, 'accept-language': language },
        })
      ).json().items as { action: string; changes: { failure?: string } | null }[];
    const failedIn = async (language: string) =>
      (await historyIn(language)).find((entry) => entry.action === 'pickup-failed')?.changes?.failure;
    expect(await failedIn('en')).toBe('The prescription is picked_up: pickup needs ready');
    expect(await failedIn('th')).toBe(thai.json().message);
  });

  it('does not issue content edited after the doctor’s phone was asked: the signature covers what was shown', async () => {
    const id = await prescription();
    const requestId = await ask(doctor, id, 'issue');
    const shown = await receiptOf(requestId);
    // Still new, so an admin may edit it, but the phone holds a receipt of the content before.
    const edited = [{ name: 'Morphine sulfate', strength: '100 mg', quantity: 500, unit: 'tablets' }];
    expect((await api(context).patch(`/api/prescriptions/${id}`, { content: edited })).statusCode).toBe(200);
    await answerOnPhone(doctor, requestId, 'approve');
    const failure =
      'The prescription was changed after the phone was asked to sign its issue: the signature covers what ' +
      'it was then, so issue was not applied; ask again';
    expect(await settled(requestId)).toMatchObject({ status: 'failed', failure });
    expect(await rowOf(id)).toMatchObject({ status: 'new', issuerReceiptId: null, content: edited });
    await expectWithdrawn(shown, doctor);
    const state = await as(doctor).get(`/api/prescriptions/${id}/signing/${requestId}`);
    expect(state.json()).toMatchObject({ status: 'failed', message: failure });
    // Not a status conflict: the console says the server's reason.
    expect(state.json().prescriptionStatus).toBeUndefined();
    const thai = await context.app.inject({
      method: 'GET',
      url: `/api/prescriptions/${id}/signing/${requestId}`,
      headers: { authorization: `Bearer ${doctor.token}`, 'accept-language': 'th' },
    });
    expect(thai.json().message).toMatch(/^ใบสั่งยาถูกแก้ไขหลังจากขอให้โทรศัพท์ลงนาม/);
    // Asked again, the phone signs the content as it is now.
    const again = await ask(doctor, id, 'issue');
    await answerOnPhone(doctor, again, 'approve');
    expect(await settled(again)).toMatchObject({ status: 'signed' });
    expect(await rowOf(id)).toMatchObject({ status: 'issued', content: edited });
  });

  it('does not complete a pickup for a courier whose company was taken off the prescription meanwhile', async () => {
    const id = await prescription('ready');
    const requestId = await ask(courier, id, 'pickup');
    const others = await createServiceProvider(context, { title: 'Other Couriers', type: 'courier' });
    expect((await api(context).patch(`/api/prescriptions/${id}`, { shipper: others.id })).statusCode).toBe(
      200,
    );
    await answerOnPhone(courier, requestId, 'approve');
    expect(await settled(requestId)).toMatchObject({ status: 'failed' });
    expect(await rowOf(id)).toMatchObject({ status: 'ready', shipperId: others.id, shipperDriverId: null });
    expect((await actions('prescriptions', id)).filter((action) => action.startsWith('pickup'))).toEqual([
      'pickup-requested',
      'pickup-failed',
    ]);
  });

  it('ends as failed an action whose receipt an admin deleted while the phone was asked', async () => {
    const id = await prescription('ready');
    const requestId = await ask(courier, id, 'pickup');
    const receipt = await receiptOf(requestId);
    expect((await api(context).delete(`/api/documents/${receipt}`)).statusCode).toBe(204);
    // The sweep settles it without anybody looking; a look answers why.
    expect(await settled(requestId)).toMatchObject({
      status: 'failed',
      documentId: null,
      failure: 'The document or the certificate is missing',
    });
    expect((await rowOf(id)).status).toBe('ready');
    const state = await as(courier).get(`/api/prescriptions/${id}/signing/${requestId}`);
    expect(state.json()).toMatchObject({
      status: 'failed',
      message: 'The document or the certificate is missing',
    });
    // The prescription did not move: no status to tell.
    expect(state.json().prescriptionStatus).toBeUndefined();
    expect(await actions('prescriptions', id)).toEqual(['create', 'pickup-requested', 'pickup-failed']);
  });

  it('settles on the sweep an action whose signature ended without it', async () => {
    const id = await prescription();
    const requestId = await ask(doctor, id, 'issue');
    await answerOnPhone(doctor, requestId, 'approve');
    expect((await settled(requestId)).status).toBe('signed');
    // As a server that stopped between the two would have left it: the signature in, the action open (and the
    // prescription at the version its receipt was made from).
    const { version } = await rowOf(id);
    await db()
      .update(prescriptions)
      .set({ status: 'new', issuerReceiptId: null, version: version - 1 })
      .where(eq(prescriptions.id, id));
    await db()
      .update(prescriptionSignings)
      .set({ status: 'pending', completedAt: null })
      .where(and(eq(prescriptionSignings.id, requestId)));
    expect((await settled(requestId)).status).toBe('signed');
    expect((await rowOf(id)).status).toBe('issued');
  });
});

describe('the public verification of a prescription’s receipts (its printed QR code)', () => {
  it('answers anyone the verification of each signed receipt, and nothing else', async () => {
    const id = await prescription();
    const requestId = await ask(doctor, id, 'issue');
    await answerOnPhone(doctor, requestId, 'approve');
    expect((await settled(requestId)).status).toBe('signed');

    const answer = await context.app.inject({ method: 'GET', url: `/api/prescriptions/${id}/verification` });
    expect(answer.statusCode, answer.body).toBe(200);
    const body = answer.json<{ receipts: { receipt: string; report: Record<string, unknown> }[] }>();
    expect(body.receipts).toHaveLength(1);
    expect(body.receipts[0]).toMatchObject({
      receipt: 'issuer',
      report: {
        fileKnownToPlatform: true,
        verdict: { status: 'authentic' },
        signatures: [
          { index: 1, intact: true, chainsToPlatformCa: true, signer: { commonName: 'Dora Test' } },
        ],
      },
    });
    // A Thai reader (the patient at the pharmacy counter) reads the verdict in Thai.
    const thai = await context.app.inject({
      method: 'GET',
      url: `/api/prescriptions/${id}/verification`,
      headers: { 'accept-language': 'th' },
    });
    expect(thai.headers['content-language']).toBe('th');
    expect(thai.json().receipts[0].report.verdict).toMatchObject({
      status: 'authentic',
      summary: expect.stringMatching(/^ของจริงและไม่ถูกแก้ไข: ลงนามโดย Dora Test /),
    });
    // The receipt's own content, nothing of the record: no status, no addresses, no parties.
    expect(Object.keys(body)).toEqual(['receipts']);
    expect(Object.keys(body.receipts[0]!)).toEqual(['receipt', 'report']);

    // The receipt itself, to compare with the paper: the same bytes the report is about.
    const file = await context.app.inject({
      method: 'GET',
      url: `/api/prescriptions/${id}/verification/issuer`,
    });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('application/pdf');
    expect(file.headers['content-disposition']).toMatch(/^inline; filename="document \d+\.pdf"$/);
    expect(createHash('sha256').update(file.rawPayload).digest('hex')).toBe(
      body.receipts[0]!.report.fileSha256,
    );
    const none = await context.app.inject({
      method: 'GET',
      url: `/api/prescriptions/${id}/verification/pickup`,
    });
    expect(none.statusCode).toBe(404);
  });

  it('answers an unknown prescription and an unsigned one alike: 404', async () => {
    const unsigned = await prescription();
    for (const id of [unsigned, '0190a0b0-0000-7000-8000-0000000000ff']) {
      const answer = await context.app.inject({
        method: 'GET',
        url: `/api/prescriptions/${id}/verification`,
      });
      expect(answer.statusCode).toBe(404);
      expect(answer.json()).toMatchObject({ message: 'Signed receipt of this prescription not found' });
    }
    const bad = await context.app.inject({ method: 'GET', url: '/api/prescriptions/nope/verification' });
    expect(bad.statusCode).toBe(400);
  });
});
