// The custody chain end to end through app.inject(): every action × every role from the transition table,
// atomic transitions under 50 concurrent calls, phone-signed receipts judged by pdfsig, denied signatures,
// outsiders answered 404, and the submission rules of doctors.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prescriptionStatuses, type PrescriptionStatus } from '@careplane/shared/common/enums';
import {
  prescriptionActions,
  prescriptionTransitions,
  type PrescriptionAction,
} from '@careplane/shared/prescriptions/prescription-transitions';
import type { UserCreate } from '@careplane/shared/users/users.contract';
import { documents, prescriptions } from '@/db/schema/index.js';
import {
  answerOnPhone,
  createServiceProvider,
  createSigningUser,
  createUser,
  type SigningUser,
} from '@/test/factories.js';
import { api, createTestContext, type TestContext } from '@/test/harness.js';
import { auditRows } from '@/test/records.js';
import { pdfsig } from '@careplane/pdf-signatures/testing';

let context: TestContext;
const db = () => context.database.db;

type Person = SigningUser;
const person = (firstName: string, overrides: Partial<UserCreate> = {}) =>
  createSigningUser(context, firstName, overrides);

const roles = [
  'admin',
  'issuer',
  'recipient',
  'pharmacist',
  'otherPharmacist',
  'nurse',
  'courier',
  'driver',
  'outsider',
] as const;
type Role = (typeof roles)[number];
let people: Record<Role, Person>;
let pharmacy: string;
let otherPharmacy: string;
let couriers: string;

/** Decisions §5 written out on its own (not read from the code under test): who may do what. */
const mayAct: Record<PrescriptionAction, Role[]> = {
  issue: ['admin', 'issuer'],
  accept: ['admin', 'pharmacist'],
  hold: ['admin', 'pharmacist'],
  resume: ['admin', 'pharmacist'],
  'mark-ready': ['admin', 'pharmacist'],
  pickup: ['admin', 'courier', 'driver'],
  delivered: ['admin', 'driver'],
  return: ['admin', 'driver'],
  restock: ['admin', 'pharmacist'],
};
/** Who takes part in a courier prescription with `driver` as its driver (the others do not learn of it). */
const participants: Role[] = ['admin', 'issuer', 'recipient', 'pharmacist', 'courier', 'driver'];

const as = (who: Person) => api(context, who.token);
const item = { name: 'Amoxicillin', strength: '500 mg', quantity: 20, unit: 'capsules' };

async function prescription(overrides: Record<string, unknown> = {}, status?: PrescriptionStatus) {
  const answer = await api(context).post('/api/prescriptions', {
    issuer: people.issuer.id,
    supplier: pharmacy,
    recipient: people.recipient.id,
    shipper: couriers,
    shipperDriver: people.driver.id,
    content: [item],
    ...overrides,
  });
  expect(answer.statusCode, answer.body).toBe(201);
  const id = answer.json<{ id: string }>().id;
  if (status) await db().update(prescriptions).set({ status }).where(eq(prescriptions.id, id));
  return id;
}

const statusOf = async (id: string) =>
  (
    await db().select({ status: prescriptions.status }).from(prescriptions).where(eq(prescriptions.id, id))
  )[0]!.status;

const act = (who: Person, id: string, action: PrescriptionAction, body?: object) =>
  as(who).post(`/api/prescriptions/${id}/${action}`, body);

const phoneAnswers = answerOnPhone;

/** A signing action all the way: 202, the phone answers, the poll completes it. */
async function signed(
  who: Person,
  signer: Person,
  id: string,
  action: 'issue' | 'pickup',
  decision = 'approve',
) {
  const started = await act(who, id, action);
  expect(started.statusCode, started.body).toBe(202);
  const { requestId, bindingMessage } = started.json<{ requestId: string; bindingMessage: string }>();
  expect(bindingMessage).toMatch(/^[A-Z]{2} \d{2}$/);
  const pending = await as(who).get(`/api/prescriptions/${id}/signing/${requestId}`);
  expect(pending.json()).toMatchObject({ action, requestId, status: 'pending' });
  expect(await statusOf(id)).toBe(prescriptionTransitions[action].from[0]);
  await phoneAnswers(signer, requestId, decision as 'approve' | 'deny');
  const state = await as(who).get(`/api/prescriptions/${id}/signing/${requestId}`);
  expect(state.statusCode, state.body).toBe(200);
  return state.json();
}

beforeAll(async () => {
  context = await createTestContext();
  pharmacy = (await createServiceProvider(context, { title: 'Riverside Pharmacy', type: 'pharmacy' })).id;
  otherPharmacy = (await createServiceProvider(context, { title: 'Hilltop Pharmacy', type: 'pharmacy' })).id;
  couriers = (await createServiceProvider(context, { title: 'Swift Couriers', type: 'courier' })).id;
  const recipient = await person('Pia', { localRoles: ['patient'] });
  people = {
    admin: await person('Ada', { roles: ['admin'], localRoles: ['none'] }),
    issuer: await person('Dora', { localRoles: ['doctor'] }),
    recipient,
    pharmacist: await person('Phil', { localRoles: ['pharmacist'], employers: [pharmacy] }),
    otherPharmacist: await person('Olga', { localRoles: ['pharmacist'], employers: [otherPharmacy] }),
    nurse: await person('Nora', { localRoles: ['nurse'] }),
    courier: await person('Cole', { localRoles: ['courier'], employers: [couriers] }),
    driver: await person('Dan', { localRoles: ['courier'] }),
    outsider: await person('Otto', { localRoles: ['doctor'] }),
  };
});
afterAll(async () => {
  await context?.close();
});

describe('every action × every role, from the table', () => {
  for (const action of prescriptionActions) {
    const { from, to, signs } = prescriptionTransitions[action];
    for (const role of roles) {
      const allowed = mayAct[action].includes(role);
      const expected = allowed ? (signs ? 202 : 200) : participants.includes(role) ? 403 : 404;
      it(`${action} from ${from[0]} by ${role} → ${expected}`, async () => {
        const id = await prescription({}, from[0]);
        const answer = await act(people[role], id, action);
        expect(answer.statusCode, answer.body).toBe(expected);
        if (expected === 200) expect(answer.json()).toMatchObject({ id, status: to });
        // A signing action waits for the phone; everything refused leaves the status as it was.
        expect(await statusOf(id)).toBe(expected === 200 ? to : from[0]);
        const actions = (await auditRows(context, 'prescriptions', id)).map((row) => row.action);
        expect(actions).toEqual(
          expected === 200
            ? ['create', action]
            : expected === 202
              ? ['create', `${action}-requested`]
              : ['create'],
        );
      });
    }
    const elsewhere = prescriptionStatuses.filter((status) => !from.includes(status));
    it(`${action} from any other status → 409 naming it (${elsewhere.join(', ')})`, async () => {
      for (const status of elsewhere) {
        const id = await prescription({}, status);
        const answer = await act(people.admin, id, action);
        expect(answer.statusCode, answer.body).toBe(409);
        expect(answer.json().message).toBe(
          `The prescription is ${status}: ${action} needs ${from.join(' or ')}`,
        );
        expect(await statusOf(id)).toBe(status);
      }
    });
  }

  it('lets the nurse pick up only when pickupByNurse, and hides it from the shipper couriers then', async () => {
    const id = await prescription(
      { pickupByNurse: true, nurse: people.nurse.id, shipper: null, shipperDriver: null },
      'ready',
    );
    expect((await act(people.courier, id, 'pickup')).statusCode).toBe(404);
    expect((await act(people.driver, id, 'pickup')).statusCode).toBe(404);
    expect((await act(people.nurse, id, 'pickup')).statusCode).toBe(202);
  });

  it('takes a reason for hold and return, and refuses a body on the others', async () => {
    const id = await prescription({}, 'waiting');
    const held = await act(people.pharmacist, id, 'hold', { reason: 'Out of stock until Friday' });
    expect(held.statusCode, held.body).toBe(200);
    const rows = await auditRows(context, 'prescriptions', id);
    expect(rows.at(-1)).toMatchObject({
      action: 'hold',
      changes: { status: 'on_hold', reason: 'Out of stock until Friday' },
    });
    const resumed = await act(people.pharmacist, id, 'resume', { reason: 'x' });
    expect(resumed.statusCode).toBe(400);
    expect(await statusOf(id)).toBe('on_hold');
  });
});

describe('an action taken on a status (decision 093)', () => {
  it('applies only while the prescription is still in the status it was taken on', async () => {
    // A pharmacist kept "hold" offline on a waiting prescription; a colleague marked it ready meanwhile.
    const id = await prescription({}, 'ready');
    const held = await act(people.pharmacist, id, 'hold', {
      reason: 'Out of stock',
      expectedStatus: 'waiting',
    });
    expect(held.statusCode, held.body).toBe(409);
    expect(held.json()).toMatchObject({
      message: 'The prescription is now ready, no longer waiting as when hold was taken: it was not applied',
      issues: [{ path: 'status', message: 'ready' }],
    });
    expect(await statusOf(id)).toBe('ready');
    expect((await auditRows(context, 'prescriptions', id)).map((row) => row.action)).toEqual(['create']);

    // Taken on the status it still has, it applies as without one.
    const again = await act(people.pharmacist, id, 'hold', { expectedStatus: 'ready', keptForSeconds: 5 });
    expect(again.statusCode, again.body).toBe(200);
    expect(await statusOf(id)).toBe('on_hold');
  });

  it('says so in the language asked, and refuses a status that is none', async () => {
    const id = await prescription({}, 'picked_up');
    const thai = await context.app.inject({
      method: 'POST',
      url: `/api/prescriptions/${id}/delivered`,
      headers: { authorization: `Bearer ${people.admin.token}`, 'accept-language': 'th' },
      payload: { expectedStatus: 'ready' },
    });
    expect(thai.statusCode, thai.body).toBe(409);
    expect(thai.json().message).toContain('ไม่ใช่');
    expect((await act(people.admin, id, 'delivered', { expectedStatus: 'lost' })).statusCode).toBe(400);
    expect(await statusOf(id)).toBe('picked_up');
  });
});

describe('atomic transitions', () => {
  it('of 50 concurrent mark-ready calls exactly one wins and 49 get 409 naming the current status', async () => {
    const id = await prescription({}, 'waiting');
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => act(people.pharmacist, id, 'mark-ready')),
    );
    const codes = answers.map((answer) => answer.statusCode);
    expect(codes.filter((code) => code === 200)).toHaveLength(1);
    expect(codes.filter((code) => code === 409)).toHaveLength(49);
    for (const answer of answers.filter((a) => a.statusCode === 409)) {
      expect(answer.json().message).toBe('The prescription is ready: mark-ready needs issued or waiting');
    }
    const actions = (await auditRows(context, 'prescriptions', id)).map((row) => row.action);
    expect(actions).toEqual(['create', 'mark-ready']);
  });
});

describe('the custody chain with signed receipts', () => {
  it('goes new → issued → waiting → ready → picked up → delivered, with receipts pdfsig accepts', async () => {
    const id = await prescription({ shipperDriver: null });
    const issued = await signed(people.issuer, people.issuer, id, 'issue');
    expect(issued).toMatchObject({ status: 'signed', prescription: { id, status: 'issued' } });
    expect(issued.prescription.issuerReceiptId).toEqual(expect.any(String));
    expect((await act(people.pharmacist, id, 'accept')).json()).toMatchObject({ status: 'waiting' });
    expect((await act(people.pharmacist, id, 'mark-ready')).json()).toMatchObject({ status: 'ready' });
    const picked = await signed(people.courier, people.courier, id, 'pickup');
    expect(picked).toMatchObject({
      status: 'signed',
      prescription: { status: 'picked_up', shipperDriverId: people.courier.id },
    });
    // Polling again changes nothing.
    const again = await as(people.courier).get(`/api/prescriptions/${id}/signing/${picked.requestId}`);
    expect(again.json()).toMatchObject({ status: 'signed', prescription: { status: 'picked_up' } });
    expect((await act(people.courier, id, 'delivered')).json()).toMatchObject({ status: 'delivered' });

    for (const [receipt, signer] of [
      ['issuer', 'Dora Test'],
      ['pickup', 'Cole Test'],
    ] as const) {
      const file = await as(people.recipient).get(`/api/prescriptions/${id}/receipts/${receipt}`);
      expect(file.statusCode, file.body).toBe(200);
      expect(file.headers['content-type']).toBe('application/pdf');
      expect(file.headers['content-disposition']).toMatch(/^attachment; filename="document \d+\.pdf"$/);
      const { signatures } = await pdfsig(file.rawPayload);
      expect(signatures).toHaveLength(1);
      expect(signatures[0]).toMatchObject({ validation: 'Signature is Valid.', totalDocumentSigned: true });
      expect(signatures[0]!.commonName).toContain(signer);
    }
    const history = await as(people.issuer).get(`/api/prescriptions/${id}/history`);
    expect(
      history
        .json()
        .items.map((entry: { action: string }) => entry.action)
        .reverse(),
    ).toEqual([
      'create',
      'issue-requested',
      'issue',
      'accept',
      'mark-ready',
      'pickup-requested',
      'pickup',
      'delivered',
    ]);
  });

  it('asks the issuer’s phone when an admin issues', async () => {
    const id = await prescription();
    const issued = await signed(people.admin, people.issuer, id, 'issue');
    expect(issued).toMatchObject({ status: 'signed', prescription: { status: 'issued' } });
  });

  it('lets the first approved pickup win; the other reports failed with the current status at once', async () => {
    const id = await prescription({}, 'ready');
    const first = await act(people.courier, id, 'pickup');
    const second = await act(people.driver, id, 'pickup');
    expect([first.statusCode, second.statusCode]).toEqual([202, 202]);
    await phoneAnswers(people.courier, first.json().requestId, 'approve');
    // The first answer is settled (a look settles it, if the server has not yet) before the second phone
    // answers: completions run side by side, so "first" is the first settled.
    const won = await as(people.courier).get(`/api/prescriptions/${id}/signing/${first.json().requestId}`);
    expect(won.json()).toMatchObject({ status: 'signed', prescription: { status: 'picked_up' } });
    // The driver's phone need not answer: that pickup ended with the first one.
    const lost = await as(people.driver).get(`/api/prescriptions/${id}/signing/${second.json().requestId}`);
    expect(lost.statusCode).toBe(200);
    expect(lost.json()).toMatchObject({
      status: 'failed',
      message: 'The prescription is picked_up: pickup needs ready',
      prescriptionStatus: 'picked_up',
    });
    expect(lost.json().prescription).toBeUndefined();
    const row = (await db().select().from(prescriptions).where(eq(prescriptions.id, id)))[0]!;
    expect(row.shipperDriverId).toBe(people.courier.id);
  });

  it('answers 409 and keeps nothing when the signer has no phone to ask', async () => {
    const noPhone = await createUser(context, { localRoles: ['doctor'] });
    const id = await prescription({ issuer: noPhone.id });
    const before = (await db().select({ id: documents.id }).from(documents)).length;
    const answer = await api(context, noPhone.token).post(`/api/prescriptions/${id}/issue`);
    expect(answer.statusCode, answer.body).toBe(409);
    expect(answer.json().message).toBe('The signer is not known to the sign-in server');
    expect((await db().select({ id: documents.id }).from(documents)).length).toBe(before);
    expect(await statusOf(id)).toBe('new');
  });

  it('leaves the status unchanged when the phone denies', async () => {
    const id = await prescription();
    const denied = await signed(people.issuer, people.issuer, id, 'issue', 'deny');
    expect(denied).toMatchObject({ status: 'denied' });
    expect(denied.prescription).toBeUndefined();
    expect(await statusOf(id)).toBe('new');
    expect((await as(people.issuer).get(`/api/prescriptions/${id}/receipts/issuer`)).statusCode).toBe(404);
  });
});

describe('the history each party reads (decision 085)', () => {
  it('gives the recipient what happened, without the staff’s notes and the phone requests', async () => {
    const id = await prescription({}, 'waiting');
    expect((await act(people.pharmacist, id, 'hold', { reason: 'Waiting for the doctor' })).statusCode).toBe(
      200,
    );
    expect((await act(people.pharmacist, id, 'resume')).statusCode).toBe(200);
    expect((await act(people.pharmacist, id, 'mark-ready')).statusCode).toBe(200);
    expect((await act(people.courier, id, 'pickup')).statusCode).toBe(202);
    type Entry = { action: string; actor: string | null; changes: Record<string, unknown> | null };
    const read = async (who: Person) =>
      (await as(who).get(`/api/prescriptions/${id}/history`)).json<{ items: Entry[] }>().items.reverse();

    const staff = await read(people.pharmacist);
    expect(staff.map((entry) => entry.action)).toEqual([
      'create',
      'hold',
      'resume',
      'mark-ready',
      'pickup-requested',
    ]);
    expect(staff[1]!.changes).toMatchObject({ status: 'on_hold', reason: 'Waiting for the doctor' });
    expect(staff[4]!.changes).toHaveProperty('requestId');
    expect((await read(people.issuer))[1]!.changes).toMatchObject({ reason: 'Waiting for the doctor' });

    const recipient = await read(people.recipient);
    expect(recipient.map((entry) => entry.action)).toEqual(['create', 'hold', 'resume', 'mark-ready']);
    expect(recipient[1]!.changes).toEqual({ status: 'on_hold' });
    expect(recipient[1]!.actor).toBe(staff[1]!.actor);
  });
});

describe('outsiders', () => {
  it('get 404 on read, on every action, on signing states, receipts and history', async () => {
    const id = await prescription({}, 'ready');
    const started = await act(people.courier, id, 'pickup');
    expect(started.statusCode).toBe(202);
    const requestId = started.json().requestId as string;
    for (const role of ['outsider', 'otherPharmacist', 'nurse'] as const) {
      const who = as(people[role]);
      const read = await who.get(`/api/prescriptions/${id}`);
      expect(read.statusCode, read.body).toBe(404);
      expect((await who.get(`/api/prescriptions?filters=id~${id}`)).json().total).toBe(0);
      for (const action of prescriptionActions) {
        expect((await act(people[role], id, action)).statusCode).toBe(404);
      }
      expect((await who.get(`/api/prescriptions/${id}/signing/${requestId}`)).statusCode).toBe(404);
      expect((await who.get(`/api/prescriptions/${id}/receipts/issuer`)).statusCode).toBe(404);
      expect((await who.get(`/api/prescriptions/${id}/history`)).statusCode).toBe(404);
    }
    // A participant who did not ask does not poll someone else's request either.
    expect(
      (await as(people.pharmacist).get(`/api/prescriptions/${id}/signing/${requestId}`)).statusCode,
    ).toBe(404);
  });

  it('the recipient and the issuer read their own, read-only', async () => {
    const id = await prescription();
    for (const who of [people.recipient, people.issuer]) {
      expect((await as(who).get(`/api/prescriptions/${id}`)).json()).toMatchObject({ id });
      expect((await as(who).patch(`/api/prescriptions/${id}`, { content: [item] })).statusCode).toBe(403);
    }
    expect((await act(people.recipient, id, 'issue')).statusCode).toBe(403);
  });
});

describe('submission by doctors', () => {
  it('lets a doctor submit in their own name only, and nobody else but admins', async () => {
    const body = { supplier: pharmacy, recipient: people.recipient.id, shipper: couriers, content: [item] };
    const own = await as(people.issuer).post('/api/prescriptions', { ...body, issuer: people.issuer.id });
    expect(own.statusCode, own.body).toBe(201);
    expect(own.json()).toMatchObject({ status: 'new', issuerId: people.issuer.id });
    const other = await as(people.outsider).post('/api/prescriptions', { ...body, issuer: people.issuer.id });
    expect(other.statusCode).toBe(403);
    expect(
      (await as(people.pharmacist).post('/api/prescriptions', { ...body, issuer: people.pharmacist.id }))
        .statusCode,
    ).toBe(403);
  });

  it('defaults the pickup address to the supplier’s and the delivery address to the recipient’s', async () => {
    const supplier = await createServiceProvider(context, {
      title: 'Old Town Pharmacy',
      type: 'pharmacy',
      address: { street: 'Tha Phae Rd', city: 'Chiang Mai', country: 'TH' },
    });
    const recipient = await createUser(context, {
      address: [{ street: 'Nimman Rd', houseNumber: '7', city: 'Chiang Mai', country: 'TH' }],
    });
    const created = await api(context).post('/api/prescriptions', {
      issuer: people.issuer.id,
      supplier: supplier.id,
      recipient: recipient.id,
      shipper: couriers,
      content: [item],
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toMatchObject({
      pickupAddress: { street: 'Tha Phae Rd', city: 'Chiang Mai' },
      deliveryAddress: { street: 'Nimman Rd', houseNumber: '7' },
    });
    const given = await api(context).post('/api/prescriptions', {
      issuer: people.issuer.id,
      supplier: supplier.id,
      recipient: recipient.id,
      shipper: couriers,
      content: [item],
      deliveryAddress: { city: 'Lamphun' },
    });
    expect(given.json().deliveryAddress).toEqual({ city: 'Lamphun' });
  });
});

describe('the viewer', () => {
  it('names the caller’s roles and employers, as the shared who-may rule reads them', async () => {
    const answer = await as(people.pharmacist).get('/api/prescriptions/viewer');
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json()).toEqual({
      userId: people.pharmacist.id,
      localRoles: ['pharmacist'],
      employerIds: [pharmacy],
      employers: [{ id: pharmacy, title: 'Riverside Pharmacy', type: 'pharmacy' }],
      isAdmin: false,
    });
    expect((await context.app.inject({ url: '/api/prescriptions/viewer' })).statusCode).toBe(401);
  });
});
