// How alerts open (by hand, by `alert` readings, by readings outside configured bounds) with their severity,
// and how they are acknowledged and closed. Bounds here come from IOT_ALERT_BOUNDS over the defaults.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alerts, auditLog } from '@/db/schema/index.js';
import { createIotDevice, createUser } from '@/test/factories.js';
import { api, createTestContext, type TestContext } from '@/test/harness.js';

let context: TestContext;
let admin: ReturnType<typeof api>;
beforeAll(async () => {
  context = await createTestContext({
    // Heart rate narrowed, blood pressure's diastolic bound switched off; the rest keep their defaults.
    IOT_ALERT_BOUNDS: 'heart_rate.rate=50..100, blood_pressure.dias=off',
  });
  admin = api(context);
});
afterAll(async () => {
  await context?.close();
});

const T0 = 1_750_000_000_000;

async function submit(iotDeviceId: string, dataType: string, data: Record<string, unknown>[]) {
  const response = await admin.post('/api/iot-devices/data/submit', { iotDeviceId, dataType, data });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<{ ids: string[]; alertIds: string[] }>();
}

const alertsOf = (iotDeviceId: string) =>
  context.database.db.select().from(alerts).where(eq(alerts.iotDeviceId, iotDeviceId));

describe('alerts opening', () => {
  it('opens a manual alert with a severity (warning by default)', async () => {
    const patient = await createUser(context);
    const plain = await admin.post('/api/alerts', { data: { message: 'Call back' }, user: patient.id });
    expect(plain.json()).toMatchObject({ severity: 'warning', isActive: true, acknowledgedAt: null });
    const urgent = await admin.post('/api/alerts', { data: { message: 'Fall' }, severity: 'critical' });
    expect(urgent.json().severity).toBe('critical');
    const bad = await admin.post('/api/alerts', { data: {}, severity: 'apocalyptic' });
    expect(bad.statusCode).toBe(400);
    const listed = await admin.get(`/api/alerts?filters=severity~critical&filters=id~${urgent.json().id}`);
    expect(listed.json().total).toBe(1);
  });

  it('opens one alert per kind of event and severity in a batch, critical unless the reading names its severity', async () => {
    const device = await createIotDevice(context);
    const result = await submit(device.id, 'alert', [
      { timestamp: T0, id: 'fall-1', type: 'fall_detected' },
      { timestamp: T0 + 1, id: 'low-signal', type: 'low_signal', severity: 'info' },
      { timestamp: T0 + 2, id: 'odd', type: 'sos', severity: 'whatever' },
      // The same event again (a burst, or a device made to flood): counted on the first one's alert.
      { timestamp: T0 + 3, id: 'fall-2', type: 'fall_detected' },
      { timestamp: T0 + 4, id: 'fall-3', kind: 'Fall_Detected' },
    ]);
    expect(result.alertIds).toHaveLength(3);
    const opened = await alertsOf(device.id);
    expect(opened.map((alert) => [alert.data.readingId, alert.severity, alert.data.count]).sort()).toEqual(
      [
        [result.ids[0], 'critical', 3],
        [result.ids[1], 'info', 1],
        [result.ids[2], 'critical', 1],
      ].sort(),
    );
  });

  it('opens no second alert for an event sent again, nor for the same kind before anyone acknowledged it', async () => {
    const device = await createIotDevice(context);
    const sos = (id: string, timestamp: number) =>
      submit(device.id, 'alert', [{ timestamp, id, type: 'sos' }]);
    const [first] = (await sos('sos-777', T0)).alertIds;
    expect(first).toBeDefined();
    // The device retries its event with a new time; another press before anyone has looked.
    expect((await sos('sos-777', T0 + 5)).alertIds).toEqual([]);
    expect((await sos('sos-778', T0 + 10)).alertIds).toEqual([]);
    // Another kind of event is news.
    expect(
      (await submit(device.id, 'alert', [{ timestamp: T0 + 11, id: 'f-1', type: 'fall' }])).alertIds,
    ).toHaveLength(1);
    // Once someone has taken the alarm up, a new press is news again; the old event, even closed, is not.
    expect((await api(context).post(`/api/alerts/${first}/acknowledge`, {})).statusCode).toBe(200);
    expect((await sos('sos-779', T0 + 20)).alertIds).toHaveLength(1);
    expect(
      (await api(context).post(`/api/alerts/${first}/close`, { closingData: { note: 'Visited' } }))
        .statusCode,
    ).toBe(200);
    expect((await sos('sos-777', T0 + 30)).alertIds).toEqual([]);
    // A thousand alarms in one batch: one alert that counts them.
    const flood = await submit(
      device.id,
      'alert',
      Array.from({ length: 1000 }, (_, index) => ({
        timestamp: T0 + 100 + index,
        id: `flood-${index}`,
        type: 'panic_button',
      })),
    );
    expect(flood.alertIds).toHaveLength(1);
    expect((await alertsOf(device.id)).find((alert) => alert.id === flood.alertIds[0])?.data.count).toBe(
      1000,
    );
  });

  it('opens an alert for readings outside the configured bounds, one per device and type while open', async () => {
    const patient = await createUser(context);
    const device = await createIotDevice(context, { assignedUser: patient.id });
    // 45 and 105 are outside the configured 50..100 (not the default 40..130); 110 is within a fifth of it.
    expect((await submit(device.id, 'heart_rate', [{ timestamp: T0, rate: 45 }])).alertIds).toHaveLength(1);
    // While it is open, further readings below the same bound add no alert; one above the other bound does.
    expect((await submit(device.id, 'heart_rate', [{ timestamp: T0 + 1, rate: 47 }])).alertIds).toEqual([]);
    expect((await submit(device.id, 'heart_rate', [{ timestamp: T0 + 2, rate: 110 }])).alertIds).toHaveLength(
      1,
    );
    // Another type opens its own; the switched-off diastolic bound opens nothing, systolic still does.
    expect(
      (await submit(device.id, 'blood_pressure', [{ timestamp: T0, sys: 120, dias: 10 }])).alertIds,
    ).toEqual([]);
    const pressure = await submit(device.id, 'blood_pressure', [{ timestamp: T0 + 1, sys: 250, dias: 10 }]);
    expect(pressure.alertIds).toHaveLength(1);
    const heart = (await alertsOf(device.id)).find(
      (alert) => alert.data.dataType === 'heart_rate' && alert.timestamp === T0,
    );
    expect(heart).toMatchObject({
      severity: 'warning',
      userId: patient.id,
      data: { reason: 'out_of_bounds', count: 1, fields: { rate: { min: 50, max: 100, lowest: 45 } } },
    });
    const [bp] = (await alertsOf(device.id)).filter((alert) => alert.data.dataType === 'blood_pressure');
    expect(bp).toMatchObject({ severity: 'critical', data: { fields: { sys: { max: 180, highest: 250 } } } });

    // Once closed, the next reading outside the bounds opens a new one.
    await admin.post(`/api/alerts/${heart!.id}/close`, { closingData: { note: 'Called, resting now' } });
    expect((await submit(device.id, 'heart_rate', [{ timestamp: T0 + 2, rate: 30 }])).alertIds).toHaveLength(
      1,
    );
  });

  it('keeps the default bounds for types the setting leaves alone, in Celsius whatever the unit', async () => {
    const device = await createIotDevice(context);
    // 100.4 °F is 38 °C: inside 35..39.5; 104 °F is 40 °C: outside.
    expect(
      (await submit(device.id, 'temperature', [{ timestamp: T0, value: 100.4, unit: '°F' }])).alertIds,
    ).toEqual([]);
    expect(
      (await submit(device.id, 'temperature', [{ timestamp: T0 + 1, value: 104, unit: 'F' }])).alertIds,
    ).toHaveLength(1);
    // A low battery (default: below 10 %).
    expect((await submit(device.id, 'battery', [{ timestamp: T0, level: 4 }])).alertIds).toHaveLength(1);
    expect(
      (await submit(device.id, 'pressure', [{ timestamp: T0, value: 1, unit: 'hPa' }])).alertIds,
    ).toEqual([]);
  });
});

describe('alert titles', () => {
  it('gives each alert opened by readings a readable title, from the shared alertTitle', async () => {
    const device = await createIotDevice(context);
    await submit(device.id, 'heart_rate', [{ timestamp: T0, rate: 31 }]);
    await submit(device.id, 'alert', [{ timestamp: T0 + 1, id: 'evt-1', type: 'fall_detected' }]);
    await submit(device.id, 'temperature', [{ timestamp: T0 + 2, value: 40.2, unit: 'C' }]);
    const titles = (await alertsOf(device.id)).map((alert) => alert.data.title).sort();
    // Bounds here: heart rate 50..100.
    expect(titles).toEqual([
      'Fall detected',
      'Heart rate 31 /min, below 50',
      'Temperature 40.2 °C, above 39.5',
    ]);
    const listed = await admin.get(`/api/alerts?filters=iotDevice.id~${device.id}`);
    expect(
      listed
        .json()
        .items.map((item: { data: { title: string } }) => item.data.title)
        .sort(),
    ).toEqual(titles);
  });
});

describe('acknowledging and closing', () => {
  it('acknowledges an open alert once, then closes it with closingData by the caller', async () => {
    const created = (await admin.post('/api/alerts', { data: { message: 'Check' } })).json<{ id: string }>();
    const acknowledged = await admin.post(`/api/alerts/${created.id}/acknowledge`);
    expect(acknowledged.statusCode, acknowledged.body).toBe(200);
    expect(acknowledged.json()).toMatchObject({
      isActive: true,
      acknowledgedByUserId: context.adminUserId,
      closedByUserId: null,
    });
    expect(acknowledged.json().acknowledgedAt).toEqual(expect.any(String));
    expect((await admin.post(`/api/alerts/${created.id}/acknowledge`)).statusCode).toBe(409);

    // closingData is required and must be an object.
    expect((await admin.post(`/api/alerts/${created.id}/close`, {})).statusCode).toBe(400);
    expect((await admin.post(`/api/alerts/${created.id}/close`, { closingData: 'done' })).statusCode).toBe(
      400,
    );
    // A note longer than a description is refused with what to fix, and leaves the alert open.
    const long = await admin.post(`/api/alerts/${created.id}/close`, {
      closingData: { note: 'x'.repeat(2001) },
    });
    expect(long.statusCode).toBe(400);
    expect(long.json().issues).toEqual([
      { path: 'body.closingData.note', message: 'Note must be at most 2000 characters.' },
    ]);
    expect((await admin.get(`/api/alerts/${created.id}`)).json().isActive).toBe(true);
    const closed = await admin.post(`/api/alerts/${created.id}/close`, {
      closingData: { note: 'Visited' },
    });
    expect(closed.statusCode, closed.body).toBe(200);
    expect(closed.json()).toMatchObject({
      isActive: false,
      closingData: { note: 'Visited' },
      closedByUserId: context.adminUserId,
      acknowledgedByUserId: context.adminUserId,
    });
    expect(closed.json().closedAt).toEqual(expect.any(String));

    // A closed alert is neither closed again nor acknowledged.
    expect(
      (await admin.post(`/api/alerts/${created.id}/close`, { closingData: { note: 'again' } })).statusCode,
    ).toBe(409);
    const late = await admin.post(`/api/alerts/${created.id}/acknowledge`);
    expect(late.statusCode).toBe(409);
    expect(late.json()).toEqual({ statusCode: 409, error: 'Conflict', message: 'This alert is closed' });

    // Who acknowledged and who closed it are embedded by name.
    const read = await admin.get(`/api/alerts/${created.id}?relations=acknowledgedByUser,closedByUser`);
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json().acknowledgedByUser).toMatchObject({ id: context.adminUserId });
    expect(read.json().closedByUser).toMatchObject({ id: context.adminUserId });

    // Both steps are audited.
    const rows = await context.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.resource, 'alerts'), eq(auditLog.recordId, created.id)));
    expect(rows.map((row) => row.action).sort()).toEqual(['acknowledge', 'close', 'create']);

    // Reopening through the resource clears the closing and the acknowledgement: someone takes it up anew.
    const reopened = await admin.patch(`/api/alerts/${created.id}`, { isActive: true });
    expect(reopened.json()).toMatchObject({
      isActive: true,
      closedByUserId: null,
      closedAt: null,
      acknowledgedByUserId: null,
      acknowledgedAt: null,
    });
    expect((await admin.post(`/api/alerts/${created.id}/acknowledge`)).statusCode).toBe(200);
  });

  it('answers 404 for an unknown alert, 403 to a non-admin and 401 without a token', async () => {
    const missing = '01890000-0000-7000-8000-000000000000';
    expect((await admin.post(`/api/alerts/${missing}/acknowledge`)).statusCode).toBe(404);
    expect((await admin.post(`/api/alerts/${missing}/close`, { closingData: {} })).statusCode).toBe(404);
    const created = (await admin.post('/api/alerts', { data: {} })).json<{ id: string }>();
    const nurse = api(context, context.userToken);
    expect((await nurse.post(`/api/alerts/${created.id}/acknowledge`)).statusCode).toBe(403);
    expect((await nurse.post(`/api/alerts/${created.id}/close`, { closingData: {} })).statusCode).toBe(403);
    const anonymous = await context.app.inject({
      method: 'POST',
      url: `/api/alerts/${created.id}/acknowledge`,
    });
    expect(anonymous.statusCode).toBe(401);
  });
});
