// Idempotency-Key on an alert's acknowledge and close (decision 107), as the console's outbox uses it: a repeat
// answers what the first request answered and changes nothing, even once the alert is closed; duplicates sent at
// once apply once; a key sent with another alert, action or closingData is a 422; a malformed key a 400; a
// longer kept time is the same action; the care team's calls honour the key as the admin's do.
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commandCenterEndpoints as endpoints } from '@careplane/shared/command-centers/command-centers.contract';
import { alertActionKeys } from '@/db/schema/index.js';
import { ACTION_KEY_DAYS } from '@/lib/action-keys.js';
import { createChangeFeed } from '@/lib/changes.js';
import { createStore } from '@/lib/store.js';
import { createCommandCenter, createDevice, createUser, type TestUser } from '@/test/factories.js';
import { api, createTestContext, type TestContext } from '@/test/harness.js';
import { auditRows } from '@/test/records.js';
import { createAlertsService } from './alerts.service.js';

let context: TestContext;
let colleague: TestUser;
let north: { nurse: TestUser; patient: TestUser };

beforeAll(async () => {
  context = await createTestContext();
  colleague = await createUser(context, { firstName: 'Colleague', roles: ['admin'] });
  const nurse = await createUser(context, { firstName: 'North nurse', localRoles: ['nurse'] });
  const patient = await createUser(context, { firstName: 'North patient' });
  const center = await createCommandCenter(context, { title: 'North', assignedUsers: [nurse.id] });
  await createDevice(context, { title: 'North tablet', commandCenter: center.id, assignedUser: patient.id });
  north = { nurse, patient };
});
afterAll(async () => {
  await context?.close();
});

async function openAlert(user?: string) {
  const response = await api(context).post('/api/alerts', {
    data: { message: 'Fall detected' },
    ...(user ? { user } : {}),
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<{ id: string }>().id;
}

type Action = 'acknowledge' | 'close';

const act = (
  id: string,
  action: Action,
  key: string | undefined,
  body?: object,
  { token = context.adminToken, careTeam = false } = {},
) =>
  context.app.inject({
    method: 'POST',
    url: careTeam
      ? action === 'close'
        ? endpoints.closeAlert(id)
        : endpoints.acknowledgeAlert(id)
      : `/api/alerts/${id}/${action}`,
    headers: {
      authorization: `Bearer ${token}`,
      ...(key === undefined ? {} : { 'idempotency-key': key }),
    },
    ...(body ? { payload: body } : {}),
  });

const actions = async (id: string, action: Action) =>
  (await auditRows(context, 'alerts', id)).filter((row) => row.action === action);

const note = (text: string) => ({ closingData: { note: text } });

describe('Idempotency-Key on an alert action', () => {
  it('answers an acknowledgement sent again with the first answer and acknowledges once', async () => {
    const id = await openAlert();
    const key = randomUUID();
    const first = await act(id, 'acknowledge', key);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({ id, isActive: true, acknowledgedByUserId: context.adminUserId });
    expect(first.headers['idempotent-replayed']).toBeUndefined();

    const again = await act(id, 'acknowledge', key);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());

    const rows = await actions(id, 'acknowledge');
    expect(rows).toHaveLength(1);
    expect(rows[0]!.changes).toMatchObject({ idempotencyKey: key });
    // Without a key, acknowledging again is still a 409.
    expect((await act(id, 'acknowledge', undefined)).statusCode).toBe(409);
  });

  it('answers a closing sent again after a colleague acted on the alert with the first answer, not a 409', async () => {
    const id = await openAlert();
    const key = randomUUID();
    const first = await act(id, 'close', key, note('Visited; she is fine.'));
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({ isActive: false, closedByUserId: context.adminUserId });

    // A colleague reopens and closes it again meanwhile: the repeat answers what the first answered.
    expect(
      (await api(context, colleague.token).patch(`/api/alerts/${id}`, { isActive: true })).statusCode,
    ).toBe(200);
    const theirs = await act(id, 'close', undefined, note('Called her.'), { token: colleague.token });
    expect(theirs.statusCode, theirs.body).toBe(200);

    const again = await act(id, 'close', key, note('Visited; she is fine.'));
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json()).toEqual(first.json());
    const closings = await actions(id, 'close');
    expect(closings).toHaveLength(2);
    expect(closings[0]!.changes).toMatchObject({ idempotencyKey: key });
    expect(closings[1]!.changes).not.toHaveProperty('idempotencyKey');
    const now = await api(context).get(`/api/alerts/${id}`);
    expect(now.json()).toMatchObject({ closedByUserId: colleague.id, closingData: { note: 'Called her.' } });
  });

  it('answers the alert as it is now for a key whose answer was not saved', async () => {
    const id = await openAlert();
    const key = randomUUID();
    expect((await act(id, 'close', key, note('Done'))).statusCode).toBe(200);
    await context.database.db
      .update(alertActionKeys)
      .set({ answer: null })
      .where(eq(alertActionKeys.key, key));
    const again = await act(id, 'close', key, note('Done'));
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json()).toMatchObject({ id, isActive: false, closingData: { note: 'Done' } });
    expect(await actions(id, 'close')).toHaveLength(1);
  });

  it('takes a longer kept time sent again as the same action', async () => {
    const id = await openAlert();
    const key = randomUUID();
    const first = await act(id, 'close', key, { ...note('Kept'), keptForSeconds: 5 });
    expect(first.statusCode, first.body).toBe(200);
    const again = await act(id, 'close', key, { ...note('Kept'), keptForSeconds: 65 });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json()).toEqual(first.json());
    const acknowledged = await openAlert();
    const other = randomUUID();
    expect((await act(acknowledged, 'acknowledge', other, { keptForSeconds: 1 })).statusCode).toBe(200);
    const resent = await act(acknowledged, 'acknowledge', other, { keptForSeconds: 30 });
    expect(resent.statusCode, resent.body).toBe(200);
    expect(await actions(id, 'close')).toHaveLength(1);
    expect(await actions(acknowledged, 'acknowledge')).toHaveLength(1);
  });

  it('refuses a key reused for another alert, another action or other closing data, changing nothing', async () => {
    const id = await openAlert();
    const key = randomUUID();
    expect((await act(id, 'close', key, note('First'))).statusCode).toBe(200);

    const other = await openAlert();
    const otherAlert = await act(other, 'close', key, note('First'));
    expect(otherAlert.statusCode, otherAlert.body).toBe(422);
    expect(otherAlert.json().message).toMatch(
      /^This Idempotency-Key was already used for another request \(close of alert /,
    );
    expect(otherAlert.json().issues).toEqual([expect.objectContaining({ path: 'headers.idempotency-key' })]);
    const otherAction = await act(other, 'acknowledge', key);
    expect(otherAction.statusCode, otherAction.body).toBe(422);
    // Only what differs is said: another action is no other closing data.
    expect(otherAction.json().message).toBe(
      `This Idempotency-Key was already used for another request (close of alert ${id}): ` +
        'send a new key for a new action',
    );
    const acknowledged = await openAlert();
    const ackKey = randomUUID();
    expect((await act(acknowledged, 'acknowledge', ackKey)).statusCode).toBe(200);
    const closeWithAckKey = await act(acknowledged, 'close', ackKey, note('Done'));
    expect(closeWithAckKey.statusCode, closeWithAckKey.body).toBe(422);
    expect(closeWithAckKey.json().message).toBe(
      `This Idempotency-Key was already used for another request (acknowledge of alert ${acknowledged}): ` +
        'send a new key for a new action',
    );
    const otherData = await act(id, 'close', key, note('Second'));
    expect(otherData.statusCode, otherData.body).toBe(422);
    expect(otherData.json().message).toContain('with other closing data');

    const untouched = await api(context).get(`/api/alerts/${other}`);
    expect(untouched.json()).toMatchObject({ isActive: true, acknowledgedAt: null });
    expect(await actions(id, 'close')).toHaveLength(1);
  });

  it('refuses a malformed key with a 400 that says what a key must be', async () => {
    const id = await openAlert();
    for (const key of ['not-a-uuid', '', `${randomUUID()}, ${randomUUID()}`]) {
      const response = await act(id, 'acknowledge', key);
      expect(response.statusCode, `${key}: ${response.body}`).toBe(400);
      expect(response.json().issues).toEqual([expect.objectContaining({ path: 'headers.idempotency-key' })]);
    }
    expect((await api(context).get(`/api/alerts/${id}`)).json().acknowledgedAt).toBeNull();
  });

  it('answers 404 for a key sent for an alert that does not exist', async () => {
    const response = await act(randomUUID(), 'acknowledge', randomUUID());
    expect(response.statusCode, response.body).toBe(404);
  });

  it('applies duplicates sent at once only once, and answers every one of them 200', async () => {
    const id = await openAlert();
    const key = randomUUID();
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => act(id, 'close', key, note('At once'))),
    );
    expect(answers.map((answer) => answer.statusCode)).toEqual(Array(6).fill(200));
    for (const answer of answers) expect(answer.json()).toMatchObject({ id, isActive: false });
    expect(await actions(id, 'close')).toHaveLength(1);

    const acknowledged = await openAlert();
    const other = randomUUID();
    const pair = await Promise.all([
      act(acknowledged, 'acknowledge', other),
      act(acknowledged, 'acknowledge', other),
    ]);
    expect(pair.map((answer) => answer.statusCode)).toEqual([200, 200]);
    expect(await actions(acknowledged, 'acknowledge')).toHaveLength(1);
  });

  it("honours the key on the care team's calls for its center's alert", async () => {
    const id = await openAlert(north.patient.id);
    const as = { token: north.nurse.token, careTeam: true };
    const ackKey = randomUUID();
    const acknowledged = await act(id, 'acknowledge', ackKey, undefined, as);
    expect(acknowledged.statusCode, acknowledged.body).toBe(200);
    expect(acknowledged.json()).toMatchObject({ acknowledgedByUserId: north.nurse.id });
    const ackAgain = await act(id, 'acknowledge', ackKey, { keptForSeconds: 20 }, as);
    expect(ackAgain.statusCode, ackAgain.body).toBe(200);
    expect(ackAgain.headers['idempotent-replayed']).toBe('true');
    expect(ackAgain.json()).toEqual(acknowledged.json());

    const closeKey = randomUUID();
    const closed = await act(id, 'close', closeKey, note('Visited'), as);
    expect(closed.statusCode, closed.body).toBe(200);
    const closeAgain = await act(id, 'close', closeKey, note('Visited'), as);
    expect(closeAgain.statusCode, closeAgain.body).toBe(200);
    expect(closeAgain.json()).toEqual(closed.json());
    const reused = await act(id, 'close', ackKey, note('Visited'), as);
    expect(reused.statusCode, reused.body).toBe(422);
    expect(await actions(id, 'acknowledge')).toHaveLength(1);
    expect(await actions(id, 'close')).toHaveLength(1);
  });

  it('keeps keys per user: the same key from two users is two requests', async () => {
    const id = await openAlert();
    const key = randomUUID();
    expect((await act(id, 'acknowledge', key)).statusCode).toBe(200);
    const theirs = await act(id, 'acknowledge', key, undefined, { token: colleague.token });
    expect(theirs.statusCode, theirs.body).toBe(409);
  });

  it('refuses a key from a caller without a user (a credential of its own), changing nothing', async () => {
    const id = await openAlert();
    const service = createAlertsService(createStore(context.database.db, createChangeFeed()));
    const caller = {
      subject: 'client:monitor',
      roles: ['admin'],
      claims: {},
      userId: null,
      localRoles: [],
      isAdmin: true,
    };
    await expect(
      service.acknowledge(id, undefined, { caller, ip: null }, randomUUID()),
    ).rejects.toMatchObject({
      statusCode: 400,
      issues: [expect.objectContaining({ path: 'headers.idempotency-key', message: 'Only for users' })],
    });
    expect((await api(context).get(`/api/alerts/${id}`)).json().acknowledgedAt).toBeNull();
  });

  it('forgets a key after ACTION_KEY_DAYS: a send that old is a new request, and the old key is let go', async () => {
    const id = await openAlert();
    const key = randomUUID();
    expect((await act(id, 'acknowledge', key)).statusCode).toBe(200);
    await context.database.db
      .update(alertActionKeys)
      .set({ createdAt: new Date(Date.now() - (ACTION_KEY_DAYS + 1) * 24 * 3600_000) })
      .where(eq(alertActionKeys.key, key));
    // Not answered from the key: acted on again, and refused as a second acknowledgement is.
    const late = await act(id, 'acknowledge', key);
    expect(late.statusCode, late.body).toBe(409);
    expect(late.headers['idempotent-replayed']).toBeUndefined();
    // A new claim by the same user lets the old keys go.
    expect((await act(await openAlert(), 'acknowledge', randomUUID())).statusCode).toBe(200);
    expect(
      await context.database.db.select().from(alertActionKeys).where(eq(alertActionKeys.key, key)),
    ).toEqual([]);
  });
});
