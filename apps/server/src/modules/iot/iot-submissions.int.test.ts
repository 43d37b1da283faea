// IoT readings coming in: validation, all-or-nothing batches, retries stored once, the alerts they open.
import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { alerts, auditLog, iotDeviceData } from '@/db/schema/index.js';
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

const readingsOf = (iotDeviceId: string) =>
  context.database.db.select().from(iotDeviceData).where(eq(iotDeviceData.iotDeviceId, iotDeviceId));
const alertsOf = (iotDeviceId: string) =>
  context.database.db.select().from(alerts).where(eq(alerts.iotDeviceId, iotDeviceId));
const countReadings = async () =>
  (await context.database.db.select({ n: sql<number>`count(*)::int` }).from(iotDeviceData))[0]!.n;

describe('IoT data records', () => {
  it('stores a batch through submit and through the generic create, with the caller as creator', async () => {
    const device = await createIotDevice(context, { supportedDataTypes: ['blood_pressure', 'battery'] });
    const viaSubmit = await admin.post('/api/iot-devices/data/submit', {
      iotDeviceId: device.id,
      dataType: 'blood_pressure',
      data: [
        { timestamp: T0, sys: 120, dias: 80 },
        { timestamp: T0 + 1000, sys: 125, dias: 82, id: 'bp-2' },
      ],
    });
    expect(viaSubmit.statusCode, viaSubmit.body).toBe(201);
    expect(viaSubmit.json()).toMatchObject({
      iotDeviceId: device.id,
      dataType: 'blood_pressure',
      count: 2,
      duplicates: 0,
      alertIds: [],
    });
    const viaCreate = await admin.post('/api/iot-devices/data', {
      iotDeviceId: device.id,
      dataType: 'battery',
      data: [{ timestamp: T0 + 2000, level: 91 }],
    });
    expect(viaCreate.statusCode, viaCreate.body).toBe(201);
    expect(viaCreate.json().count).toBe(1);

    const [firstId] = viaSubmit.json().ids;
    const read = await admin.get(`/api/iot-devices/data/${firstId}?relations=iotDevice,createdByUser`);
    expect(read.statusCode).toBe(200);
    expect(read.json()).toMatchObject({
      id: firstId,
      timestamp: T0,
      dataType: 'blood_pressure',
      data: { timestamp: T0, sys: 120, dias: 80 },
      iotDeviceId: device.id,
      createdByUserId: context.adminUserId,
      iotDevice: { id: device.id },
      createdByUser: { id: context.adminUserId },
    });
    expect(typeof read.json().createdAt).toBe('string');
    expect((await readingsOf(device.id)).length).toBe(3);
  });

  it('validates every reading type and names the bad reading', async () => {
    const device = await createIotDevice(context);
    const cases: [string, Record<string, unknown>, string][] = [
      ['battery', { timestamp: T0 }, 'body.data.1.level'],
      ['heart_rate', { timestamp: T0, rate: '80' }, 'body.data.1.rate'],
      ['temperature', { timestamp: T0, value: 37 }, 'body.data.1.unit'],
      ['pressure', { timestamp: T0, unit: 'hPa' }, 'body.data.1.value'],
      ['blood_pressure', { timestamp: T0, sys: 120 }, 'body.data.1.dias'],
      ['blood_pressure', { timestamp: T0, dias: 80 }, 'body.data.1.sys'],
      ['alert', { timestamp: T0 }, 'body.data.1.id'],
      ['alert', { timestamp: T0, id: 5 }, 'body.data.1.id'],
      ['battery', { level: 20 }, 'body.data.1.timestamp'],
      ['battery', { timestamp: 'now', level: 20 }, 'body.data.1.timestamp'],
    ];
    const good: Record<string, Record<string, unknown>> = {
      battery: { timestamp: T0, level: 50 },
      heart_rate: { timestamp: T0, rate: 70 },
      temperature: { timestamp: T0, value: 36.5, unit: 'C' },
      pressure: { timestamp: T0, value: 1000, unit: 'hPa' },
      blood_pressure: { timestamp: T0, sys: 110, dias: 70 },
      alert: { timestamp: T0, id: 'a-1' },
    };
    for (const [dataType, reading, path] of cases) {
      const response = await admin.post('/api/iot-devices/data/submit', {
        iotDeviceId: device.id,
        dataType,
        data: [good[dataType], reading],
      });
      expect(response.statusCode, `${dataType}: ${response.body}`).toBe(400);
      expect(response.json().issues.map((issue: { path: string }) => issue.path)).toContain(path);
    }
    const shapes: [Record<string, unknown>, string][] = [
      [{ dataType: 'battery', data: [good.battery] }, 'body.iotDeviceId'],
      [{ iotDeviceId: 'device-1', dataType: 'battery', data: [good.battery] }, 'body.iotDeviceId'],
      [{ iotDeviceId: device.id, data: [good.battery] }, 'body.dataType'],
      [{ iotDeviceId: device.id, dataType: 'glucose', data: [good.battery] }, 'body.dataType'],
      [{ iotDeviceId: device.id, dataType: 'battery', data: [] }, 'body.data'],
      [{ iotDeviceId: device.id, dataType: 'battery' }, 'body.data'],
    ];
    for (const [body, path] of shapes) {
      const response = await admin.post('/api/iot-devices/data', body);
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json().issues.map((issue: { path: string }) => issue.path)).toContain(path);
    }
    expect((await readingsOf(device.id)).length).toBe(0);
  });

  it('takes the largest batch the contract allows, and says how much a batch may weigh past it', async () => {
    const device = await createIotDevice(context, { supportedDataTypes: ['heart_rate'] });
    // 5,000 readings with ids of 255 characters: about 1.7 MB, past the 1 MiB other bodies may weigh.
    const data = Array.from({ length: 5000 }, (_, index) => ({
      timestamp: T0 + index,
      rate: 70,
      id: `${index}-`.padEnd(255, 'x'),
    }));
    const largest = await admin.post('/api/iot-devices/data/submit', {
      iotDeviceId: device.id,
      dataType: 'heart_rate',
      data,
    });
    expect(largest.statusCode, largest.body.slice(0, 300)).toBe(201);
    expect(largest.json().count).toBe(5000);
    const tooHeavy = await context.app.inject({
      method: 'POST',
      url: '/api/iot-devices/data/submit',
      headers: { authorization: `Bearer ${context.adminToken}`, 'content-type': 'application/json' },
      payload: JSON.stringify({
        iotDeviceId: device.id,
        dataType: 'heart_rate',
        data,
        padding: 'x'.repeat(4 << 20),
      }),
    });
    expect(tooHeavy.statusCode).toBe(413);
    expect(tooHeavy.json().message).toBe('Request body is too large: this request takes at most 4 MB');
  });

  it('stores a batch all or nothing', async () => {
    const device = await createIotDevice(context);
    const before = await countReadings();
    const data = [70, 71, 72, 'x', 74].map((rate, index) => ({ timestamp: T0 + index, rate }));
    const bad = await admin.post('/api/iot-devices/data/submit', {
      iotDeviceId: device.id,
      dataType: 'heart_rate',
      data,
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().issues).toEqual([expect.objectContaining({ path: 'body.data.3.rate' })]);

    // NUL inside an alert's free fields: refused for the whole batch.
    const withNul = await admin.post('/api/iot-devices/data/submit', {
      iotDeviceId: device.id,
      dataType: 'alert',
      data: [
        { timestamp: T0, id: 'fine' },
        { timestamp: T0 + 1, id: 'broken', note: 'a\u0000b' },
      ],
    });
    expect(withNul.statusCode).toBe(400);

    // A failure after the readings are inserted (the database refuses the alert they open) undoes them too.
    await context.database.rawQuery(`
      create function refuse_test_alert() returns trigger language plpgsql as $$
      begin
        if new.data->'reading'->>'id' = 'refused-by-database' then
          raise exception 'alert refused' using errcode = 'check_violation';
        end if;
        return new;
      end $$`);
    await context.database.rawQuery(
      'create trigger refuse_test_alert before insert on alerts for each row execute function refuse_test_alert()',
    );
    try {
      const refused = await admin.post('/api/iot-devices/data/submit', {
        iotDeviceId: device.id,
        dataType: 'alert',
        data: [
          // Two kinds of event: each opens its own alert, and the second's is refused.
          { timestamp: T0, id: 'accepted', type: 'fall' },
          { timestamp: T0 + 1, id: 'refused-by-database', type: 'sos' },
        ],
      });
      expect(refused.json()).toMatchObject({ statusCode: 400, message: 'Invalid value' });
    } finally {
      await context.database.rawQuery('drop trigger refuse_test_alert on alerts');
      await context.database.rawQuery('drop function refuse_test_alert()');
    }
    expect(await countReadings()).toBe(before);
    expect((await alertsOf(device.id)).length).toBe(0);
  });

  it('refuses readings from a clock ahead of the server’s, and alerts carrying more than 4 KB', async () => {
    const device = await createIotDevice(context, { supportedDataTypes: ['heart_rate', 'alert'] });
    const stored = await admin.post('/api/iot-devices/data/submit', {
      iotDeviceId: device.id,
      dataType: 'heart_rate',
      data: [{ timestamp: T0, rate: 70 }],
    });
    expect(stored.statusCode, stored.body).toBe(201);
    const before = await countReadings();
    for (const [dataType, reading, path, message] of [
      [
        'heart_rate',
        { timestamp: 99_999_999_999_999, rate: 70 },
        'body.data.1.timestamp',
        'Must not be later than now (5 minutes of clock difference are allowed)',
      ],
      [
        'alert',
        { timestamp: Date.now() + 3600_000, id: 'fall-late' },
        'body.data.1.timestamp',
        'Must not be later than now (5 minutes of clock difference are allowed)',
      ],
      [
        'alert',
        { timestamp: T0 + 5, id: 'big', blob: 'A'.repeat(900_000) },
        'body.data.1',
        'At most 4 KB of fields',
      ],
    ] as const) {
      const refused = await admin.post('/api/iot-devices/data/submit', {
        iotDeviceId: device.id,
        dataType,
        data: [{ timestamp: T0 + 1, ...(dataType === 'alert' ? { id: 'fine' } : { rate: 71 }) }, reading],
      });
      expect(refused.statusCode, refused.body).toBe(400);
      expect(refused.json().issues).toEqual([{ path, message }]);
    }
    expect(await countReadings()).toBe(before);
    expect((await alertsOf(device.id)).length).toBe(0);
    const latest = await admin.get(`/api/iot-devices/${device.id}/last-data-submission`);
    expect(latest.json()).toMatchObject({ timestamp: T0 });
  });

  it('answers 404 for an unknown device and 400 for a data type the device does not send', async () => {
    const reading = { timestamp: T0, level: 40 };
    const unknown = await admin.post('/api/iot-devices/data/submit', {
      iotDeviceId: randomUUID(),
      dataType: 'battery',
      data: [reading],
    });
    expect(unknown.statusCode).toBe(404);
    const thermometer = await createIotDevice(context, { supportedDataTypes: ['temperature'] });
    const unsupported = await admin.post('/api/iot-devices/data/submit', {
      iotDeviceId: thermometer.id,
      dataType: 'battery',
      data: [reading],
    });
    expect(unsupported.statusCode).toBe(400);
    expect(unsupported.json().issues[0].path).toBe('dataType');
    expect((await readingsOf(thermometer.id)).length).toBe(0);
    const anyType = await createIotDevice(context, { supportedDataTypes: [] });
    expect(
      (
        await admin.post('/api/iot-devices/data/submit', {
          iotDeviceId: anyType.id,
          dataType: 'battery',
          data: [reading],
        })
      ).statusCode,
    ).toBe(201);
  });

  it('stores a retried identical submission once', async () => {
    const device = await createIotDevice(context);
    const body = {
      iotDeviceId: device.id,
      dataType: 'heart_rate',
      data: [
        { timestamp: T0, rate: 72 },
        { timestamp: T0 + 1000, rate: 150 },
      ],
    };
    const first = await admin.post('/api/iot-devices/data/submit', body);
    expect(first.statusCode).toBe(201);
    expect(first.json().alertIds).toHaveLength(1);
    const retry = await context.app.inject({
      method: 'POST',
      url: '/api/iot-devices/data',
      headers: { authorization: `Bearer ${context.adminToken}`, 'idempotency-key': 'retry-1' },
      // Same readings, keys in another order: still the same readings.
      payload: { ...body, data: [{ rate: 72, timestamp: T0 }, body.data[1]] },
    });
    expect(retry.statusCode).toBe(201);
    expect(retry.json()).toMatchObject({ count: 2, duplicates: 2, ids: first.json().ids, alertIds: [] });
    expect((await readingsOf(device.id)).length).toBe(2);
    expect((await alertsOf(device.id)).length).toBe(1);

    // Overlapping batch: only the new reading is stored.
    const overlap = await admin.post('/api/iot-devices/data/submit', {
      ...body,
      data: [...body.data, { timestamp: T0 + 2000, rate: 73 }],
    });
    expect(overlap.json()).toMatchObject({ count: 3, duplicates: 2 });
    expect(overlap.json().ids.slice(0, 2)).toEqual(first.json().ids);
    expect((await readingsOf(device.id)).length).toBe(3);

    // A different reading at the same time is a different record.
    const other = await admin.post('/api/iot-devices/data/submit', {
      ...body,
      data: [{ timestamp: T0, rate: 99 }],
    });
    expect(other.json().duplicates).toBe(0);

    // Concurrent retries of one submission (its heart rate is out of bounds, but this device's
    // out-of-bounds heart-rate alert, above 130 too, is still open, so no second one opens).
    const burst = { ...body, data: [{ timestamp: T0 + 5000, rate: 145 }] };
    const results = await Promise.all(
      Array.from({ length: 5 }, () => admin.post('/api/iot-devices/data/submit', burst)),
    );
    expect(results.map((result) => result.statusCode)).toEqual([201, 201, 201, 201, 201]);
    expect(new Set(results.map((result) => result.json().ids[0])).size).toBe(1);
    expect(results.reduce((sum, result) => sum + result.json().alertIds.length, 0)).toBe(0);
    expect((await readingsOf(device.id)).length).toBe(5);
    expect((await alertsOf(device.id)).length).toBe(1);
  });

  it('opens alerts for alert readings and heart rates outside 40–130', async () => {
    const patient = await createUser(context);
    const device = await createIotDevice(context, { assignedUser: patient.id });
    const inRange = await admin.post('/api/iot-devices/data/submit', {
      iotDeviceId: device.id,
      dataType: 'heart_rate',
      data: [40, 90, 130].map((rate, index) => ({ timestamp: T0 + index, rate })),
    });
    expect(inRange.json().alertIds).toEqual([]);

    const outOfRange = await admin.post('/api/iot-devices/data/submit', {
      iotDeviceId: device.id,
      dataType: 'heart_rate',
      data: [35, 80, 141].map((rate, index) => ({ timestamp: T0 + 100 + index, rate })),
    });
    expect(outOfRange.json().alertIds).toHaveLength(1);
    const heartAlert = await admin.get(`/api/alerts/${outOfRange.json().alertIds[0]}`);
    expect(heartAlert.json()).toMatchObject({
      isActive: true,
      timestamp: T0 + 100,
      iotDeviceId: device.id,
      userId: patient.id,
      createdByUserId: context.adminUserId,
      closedByUserId: null,
      closingData: null,
      severity: 'warning',
      data: {
        reason: 'out_of_bounds',
        dataType: 'heart_rate',
        count: 2,
        fields: { rate: { min: 40, max: 130, lowest: 35, highest: 141 } },
        readingIds: [outOfRange.json().ids[0], outOfRange.json().ids[2]],
      },
    });

    const alertReadings = await admin.post('/api/iot-devices/data/submit', {
      iotDeviceId: device.id,
      dataType: 'alert',
      data: [
        { timestamp: T0 + 200, id: 'fall-1', kind: 'fall' },
        { timestamp: T0 + 300, id: 'sos-1', kind: 'sos' },
      ],
    });
    expect(alertReadings.json().alertIds).toHaveLength(2);
    const opened = await admin.get(`/api/alerts?filters=iotDevice.id~${device.id}&sort=timestamp:asc`);
    expect(opened.json().total).toBe(3);
    expect(opened.json().items[2].data).toMatchObject({
      reason: 'alert_reading',
      readingId: alertReadings.json().ids[1],
      reading: { id: 'sos-1', kind: 'sos' },
    });

    // A device without an assigned user opens alerts that concern nobody yet.
    const loose = await createIotDevice(context);
    const unassigned = await admin.post('/api/iot-devices/data/submit', {
      iotDeviceId: loose.id,
      dataType: 'alert',
      data: [{ timestamp: T0, id: 'x' }],
    });
    expect((await admin.get(`/api/alerts/${unassigned.json().alertIds[0]}`)).json().userId).toBeNull();
  });

  it('keeps one alert open for a rate that stays out of bounds, and tells a new side of a bound or a worse one', async () => {
    const device = await createIotDevice(context);
    const rates = (from: number, values: number[]) =>
      admin.post('/api/iot-devices/data/submit', {
        iotDeviceId: device.id,
        dataType: 'heart_rate',
        data: values.map((rate, index) => ({ timestamp: T0 + from + index, rate })),
      });
    const titles = async () =>
      (await admin.get(`/api/alerts?filters=iotDevice.id~${device.id}&sort=timestamp:asc`))
        .json()
        .items.map(
          (alert: { severity: string; data: { title: string } }) => `${alert.severity}: ${alert.data.title}`,
        );

    expect((await rates(0, [31])).json().alertIds).toHaveLength(1);
    // Still low, no worse: the open alert tells it.
    expect((await rates(10, [33, 35])).json().alertIds).toEqual([]);
    // The other side of the bounds: not what the open alert says (it said "31 /min, below 40").
    expect((await rates(20, [150])).json().alertIds).toHaveLength(1);
    expect((await rates(30, [145])).json().alertIds).toEqual([]);
    // Past a fifth over the bound the same side grows critical: told anew.
    expect((await rates(40, [170])).json().alertIds).toHaveLength(1);
    expect(await titles()).toEqual([
      'critical: Heart rate 31 /min, below 40',
      'warning: Heart rate 150 /min, above 130',
      'critical: Heart rate 170 /min, above 130',
    ]);
  });

  it('audits submissions and the alerts they open', async () => {
    const device = await createIotDevice(context);
    const submitted = await admin.post('/api/iot-devices/data/submit', {
      iotDeviceId: device.id,
      dataType: 'alert',
      data: [{ timestamp: T0, id: 'audit-1' }],
    });
    const rows = await context.database.db.select().from(auditLog)
      .where(sql`${auditLog.resource} in ('iot-device-data', 'alerts') and ${auditLog.changes}->>'iotDeviceId' = ${device.id}
        or ${auditLog.recordId} = ${submitted.json().alertIds[0]}`);
    expect(rows.map((row) => `${row.action} ${row.resource}`).sort()).toEqual([
      'create alerts',
      'create iot-device-data',
    ]);
    const submission = rows.find((row) => row.resource === 'iot-device-data')!;
    expect(submission.actorUserId).toBe(context.adminUserId);
    expect(submission.changes).toMatchObject({
      dataType: 'alert',
      count: 1,
      stored: 1,
      ids: submitted.json().ids,
    });
  });

  it('audits a batch that opens no alert alike: who, from where, how many, which were stored', async () => {
    const device = await createIotDevice(context);
    const body = {
      iotDeviceId: device.id,
      dataType: 'heart_rate',
      data: [
        { timestamp: T0 + 2000, rate: 71 },
        { timestamp: T0, rate: 72 },
      ],
    };
    const first = await admin.post('/api/iot-devices/data/submit', body);
    expect(first.statusCode, first.body).toBe(201);
    const retry = await admin.post('/api/iot-devices/data/submit', body);
    expect(retry.json()).toMatchObject({ count: 2, duplicates: 2, alertIds: [] });
    const many = await admin.post('/api/iot-devices/data/submit', {
      ...body,
      data: Array.from({ length: 101 }, (_, index) => ({ timestamp: T0 + 10_000 + index, rate: 70 })),
    });
    expect(many.json()).toMatchObject({ count: 101, duplicates: 0 });
    const rows = await context.database.db
      .select()
      .from(auditLog)
      .where(
        sql`${auditLog.resource} = 'iot-device-data' and ${auditLog.changes}->>'iotDeviceId' = ${device.id}`,
      )
      .orderBy(auditLog.at, auditLog.id);
    expect(rows.map((row) => row.changes)).toEqual([
      {
        iotDeviceId: device.id,
        dataType: 'heart_rate',
        count: 2,
        stored: 2,
        ids: [...first.json().ids].sort(),
      },
      { iotDeviceId: device.id, dataType: 'heart_rate', count: 2, stored: 0, ids: [] },
      { iotDeviceId: device.id, dataType: 'heart_rate', count: 101, stored: 101 },
    ]);
    for (const row of rows) {
      expect(row).toMatchObject({ action: 'create', recordId: null, actorUserId: context.adminUserId });
      expect(row.actorSubject).toEqual(expect.any(String));
      expect(row.ip).toBe('127.0.0.1');
    }
  });

  it('decides a batch again when its device changes between the read and the write', async () => {
    const device = await createIotDevice(context, { supportedDataTypes: ['heart_rate', 'battery'] });
    const db = context.database.db;
    const execute = db.execute.bind(db);
    // The write finds the device changed: it now sends batteries only.
    const changingFirst = async (query: Parameters<typeof execute>[0]) => {
      await execute(sql`update iot_devices set supported_data_types = '{battery}' where id = ${device.id}`);
      return execute(query);
    };
    const spy = vi.spyOn(db, 'execute').mockImplementationOnce(changingFirst as unknown as typeof db.execute);
    try {
      const refused = await admin.post('/api/iot-devices/data/submit', {
        iotDeviceId: device.id,
        dataType: 'heart_rate',
        data: [{ timestamp: T0, rate: 72 }],
      });
      expect(refused.statusCode, refused.body).toBe(400);
      expect(refused.json().issues).toEqual([
        { path: 'dataType', message: "Not among the device's supported data types: battery" },
      ]);
    } finally {
      spy.mockRestore();
    }
    expect(await readingsOf(device.id)).toEqual([]);
  });
});
