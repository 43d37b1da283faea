import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, iotDevices } from '@/db/schema/index.js';
import { createIotDevice, createUser } from '@/test/factories.js';
import { api, createTestContext, type TestContext } from '@/test/harness.js';

let context: TestContext;
let admin: ReturnType<typeof api>;
beforeAll(async () => {
  context = await createTestContext();
  admin = api(context);
});
afterAll(async () => {
  await context?.close();
});

const T0 = 1_720_000_000_000;

async function createAlert(body: Record<string, unknown>, token = context.adminToken) {
  const response = await api(context, token).post('/api/alerts', body);
  expect(response.statusCode, response.body).toBe(201);
  return response.json<{ id: string } & Record<string, unknown>>();
}

describe('alerts resource', () => {
  it('creates a manual alert with defaults, reads, updates and deletes it', async () => {
    const before = Date.now();
    const alert = await createAlert({ data: { message: 'Call the patient' } });
    expect(alert).toMatchObject({
      isActive: true,
      data: { message: 'Call the patient' },
      closingData: null,
      iotDeviceId: null,
      userId: null,
      closedByUserId: null,
      createdByUserId: context.adminUserId,
    });
    expect(alert.timestamp).toBeGreaterThanOrEqual(before);
    expect(alert.timestamp).toBeLessThanOrEqual(Date.now());

    const patient = await createUser(context);
    const iotDevice = (await createIotDevice(context)).id;
    const addressed = await createAlert({
      data: { message: 'Low battery' },
      user: patient.id,
      iotDevice,
      timestamp: T0,
    });
    expect(addressed).toMatchObject({ userId: patient.id, iotDeviceId: iotDevice, timestamp: T0 });
    const read = await admin.get(
      `/api/alerts/${addressed.id}?relations=user,iotDevice,createdByUser,closedByUser`,
    );
    expect(read.json()).toMatchObject({
      user: { id: patient.id },
      iotDevice: { id: iotDevice },
      createdByUser: { id: context.adminUserId },
      closedByUser: null,
    });
    expect(read.body).not.toContain('connectionSecret');

    const changed = await admin.patch(`/api/alerts/${addressed.id}`, {
      data: { message: 'Battery empty' },
      user: null,
    });
    expect(changed.json()).toMatchObject({
      data: { message: 'Battery empty' },
      userId: null,
      isActive: true,
    });

    expect((await admin.delete(`/api/alerts/${addressed.id}`)).statusCode).toBe(204);
    expect((await admin.get(`/api/alerts/${addressed.id}`)).statusCode).toBe(404);
  });

  it('validates alert bodies', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{}, 'body.data'],
      [{ data: 'text' }, 'body.data'],
      [{ data: {}, user: 'someone' }, 'body.user'],
      [{ data: {}, iotDevice: 12 }, 'body.iotDevice'],
      [{ data: {}, isActive: 'yes' }, 'body.isActive'],
      [{ data: {}, timestamp: 'now' }, 'body.timestamp'],
      [{ data: {}, isActive: false }, 'body.closingData'],
      [{ data: {}, closedByUser: randomUUID() }, 'body'],
      [{ data: {}, closingData: { note: 'x' } }, 'body.closingData'],
    ];
    for (const [body, path] of cases) {
      const response = await admin.post('/api/alerts', body);
      expect(response.statusCode, `${path}: ${response.body}`).toBe(400);
      expect(response.json().issues.map((issue: { path: string }) => issue.path)).toContain(path);
    }
    expect((await admin.post('/api/alerts', { data: {}, user: randomUUID() })).statusCode).toBe(400);
    expect((await admin.post('/api/alerts', { data: {}, iotDevice: randomUUID() })).statusCode).toBe(400);
    expect((await admin.patch(`/api/alerts/${randomUUID()}`, { data: {} })).statusCode).toBe(404);
    expect((await admin.patch('/api/alerts/not-a-uuid', { data: {} })).statusCode).toBe(400);
  });

  it("refuses an alert's data or closing data over 4 KB, naming the field, in both languages (decision 111)", async () => {
    const alert = await createAlert({ data: { message: 'Fall detected' } });
    const url = `/api/alerts/${alert.id}`;
    // What a probe sent: 480 fields of 1,900 characters, 919 KB that every alert list and the stream would carry.
    const fields = Object.fromEntries(Array.from({ length: 480 }, (_, n) => [`f${n}`, 'x'.repeat(1900)]));
    const besidesNote = 'At most 4 KB of fields besides the note';
    for (const [refused, path, message] of [
      [
        admin.post(`${url}/close`, { closingData: { note: 'ok', ...fields } }),
        'body.closingData',
        besidesNote,
      ],
      [admin.patch(url, { isActive: false, closingData: fields }), 'body.closingData', besidesNote],
      [admin.post('/api/alerts', { data: fields }), 'body.data', 'At most 4 KB of fields'],
      [admin.patch(url, { data: { ...fields } }), 'body.data', 'At most 4 KB of fields'],
    ] as const) {
      const answer = await refused;
      expect(answer.statusCode, answer.body).toBe(400);
      expect(answer.json().issues).toEqual([{ path, message }]);
    }
    const thai = await context.app.inject({
      method: 'POST',
      url: `${url}/close`,
      headers: { authorization: `Bearer ${context.adminToken}`, 'accept-language': 'th' },
      payload: { closingData: { note: 'ok', ...fields } },
    });
    expect(thai.statusCode, thai.body).toBe(400);
    expect(thai.json().issues[0].message).toContain('4 KB');
    expect(thai.json().issues[0].message).toContain('บันทึก');
    expect((await admin.get(url)).json()).toMatchObject({ isActive: true, closingData: null });
    // The longest Thai note (6 KB in UTF-8) still closes it: the note keeps its own bound, in characters.
    const closed = await admin.post(`${url}/close`, {
      closingData: { note: 'ก'.repeat(2000), visit: 'home' },
    });
    expect(closed.statusCode, closed.body).toBe(200);
  });

  it('closes an alert with closingData, by the caller; reopening clears the closing', async () => {
    const closer = await createUser(context, { roles: ['admin'] });
    const alert = await createAlert({ data: { message: 'Fall detected' } });
    const url = `/api/alerts/${alert.id}`;

    const withoutNote = await admin.patch(url, { isActive: false });
    expect(withoutNote.statusCode).toBe(400);
    expect(withoutNote.json().issues[0].path).toBe('body.closingData');
    const noteOnly = await admin.patch(url, { closingData: { note: 'fine' } });
    expect(noteOnly.statusCode).toBe(400);
    expect(noteOnly.json().issues[0].path).toBe('closingData');
    expect((await admin.patch(url, { isActive: true, closingData: { note: 'x' } })).statusCode).toBe(400);
    // A note or a title that a direction override or a control character would show otherwise than stored.
    for (const refused of [
      admin.patch(url, { isActive: false, closingData: { note: 'ok \u202e live' } }),
      admin.post(`${url}/close`, { closingData: { note: 'ok', extra: ['\u0007'] } }),
      admin.post('/api/alerts', { data: { message: 'Patient OK \u202e gnidaelb' } }),
    ]) {
      const answer = await refused;
      expect(answer.statusCode, answer.body).toBe(400);
      expect(answer.json().issues[0].message).toBe('Must not contain control or text-direction characters');
    }
    expect((await admin.get(url)).json()).toMatchObject({
      isActive: true,
      closingData: null,
      closedByUserId: null,
    });

    const closed = await api(context, closer.token).patch(url, {
      isActive: false,
      closingData: { note: 'Patient is fine', visitedAt: T0 },
    });
    expect(closed.statusCode, closed.body).toBe(200);
    expect(closed.json()).toMatchObject({
      isActive: false,
      closingData: { note: 'Patient is fine', visitedAt: T0 },
      closedByUserId: closer.id,
      createdByUserId: context.adminUserId,
    });
    const withCloser = await admin.get(`${url}?relations=closedByUser`);
    expect(withCloser.json().closedByUser.id).toBe(closer.id);

    // Amending the note of a closed alert keeps it closed.
    const amended = await api(context, closer.token).patch(url, { closingData: { note: 'Amended' } });
    expect(amended.json()).toMatchObject({
      isActive: false,
      closingData: { note: 'Amended' },
      closedByUserId: closer.id,
    });

    const reopened = await admin.patch(url, { isActive: true });
    expect(reopened.json()).toMatchObject({ isActive: true, closingData: null, closedByUserId: null });

    // An alert may be recorded already closed; the caller closes it.
    const recorded = await createAlert({
      data: { message: 'Handled on the phone' },
      isActive: false,
      closingData: { note: 'done' },
    });
    expect(recorded).toMatchObject({
      isActive: false,
      closedByUserId: context.adminUserId,
      closingData: { note: 'done' },
    });
  });

  it('refuses closing for a caller without a user record, whatever its token claims', async () => {
    const alert = await createAlert({ data: { message: 'x' } });
    const stranger = await context.signer.sign({ roles: ['admin'] }, { subject: randomUUID() });
    const response = await api(context, stranger).patch(`/api/alerts/${alert.id}`, {
      isActive: false,
      closingData: { note: 'x' },
    });
    expect(response.statusCode).toBe(403);
    expect((await admin.get(`/api/alerts/${alert.id}`)).json().isActive).toBe(true);
  });

  it('lists with filters, a time range, sorts, relations and pages', async () => {
    const other = await createUser(context, { roles: ['admin'] });
    const patient = await createUser(context);
    const iotDevice = (await createIotDevice(context)).id;
    const a = await createAlert({ data: { n: 1 }, timestamp: T0 + 10, user: patient.id, iotDevice });
    const b = await createAlert({ data: { n: 2 }, timestamp: T0 + 20, user: patient.id }, other.token);
    const c = await createAlert({ data: { n: 3 }, timestamp: T0 + 30, iotDevice }, other.token);
    await admin.patch(`/api/alerts/${b.id}`, { isActive: false, closingData: { note: 'ok' } });
    const range = `from=${T0}&to=${T0 + 100}`;
    const ids = async (query: string) => {
      const response = await admin.get(`/api/alerts?${range}&${query}`);
      expect(response.statusCode, `${query}: ${response.body}`).toBe(200);
      return (response.json().items as { id: string }[]).map((item) => item.id);
    };
    expect(await ids('')).toEqual([c.id, b.id, a.id]);
    expect(await ids('sort=timestamp:asc')).toEqual([a.id, b.id, c.id]);
    expect(await ids('filters=isActive~true&sort=timestamp:asc')).toEqual([a.id, c.id]);
    expect(await ids('filters=isActive~false')).toEqual([b.id]);
    expect(await ids(`filters=iotDevice.id~${iotDevice}&sort=timestamp:asc`)).toEqual([a.id, c.id]);
    expect(await ids(`filters=user.id~${patient.id}&sort=timestamp:asc`)).toEqual([a.id, b.id]);
    expect(await ids('filters=user.id~null')).toEqual([c.id]);
    expect(await ids(`filters=createdByUser.id~${other.id}&sort=timestamp:asc`)).toEqual([b.id, c.id]);
    expect(
      await ids(`filters=createdByUser.id~${other.id},${context.adminUserId}&sort=timestamp:asc`),
    ).toEqual([a.id, b.id, c.id]);
    expect(await ids(`filters=closedByUser.id~${context.adminUserId}`)).toEqual([b.id]);
    expect(await ids(`filters=id~${a.id}`)).toEqual([a.id]);
    expect(await ids(`filtersLike=id~${a.id.slice(-10)}`)).toEqual([a.id]);
    expect(
      (await admin.get(`/api/alerts?from=${T0 + 15}&to=${T0 + 25}`))
        .json()
        .items.map((item: { id: string }) => item.id),
    ).toEqual([b.id]);
    expect((await admin.get(`/api/alerts?from=${T0 + 25}&to=${T0 + 100}`)).json().total).toBe(1);

    const page = await admin.get(
      `/api/alerts?${range}&sort=timestamp:asc&limit=1&offset=1&relations=user,closedByUser`,
    );
    expect(page.json()).toMatchObject({ total: 3, limit: 1, offset: 1 });
    expect(page.json().items[0]).toMatchObject({
      id: b.id,
      user: { id: patient.id },
      closedByUser: { id: context.adminUserId },
    });

    for (const query of [
      'filters=data~x',
      'filters=isActive~maybe',
      'filters=user.id~123',
      'filtersLike=data~x',
      'from=soon',
      'sort=data:asc',
      'sort=timestamp:random',
      'relations=owner',
      'offset=-1',
    ]) {
      const response = await admin.get(`/api/alerts?${query}`);
      expect(response.statusCode, query).toBe(400);
      expect(response.json()).toMatchObject({ statusCode: 400, error: 'Bad Request' });
    }
  });

  it('writes audit rows for alert changes', async () => {
    const alert = await createAlert({ data: { message: 'audit me' } });
    await admin.patch(`/api/alerts/${alert.id}`, { isActive: false, closingData: { note: 'done' } });
    await admin.delete(`/api/alerts/${alert.id}`);
    const rows = await context.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.resource, 'alerts'), eq(auditLog.recordId, alert.id)))
      .orderBy(auditLog.id);
    expect(rows.map((row) => row.action)).toEqual(['create', 'update', 'delete']);
    expect(rows[1]!.changes).toMatchObject({ isActive: false, closingData: { note: 'done' } });
    expect(rows.every((row) => row.actorUserId === context.adminUserId)).toBe(true);
  });

  it('answers 401 without a token and 403 to a non-admin', async () => {
    const alert = await createAlert({ data: { message: 'private' } });
    const user = api(context, context.userToken);
    expect((await user.get('/api/alerts')).statusCode).toBe(403);
    expect((await user.get(`/api/alerts/${alert.id}`)).statusCode).toBe(403);
    expect((await user.post('/api/alerts', { data: {} })).statusCode).toBe(403);
    expect(
      (await user.patch(`/api/alerts/${alert.id}`, { isActive: false, closingData: {} })).statusCode,
    ).toBe(403);
    expect((await user.delete(`/api/alerts/${alert.id}`)).statusCode).toBe(403);
    expect((await context.app.inject({ url: '/api/alerts' })).statusCode).toBe(401);
    expect((await admin.get(`/api/alerts/${alert.id}`)).json().isActive).toBe(true);
  });

  it('follows the delete rules: the concerned user and the creator take their alerts, the closer is cleared', async () => {
    const creator = await createUser(context, { roles: ['admin'] });
    const closer = await createUser(context, { roles: ['admin'] });
    const patient = await createUser(context);
    const iotDevice = (await createIotDevice(context)).id;
    const byCreator = await createAlert({ data: { n: 1 } }, creator.token);
    const aboutPatient = await createAlert({ data: { n: 2 }, user: patient.id });
    const closed = await createAlert({ data: { n: 3 }, iotDevice });
    await api(context, closer.token).patch(`/api/alerts/${closed.id}`, {
      isActive: false,
      closingData: { note: 'ok' },
    });

    expect((await admin.delete(`/api/users/${creator.id}`)).statusCode).toBe(204);
    expect((await admin.get(`/api/alerts/${byCreator.id}`)).statusCode).toBe(404);
    expect((await admin.delete(`/api/users/${patient.id}`)).statusCode).toBe(204);
    expect((await admin.get(`/api/alerts/${aboutPatient.id}`)).statusCode).toBe(404);
    expect((await admin.delete(`/api/users/${closer.id}`)).statusCode).toBe(204);
    expect((await admin.get(`/api/alerts/${closed.id}`)).json()).toMatchObject({
      isActive: false,
      closedByUserId: null,
      closingData: { note: 'ok' },
    });
    await context.database.db.delete(iotDevices).where(eq(iotDevices.id, iotDevice));
    expect((await admin.get(`/api/alerts/${closed.id}`)).json().iotDeviceId).toBeNull();
  });
});
