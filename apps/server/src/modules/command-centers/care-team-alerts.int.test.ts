// The care team acts on its centers' alerts (decision 079): a supervisor or nurse of a center acknowledges and
// closes that center's open alerts under the admin's rules (named as the one who acted, audited, a closed alert
// a 409); an alert of another center answers 404 and stays as it was; someone outside every care team gets 403.
import { eq } from 'drizzle-orm';
import { MAX_KEPT_ACTION_DAYS } from '@careplane/shared/common/kept-actions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commandCenterEndpoints as endpoints } from '@careplane/shared/command-centers/command-centers.contract';
import { alerts } from '@/db/schema/index.js';
import { createCommandCenter, createDevice, createUser, type TestUser } from '@/test/factories.js';
import { api, createTestContext, type TestContext } from '@/test/harness.js';
import { auditRows } from '@/test/records.js';

let context: TestContext;
let north: { supervisor: TestUser; nurse: TestUser; patient: TestUser };
let south: { supervisor: TestUser; patient: TestUser };

const note = (text: string) => ({ closingData: { note: text } });
const stored = async (id: string) =>
  (await context.database.db.select().from(alerts).where(eq(alerts.id, id)))[0]!;

/** An open alert for a patient, as an admin sends one. */
async function openAlert(patient: TestUser, message = 'Fall detected in the kitchen') {
  const response = await api(context).post('/api/alerts', { data: { message }, user: patient.id });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().id as string;
}

async function makeCenter(name: string) {
  const supervisor = await createUser(context, {
    firstName: `${name} supervisor`,
    localRoles: ['supervisor'],
  });
  const nurse = await createUser(context, { firstName: `${name} nurse`, localRoles: ['nurse'] });
  const patient = await createUser(context, { firstName: `${name} patient` });
  const center = await createCommandCenter(context, {
    title: name,
    assignedUsers: [supervisor.id, nurse.id],
  });
  await createDevice(context, {
    title: `${name} tablet`,
    commandCenter: center.id,
    assignedUser: patient.id,
  });
  return { supervisor, nurse, patient };
}

beforeAll(async () => {
  context = await createTestContext();
  north = await makeCenter('North');
  south = await makeCenter('South');
});
afterAll(async () => {
  await context?.close();
});

describe("the care team acts on its center's alerts", () => {
  it('a supervisor acknowledges an open alert once: it stays open, naming them, audited', async () => {
    const id = await openAlert(north.patient);
    const me = api(context, north.supervisor.token);
    const response = await me.post(endpoints.acknowledgeAlert(id));
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ id, isActive: true, acknowledgedByUserId: north.supervisor.id });
    expect(response.json().acknowledgedAt).toEqual(expect.any(String));
    expect(await auditRows(context, 'alerts', id)).toEqual([
      expect.objectContaining({ action: 'create' }),
      expect.objectContaining({ action: 'acknowledge' }),
    ]);

    const again = await me.post(endpoints.acknowledgeAlert(id));
    expect(again.statusCode, again.body).toBe(409);
  });

  it("a nurse of the center closes one with a note; the note and the nurse's name are kept", async () => {
    const id = await openAlert(north.patient);
    const me = api(context, north.nurse.token);
    const response = await me.post(endpoints.closeAlert(id), note('Visited; she is fine.'));
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({
      isActive: false,
      closedByUserId: north.nurse.id,
      closingData: { note: 'Visited; she is fine.' },
    });
    // Closed is final here: neither action applies any more.
    expect((await me.post(endpoints.closeAlert(id), note('Again'))).statusCode).toBe(409);
    expect((await me.post(endpoints.acknowledgeAlert(id))).statusCode).toBe(409);
    expect((await stored(id)).closingData).toEqual({ note: 'Visited; she is fine.' });
  });

  it('an alert of another center is a 404 and stays as it was, whatever the action', async () => {
    const id = await openAlert(south.patient);
    const me = api(context, north.supervisor.token);
    const acknowledged = await me.post(endpoints.acknowledgeAlert(id));
    expect(acknowledged.statusCode, acknowledged.body).toBe(404);
    const closed = await me.post(endpoints.closeAlert(id), note('Not mine'));
    expect(closed.statusCode, closed.body).toBe(404);
    expect(await stored(id)).toMatchObject({ isActive: true, acknowledgedAt: null, closedByUserId: null });
    // The same answer as for an alert that does not exist: nothing tells the two apart.
    const missing = await me.post(endpoints.acknowledgeAlert('0190a0b0-0000-7000-8000-0000000000ff'));
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toBe(acknowledged.json().message);
  });

  it('someone outside every care team gets 403, a bad id or note a 400, and nothing changes', async () => {
    const id = await openAlert(north.patient);
    const patient = api(context, north.patient.token);
    expect((await patient.post(endpoints.acknowledgeAlert(id))).statusCode).toBe(403);
    expect((await patient.post(endpoints.closeAlert(id), note('Closing my own'))).statusCode).toBe(403);

    const me = api(context, north.supervisor.token);
    expect((await me.post(endpoints.acknowledgeAlert('not-an-id'))).statusCode).toBe(400);
    const noNote = await me.post(endpoints.closeAlert(id), {});
    expect(noNote.statusCode, noNote.body).toBe(400);
    expect(await stored(id)).toMatchObject({ isActive: true, acknowledgedAt: null });
  });

  it('a closing over 4 KB beside its note is a 400 naming it, and nothing changes (decision 111)', async () => {
    const id = await openAlert(north.patient);
    const fields = Object.fromEntries(Array.from({ length: 480 }, (_, n) => [`f${n}`, 'x'.repeat(1900)]));
    const refused = await api(context, north.nurse.token).post(endpoints.closeAlert(id), {
      closingData: { note: 'Visited', ...fields },
    });
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json().issues).toEqual([
      { path: 'body.closingData', message: 'At most 4 KB of fields besides the note' },
    ]);
    expect(await stored(id)).toMatchObject({ isActive: true, closingData: null });
  });

  it('the care team reads who acted on an alert by name, and nothing more of them (decision 104)', async () => {
    const acknowledged = await openAlert(north.patient, 'Dizzy after lunch');
    expect(
      (await api(context, north.supervisor.token).post(endpoints.acknowledgeAlert(acknowledged))).statusCode,
    ).toBe(200);
    const closed = await openAlert(north.patient, 'Missed the evening call');
    expect(
      (await api(context, north.nurse.token).post(endpoints.closeAlert(closed), note('Called back')))
        .statusCode,
    ).toBe(200);

    const names = ['firstName', 'id', 'lastName', 'title'];
    const nurse = api(context, north.nurse.token);
    const listed = await nurse.get(
      `${endpoints.alerts}?filters=user.id~${north.patient.id}&relations=user,acknowledgedByUser,closedByUser,createdByUser&limit=50`,
    );
    expect(listed.statusCode, listed.body).toBe(200);
    type Embedded = Record<string, unknown> | null;
    type Listed = { id: string } & Record<string, Embedded>;
    const byId = new Map((listed.json().items as Listed[]).map((item) => [item.id, item]));
    const first = byId.get(acknowledged)!;
    expect(first.acknowledgedByUser).toMatchObject({
      id: north.supervisor.id,
      firstName: 'North supervisor',
    });
    expect(Object.keys(first.acknowledgedByUser!).sort()).toEqual(names);
    // The admin who sent it: a name to read, not an address or a number to reach them by.
    expect(first.createdByUser).toMatchObject({ id: context.adminUserId });
    expect(Object.keys(first.createdByUser!).sort()).toEqual(names);
    const second = byId.get(closed)!;
    expect(second.closedByUser).toMatchObject({ id: north.nurse.id, firstName: 'North nurse' });
    expect(Object.keys(second.closedByUser!).sort()).toEqual(names);
    // The patient the alert is about is of the center, read whole as before.
    expect(second.user).toMatchObject({ id: north.patient.id, username: expect.any(String) });

    // The admin's own calls embed the same names; the user record is one link away for them.
    const read = await api(context).get(`/api/alerts/${acknowledged}?relations=acknowledgedByUser`);
    expect(read.statusCode, read.body).toBe(200);
    expect(Object.keys(read.json().acknowledgedByUser).sort()).toEqual(names);

    // A relation reaching past the alert is still refused.
    const deeper = await nurse.get(`${endpoints.alerts}?relations=iotDevice.assignedUser`);
    expect(deeper.statusCode, deeper.body).toBe(400);
  });

  it('records an action tapped offline as taken when it was tapped, never before the alert (decision 105)', async () => {
    const hourAgo = new Date(Date.now() - 3600_000);
    const id = await openAlert(north.patient, 'No answer at the door');
    await context.database.db.update(alerts).set({ createdAt: hourAgo }).where(eq(alerts.id, id));
    const me = api(context, north.nurse.token);
    const sentAt = Date.now();
    const acknowledged = await me.post(endpoints.acknowledgeAlert(id), { keptForSeconds: 600 });
    expect(acknowledged.statusCode, acknowledged.body).toBe(200);
    const at = Date.parse(acknowledged.json().acknowledgedAt as string);
    expect(Math.abs(at - (sentAt - 600_000))).toBeLessThan(5_000);
    // The audit row says by how much it was dated back; its own time is when it arrived.
    expect(await auditRows(context, 'alerts', id)).toContainEqual(
      expect.objectContaining({
        action: 'acknowledge',
        changes: expect.objectContaining({ keptForSeconds: 600 }),
      }),
    );

    // Kept longer than since the acknowledgement (a phone's count is its own): a closing is not dated before it.
    const closed = await me.post(endpoints.closeAlert(id), {
      ...note('She was asleep'),
      keptForSeconds: 7200,
    });
    expect(closed.statusCode, closed.body).toBe(200);
    expect((await stored(id)).closedAt).toEqual((await stored(id)).acknowledgedAt);
    expect((await stored(id)).closingData).toEqual({ note: 'She was asleep' });

    // Never before the alert itself.
    const early = await openAlert(north.patient, 'Gate left open');
    await context.database.db.update(alerts).set({ createdAt: hourAgo }).where(eq(alerts.id, early));
    expect((await me.post(endpoints.acknowledgeAlert(early), { keptForSeconds: 7200 })).statusCode).toBe(200);
    expect((await stored(early)).acknowledgedAt).toEqual(hourAgo);

    // What cannot be a count of seconds, or counts longer than a phone keeps an action, is refused by both
    // calls, and changes nothing.
    const other = await openAlert(north.patient, 'Door alarm');
    for (const extra of [
      { keptForSeconds: -1 },
      { keptForSeconds: 1.5 },
      { keptForSeconds: '600' },
      { keptForSeconds: MAX_KEPT_ACTION_DAYS * 24 * 3600 + 1 },
      { keptFor: 600 },
    ]) {
      const refused = await me.post(endpoints.acknowledgeAlert(other), extra);
      expect(refused.statusCode, JSON.stringify(extra)).toBe(400);
      const notClosed = await me.post(endpoints.closeAlert(other), { ...note('Not yet'), ...extra });
      expect(notClosed.statusCode, JSON.stringify(extra)).toBe(400);
    }
    expect(await stored(other)).toMatchObject({ acknowledgedAt: null, isActive: true });
    // The admin's call takes the same; the longest exactly is still a count.
    const admin = await api(context).post(`/api/alerts/${other}/acknowledge`, {
      keptForSeconds: MAX_KEPT_ACTION_DAYS * 24 * 3600,
    });
    expect(admin.statusCode, admin.body).toBe(200);
  });

  it("an admin uses the same calls on any center's alert", async () => {
    const id = await openAlert(south.patient);
    const response = await api(context).post(endpoints.closeAlert(id), note('Handled by the office'));
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ isActive: false, closedByUserId: context.adminUserId });
  });
});
