// Idempotency-Key on the plain status actions (decision 046), as the console's offline queue uses it: a repeat
// answers what the first request answered and changes nothing, duplicates sent at once apply once, a key sent
// with another request is refused, a malformed key is a 400 that says what a key must be, and a prescription
// someone else moved answers 409 with its current status.
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PrescriptionStatus } from '@careplane/shared/common/enums';
import type { PrescriptionAction } from '@careplane/shared/prescriptions/prescription-transitions';
import { prescriptionActionKeys, prescriptions } from '@/db/schema/index.js';
import { createServiceProvider, createUser, type TestUser } from '@/test/factories.js';
import { api, createTestContext, type TestContext } from '@/test/harness.js';
import { auditRows } from '@/test/records.js';

let context: TestContext;
let pharmacist: TestUser;
let driver: TestUser;
let pharmacy: string;
let couriers: string;
let recipient: TestUser;
let doctor: TestUser;

beforeAll(async () => {
  context = await createTestContext();
  pharmacy = (await createServiceProvider(context, { title: 'Keyed Pharmacy', type: 'pharmacy' })).id;
  couriers = (await createServiceProvider(context, { title: 'Keyed Couriers', type: 'courier' })).id;
  recipient = await createUser(context, { localRoles: ['patient'] });
  doctor = await createUser(context, { localRoles: ['doctor'] });
  pharmacist = await createUser(context, { localRoles: ['pharmacist'], employers: [pharmacy] });
  driver = await createUser(context, { localRoles: ['courier'] });
});
afterAll(async () => {
  await context?.close();
});

async function prescription(status: PrescriptionStatus) {
  const answer = await api(context).post('/api/prescriptions', {
    issuer: doctor.id,
    supplier: pharmacy,
    recipient: recipient.id,
    shipper: couriers,
    shipperDriver: driver.id,
    content: [{ name: 'Metformin', strength: '500 mg', quantity: 60, unit: 'tablets' }],
  });
  expect(answer.statusCode, answer.body).toBe(201);
  const id = answer.json<{ id: string }>().id;
  // Written two hours ago, as a prescription that has come this far was: an action kept on a phone for a
  // while was taken after it.
  const createdAt = new Date(Date.now() - 2 * 3600_000);
  await context.database.db.update(prescriptions).set({ status, createdAt }).where(eq(prescriptions.id, id));
  return id;
}

const act = (who: TestUser, id: string, action: PrescriptionAction, key: string | undefined, body?: object) =>
  context.app.inject({
    method: 'POST',
    url: `/api/prescriptions/${id}/${action}`,
    headers: {
      authorization: `Bearer ${who.token}`,
      ...(key === undefined ? {} : { 'idempotency-key': key }),
    },
    ...(body ? { payload: body } : {}),
  });

const transitions = async (id: string, action: string) =>
  (await auditRows(context, 'prescriptions', id)).filter((row) => row.action === action);

describe('Idempotency-Key on a plain action', () => {
  it('answers a repeat with the first answer and makes the transition once', async () => {
    const id = await prescription('picked_up');
    const key = randomUUID();
    const first = await act(driver, id, 'delivered', key);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({ id, status: 'delivered' });
    expect(first.headers['idempotent-replayed']).toBeUndefined();

    const again = await act(driver, id, 'delivered', key);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());

    const rows = await transitions(id, 'delivered');
    expect(rows).toHaveLength(1);
    expect(rows[0]!.changes).toMatchObject({ status: 'delivered', idempotencyKey: key });
  });

  it('applies duplicates sent at once only once, and answers every one of them 200', async () => {
    const id = await prescription('picked_up');
    const key = randomUUID();
    const answers = await Promise.all(Array.from({ length: 8 }, () => act(driver, id, 'delivered', key)));
    expect(answers.map((answer) => answer.statusCode)).toEqual(Array(8).fill(200));
    for (const answer of answers) expect(answer.json()).toMatchObject({ id, status: 'delivered' });
    expect(await transitions(id, 'delivered')).toHaveLength(1);
  });

  it('keeps keys per user: the same key from two users is two requests', async () => {
    const id = await prescription('waiting');
    const key = randomUUID();
    expect((await act(pharmacist, id, 'mark-ready', key)).statusCode).toBe(200);
    // The admin's own request with the same key is not the pharmacist's repeat: it meets the new status.
    const admin = await context.app.inject({
      method: 'POST',
      url: `/api/prescriptions/${id}/mark-ready`,
      headers: { authorization: `Bearer ${context.adminToken}`, 'idempotency-key': key },
    });
    expect(admin.statusCode, admin.body).toBe(409);
  });

  it('refuses a key reused for another action, another prescription or another body', async () => {
    const id = await prescription('picked_up');
    const key = randomUUID();
    expect((await act(driver, id, 'delivered', key)).statusCode).toBe(200);

    const otherAction = await act(driver, id, 'return', key, { reason: 'Nobody home' });
    expect(otherAction.statusCode, otherAction.body).toBe(422);
    expect(otherAction.json().message).toMatch(
      /^This Idempotency-Key was already used for another request \(delivered of prescription /,
    );
    const other = await prescription('picked_up');
    const otherPrescription = await act(driver, other, 'delivered', key);
    expect(otherPrescription.statusCode, otherPrescription.body).toBe(422);
    expect(await transitions(other, 'delivered')).toHaveLength(0);

    const held = await prescription('waiting');
    const holdKey = randomUUID();
    expect((await act(pharmacist, held, 'hold', holdKey, { reason: 'Out of stock' })).statusCode).toBe(200);
    const otherBody = await act(pharmacist, held, 'hold', holdKey, { reason: 'Recalled' });
    expect(otherBody.statusCode, otherBody.body).toBe(422);
    expect(otherBody.json().message).toContain('with another body');
    expect(await transitions(held, 'hold')).toHaveLength(1);

    // The status an action was taken on is part of it (decision 093); a repeat that says the same one is one.
    const ready = await prescription('ready');
    const readyKey = randomUUID();
    const taken = { reason: 'Recalled', expectedStatus: 'ready', keptForSeconds: 3 };
    expect((await act(pharmacist, ready, 'hold', readyKey, taken)).statusCode).toBe(200);
    expect((await act(pharmacist, ready, 'hold', readyKey, { ...taken, keptForSeconds: 9 })).statusCode).toBe(
      200,
    );
    const otherStatus = await act(pharmacist, ready, 'hold', readyKey, {
      ...taken,
      expectedStatus: 'waiting',
    });
    expect(otherStatus.statusCode, otherStatus.body).toBe(422);
    expect(await transitions(ready, 'hold')).toHaveLength(1);
  });

  it('answers a malformed key with a 400 that says what a key must be, and changes nothing', async () => {
    const id = await prescription('picked_up');
    for (const key of ['not-a-uuid', '', '1234']) {
      const answer = await act(driver, id, 'delivered', key);
      expect(answer.statusCode, answer.body).toBe(400);
      expect(answer.json()).toEqual({
        statusCode: 400,
        error: 'Bad Request',
        message: 'Invalid Idempotency-Key header: it must be one UUID',
        issues: [
          {
            path: 'headers.idempotency-key',
            message:
              'Must be a UUID (a new one for each action, the same one when sending that action again)',
          },
        ],
      });
    }
    expect(await transitions(id, 'delivered')).toHaveLength(0);
  });

  it('refuses a key on an action that waits for a phone signature', async () => {
    const id = await prescription('ready');
    const answer = await act(driver, id, 'pickup', randomUUID());
    expect(answer.statusCode, answer.body).toBe(400);
    expect(answer.json().message).toBe(
      'pickup does not take an Idempotency-Key: it waits for a phone signature',
    );
  });

  it('keeps no key when the action did not apply, so a conflict says the current status every time', async () => {
    const id = await prescription('picked_up');
    // Someone else moved it first (the admin returned it).
    await context.app.inject({
      method: 'POST',
      url: `/api/prescriptions/${id}/return`,
      headers: { authorization: `Bearer ${context.adminToken}` },
    });
    const key = randomUUID();
    for (let attempt = 0; attempt < 2; attempt++) {
      const answer = await act(driver, id, 'delivered', key);
      expect(answer.statusCode, answer.body).toBe(409);
      expect(answer.json()).toMatchObject({
        message: 'The prescription is returned: delivered needs picked_up',
        issues: [{ path: 'status', message: 'returned' }],
      });
    }
    const kept = await context.database.db
      .select()
      .from(prescriptionActionKeys)
      .where(eq(prescriptionActionKeys.key, key));
    expect(kept).toEqual([]);
  });
});

describe('an action kept on a phone and sent later (decision 076)', () => {
  const history = async (id: string) =>
    (
      await context.app.inject({
        method: 'GET',
        url: `/api/prescriptions/${id}/history`,
        headers: { authorization: `Bearer ${context.adminToken}` },
      })
    ).json<{ items: { at: string; action: string; changes: Record<string, unknown> | null }[] }>().items;

  it('records when it was taken, by the server clock, beside when the server got it', async () => {
    const id = await prescription('picked_up');
    // Kept 21 minutes on the phone; what its clock says the time is does not matter.
    const answer = await act(driver, id, 'delivered', randomUUID(), { keptForSeconds: 21 * 60 });
    expect(answer.statusCode, answer.body).toBe(200);
    const [delivered] = (await history(id)).filter((item) => item.action === 'delivered');
    const performedAt = delivered!.changes?.performedAt as string;
    expect(Date.parse(delivered!.at) - Date.parse(performedAt)).toBeGreaterThanOrEqual(21 * 60_000 - 1_000);
    expect(Date.parse(delivered!.at) - Date.parse(performedAt)).toBeLessThanOrEqual(21 * 60_000 + 1_000);
    expect(delivered!.changes).toMatchObject({ status: 'delivered' });
  });

  it('records no time before the status it was taken on was reached, however long the phone says it kept it', async () => {
    const id = await prescription('ready');
    const { createdAt } = (
      await context.database.db.select().from(prescriptions).where(eq(prescriptions.id, id))
    )[0]!;
    // Status set without an audited change: the prescription's creation bounds it.
    const month = 30 * 24 * 3600;
    expect((await act(pharmacist, id, 'hold', randomUUID(), { keptForSeconds: month })).statusCode).toBe(200);
    const [hold] = (await history(id)).filter((entry) => entry.action === 'hold');
    expect(hold!.changes?.performedAt).toBe(createdAt.toISOString());
    // Then the hold is the status change it was taken after.
    expect((await act(pharmacist, id, 'resume', randomUUID(), { keptForSeconds: month })).statusCode).toBe(
      200,
    );
    const [resume] = (await history(id)).filter((entry) => entry.action === 'resume');
    expect(resume!.changes?.performedAt).toBe(hold!.at);
  });

  it('takes a reason and the time kept together, and records no time where none was sent', async () => {
    const id = await prescription('picked_up');
    const returned = await act(driver, id, 'return', randomUUID(), {
      reason: 'Nobody home',
      keptForSeconds: 60,
    });
    expect(returned.statusCode, returned.body).toBe(200);
    const [item] = (await history(id)).filter((entry) => entry.action === 'return');
    expect(item!.changes).toMatchObject({ reason: 'Nobody home', performedAt: expect.any(String) });

    const other = await prescription('picked_up');
    expect((await act(driver, other, 'delivered', randomUUID())).statusCode).toBe(200);
    const [plain] = (await history(other)).filter((entry) => entry.action === 'delivered');
    expect(plain!.changes).not.toHaveProperty('performedAt');
  });

  it('answers the repeat of a send whose answer was lost, though the repeat says how long it was kept', async () => {
    const id = await prescription('picked_up');
    const key = randomUUID();
    expect((await act(driver, id, 'delivered', key)).statusCode).toBe(200);
    const again = await act(driver, id, 'delivered', key, { keptForSeconds: 90 });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(await transitions(id, 'delivered')).toHaveLength(1);
  });

  it('refuses a time kept that is negative, longer than a key answers, or not whole seconds', async () => {
    const id = await prescription('picked_up');
    for (const keptForSeconds of [-1, 30 * 24 * 3600 + 1, 1.5, '60']) {
      const answer = await act(driver, id, 'delivered', randomUUID(), { keptForSeconds });
      expect(answer.statusCode, answer.body).toBe(400);
      expect(answer.json().issues).toEqual([expect.objectContaining({ path: 'body.keptForSeconds' })]);
    }
    // Nothing of it applied.
    expect(await transitions(id, 'delivered')).toHaveLength(0);
    // A signing action is never kept: it takes no such field.
    const ready = await prescription('ready');
    const pickup = await act(driver, ready, 'pickup', undefined, { keptForSeconds: 0 });
    expect(pickup.statusCode, pickup.body).toBe(400);
  });
});
