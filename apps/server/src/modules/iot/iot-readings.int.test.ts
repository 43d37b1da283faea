// IoT readings read back: lists, the latest reading of a device, a chart's summary of a period
// (GET /api/iot-devices/{id}/readings-summary), deletes, and what deletes of others do.
import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReadingsSummary } from '@careplane/shared/iot/iot.contract';
import { auditLog } from '@/db/schema/index.js';
import { createIotDevice, createUser } from '@/test/factories.js';
import { api, createTestContext, type TestContext } from '@/test/harness.js';
import { expectNoSecret } from './iot.test-helpers.js';

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

describe('IoT data records', () => {
  it('lists readings with filters, a time range, sorts, relations and pages', async () => {
    const other = await createUser(context, { roles: ['admin'] });
    const device = await createIotDevice(context);
    const second = await createIotDevice(context);
    const submit = (token: string, iotDeviceId: string, dataType: string, data: unknown[]) =>
      api(context, token).post('/api/iot-devices/data/submit', { iotDeviceId, dataType, data });
    await submit(context.adminToken, device.id, 'battery', [
      { timestamp: T0 + 10, level: 90 },
      { timestamp: T0 + 20, level: 80 },
    ]);
    await submit(other.token, device.id, 'heart_rate', [{ timestamp: T0 + 30, rate: 60 }]);
    await submit(other.token, second.id, 'battery', [{ timestamp: T0 + 40, level: 70 }]);

    const list = async (query: string) => {
      const response = await admin.get(`/api/iot-devices/data?${query}`);
      expect(response.statusCode, response.body).toBe(200);
      return response.json<{ items: { id: string; timestamp: number }[]; total: number }>();
    };
    const times = async (query: string) => (await list(query)).items.map((item) => item.timestamp - T0);
    const both = `filters=iotDevice.id~${device.id},${second.id}`;
    expect(await times(both)).toEqual([40, 30, 20, 10]);
    expect(await times(`${both}&sort=timestamp:asc`)).toEqual([10, 20, 30, 40]);
    expect(await times(`filters=iotDevice.id~${device.id}&sort=timestamp:asc`)).toEqual([10, 20, 30]);
    expect(await times(`${both}&filters=dataType~battery&sort=timestamp:asc`)).toEqual([10, 20, 40]);
    expect(await times(`${both}&filters=dataType~battery,heart_rate&sort=timestamp:asc`)).toEqual([
      10, 20, 30, 40,
    ]);
    expect(await times(`${both}&filters=createdByUser.id~${other.id}&sort=timestamp:asc`)).toEqual([30, 40]);
    expect(
      await times(`${both}&filters=createdByUser.id~${other.id},${context.adminUserId}&sort=timestamp:asc`),
    ).toEqual([10, 20, 30, 40]);
    expect(await times(`${both}&from=${T0 + 20}&to=${T0 + 30}&sort=timestamp:asc`)).toEqual([20, 30]);
    expect(await times(`${both}&from=${T0 + 35}`)).toEqual([40]);
    expect(await times(`${both}&to=${T0 + 10}`)).toEqual([10]);
    expect(await times(`${both}&sort=dataType:desc&sort=timestamp:asc`)).toEqual([30, 10, 20, 40]);

    const all = await list(`${both}&sort=timestamp:asc`);
    const one = await list(`filters=id~${all.items[1]!.id}`);
    expect(one.items.map((item) => item.id)).toEqual([all.items[1]!.id]);
    const like = await list(`filtersLike=id~${all.items[2]!.id.slice(-12)}`);
    expect(like.items.map((item) => item.id)).toContain(all.items[2]!.id);

    const page = await admin.get(
      `/api/iot-devices/data?${both}&sort=timestamp:asc&limit=2&offset=2&relations=iotDevice,createdByUser`,
    );
    expect(page.json()).toMatchObject({ total: 4, limit: 2, offset: 2 });
    expect(page.json().items.map((item: { timestamp: number }) => item.timestamp - T0)).toEqual([30, 40]);
    expect(page.json().items[1]).toMatchObject({
      iotDevice: { id: second.id },
      createdByUser: { id: other.id },
    });
    expectNoSecret(page.body);

    for (const query of [
      'filters=data~x',
      'filters=dataType~glucose',
      'filters=iotDevice.id~abc',
      'filters=createdByUser.id~abc,def',
      'filters=timestamp~1',
      'from=yesterday',
      'sort=data:asc',
      'sort=timestamp:up',
      'relations=device',
      'relations=iotDevice.owner',
    ]) {
      const response = await admin.get(`/api/iot-devices/data?${query}`);
      expect(response.statusCode, `${query}: ${response.body}`).toBe(400);
    }
  });

  it('answers the latest reading of a device, optionally of one type', async () => {
    const device = await createIotDevice(context);
    const url = `/api/iot-devices/${device.id}/last-data-submission`;
    const none = await admin.get(url);
    expect(none.statusCode).toBe(200);
    expect(none.json()).toBeNull();

    await admin.post('/api/iot-devices/data/submit', {
      iotDeviceId: device.id,
      dataType: 'battery',
      data: [
        { timestamp: T0 + 500, level: 60 },
        { timestamp: T0 + 100, level: 70 },
      ],
    });
    await admin.post('/api/iot-devices/data/submit', {
      iotDeviceId: device.id,
      dataType: 'heart_rate',
      data: [{ timestamp: T0 + 300, rate: 66 }],
    });
    const latest = await admin.get(url);
    expect(latest.json()).toMatchObject({
      dataType: 'battery',
      timestamp: T0 + 500,
      data: { level: 60 },
      iotDeviceId: device.id,
    });
    expect((await admin.get(`${url}?dataType=heart_rate`)).json()).toMatchObject({ data: { rate: 66 } });
    expect((await admin.get(`${url}?dataType=temperature`)).json()).toBeNull();
    expect((await admin.get(`${url}?dataType=glucose`)).statusCode).toBe(400);
    expect((await admin.get(`/api/iot-devices/${randomUUID()}/last-data-submission`)).statusCode).toBe(404);
    expect((await admin.get('/api/iot-devices/nope/last-data-submission')).statusCode).toBe(400);
  });

  it('keeps readings unchanged and deletes them one by one', async () => {
    const device = await createIotDevice(context);
    const submitted = await admin.post('/api/iot-devices/data/submit', {
      iotDeviceId: device.id,
      dataType: 'battery',
      data: [{ timestamp: T0, level: 10 }],
    });
    const id = submitted.json().ids[0];
    const patch = await admin.patch(`/api/iot-devices/data/${id}`, { data: { level: 99 } });
    expect(patch.statusCode).toBe(405);
    expect(patch.json()).toMatchObject({ statusCode: 405 });
    expect((await admin.get(`/api/iot-devices/data/${id}`)).json().data.level).toBe(10);
    expect((await admin.delete(`/api/iot-devices/data/${id}`)).statusCode).toBe(204);
    expect((await admin.get(`/api/iot-devices/data/${id}`)).statusCode).toBe(404);
    const audited = await context.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.resource, 'iot-device-data'), eq(auditLog.recordId, id)));
    expect(audited.map((row) => row.action)).toEqual(['delete']);
  });
});

describe('delete rules', () => {
  it('deleting an IoT device keeps its readings and alerts without the device', async () => {
    const device = await createIotDevice(context);
    const submitted = await admin.post('/api/iot-devices/data/submit', {
      iotDeviceId: device.id,
      dataType: 'alert',
      data: [{ timestamp: T0, id: 'gone-1' }],
    });
    expect((await admin.delete(`/api/iot-devices/${device.id}`)).statusCode).toBe(204);
    const reading = await admin.get(`/api/iot-devices/data/${submitted.json().ids[0]}?relations=iotDevice`);
    expect(reading.json()).toMatchObject({ iotDeviceId: null, iotDevice: null });
    const alert = await admin.get(`/api/alerts/${submitted.json().alertIds[0]}`);
    expect(alert.json()).toMatchObject({ iotDeviceId: null, isActive: true });
  });

  it('deleting a user deletes the readings and alerts it created and clears assignedUser', async () => {
    const reporter = await createUser(context, { roles: ['admin'] });
    const patient = await createUser(context);
    const device = await createIotDevice(context, { assignedUser: patient.id });
    const kept = await admin.post('/api/iot-devices/data/submit', {
      iotDeviceId: device.id,
      dataType: 'battery',
      data: [{ timestamp: T0, level: 50 }],
    });
    const byReporter = await api(context, reporter.token).post('/api/iot-devices/data/submit', {
      iotDeviceId: device.id,
      dataType: 'alert',
      data: [{ timestamp: T0, id: 'r-1' }],
    });
    expect(byReporter.statusCode).toBe(201);
    const manual = await api(context, reporter.token).post('/api/alerts', { data: { note: 'manual' } });
    expect(manual.statusCode).toBe(201);

    expect((await admin.delete(`/api/users/${reporter.id}`)).statusCode).toBe(204);
    expect((await admin.get(`/api/iot-devices/data/${byReporter.json().ids[0]}`)).statusCode).toBe(404);
    expect((await admin.get(`/api/alerts/${byReporter.json().alertIds[0]}`)).statusCode).toBe(404);
    expect((await admin.get(`/api/alerts/${manual.json().id}`)).statusCode).toBe(404);
    expect((await admin.get(`/api/iot-devices/data/${kept.json().ids[0]}`)).statusCode).toBe(200);

    expect((await admin.delete(`/api/users/${patient.id}`)).statusCode).toBe(204);
    expect((await admin.get(`/api/iot-devices/${device.id}`)).json().assignedUserId).toBeNull();
  });
});
const MINUTE = 60_000;

const summaryOf = (deviceId: string, query: string) =>
  admin.get(`/api/iot-devices/${deviceId}/readings-summary?${query}`);

describe('readings summary', () => {
  it('sums up every reading of a type per equal period: count, lowest, mean and highest of each number', async () => {
    const device = await createIotDevice(context);
    const other = await createIotDevice(context);
    const submit = async (iotDeviceId: string, dataType: string, data: unknown[]) => {
      const response = await admin.post('/api/iot-devices/data/submit', { iotDeviceId, dataType, data });
      expect(response.statusCode, response.body).toBe(201);
      return response;
    };
    // Ten minutes cut in five periods of two: readings in the first, third and last period (its last moment
    // included), none in the second and fourth.
    expect(
      (
        await submit(device.id, 'blood_pressure', [
          { timestamp: T0, sys: 120, dias: 80 },
          { timestamp: T0 + MINUTE, sys: 130, dias: 90, id: 'r-2' },
          { timestamp: T0 + 4 * MINUTE + 5, sys: 150, dias: 95 },
          { timestamp: T0 + 10 * MINUTE, sys: 110, dias: 70 },
          // Outside the period, another type, another device: none of them counts.
          { timestamp: T0 + 10 * MINUTE + 1, sys: 200, dias: 100 },
        ])
      ).statusCode,
    ).toBe(201);
    expect((await submit(device.id, 'heart_rate', [{ timestamp: T0 + 1, rate: 70 }])).statusCode).toBe(201);
    expect(
      (await submit(other.id, 'blood_pressure', [{ timestamp: T0 + 2, sys: 1, dias: 1 }])).statusCode,
    ).toBe(201);

    const response = await summaryOf(
      device.id,
      `dataType=blood_pressure&from=${T0}&to=${T0 + 10 * MINUTE}&buckets=5`,
    );
    expect(response.statusCode, response.body).toBe(200);
    const summary = response.json<ReadingsSummary>();
    expect(summary).toMatchObject({ dataType: 'blood_pressure', from: T0, to: T0 + 10 * MINUTE, total: 4 });
    // 600,001 moments (both ends included) in five periods.
    expect(summary.bucketMillis).toBe(120_001);
    expect(summary.buckets.map((bucket) => [bucket.from - T0, bucket.count])).toEqual([
      [0, 2],
      [2 * 120_001, 1],
      [4 * 120_001, 1],
    ]);
    expect(summary.buckets[0]!.values).toEqual({
      sys: { min: 120, avg: 125, max: 130 },
      dias: { min: 80, avg: 85, max: 90 },
    });
    expect(summary.buckets[2]!.values).toEqual({
      sys: { min: 110, avg: 110, max: 110 },
      dias: { min: 70, avg: 70, max: 70 },
    });

    // The default cut, a period without readings, a device without readings of the type.
    const whole = (
      await summaryOf(device.id, `dataType=blood_pressure&from=${T0}&to=${T0 + 10 * MINUTE}`)
    ).json<ReadingsSummary>();
    expect(whole.buckets.reduce((sum, bucket) => sum + bucket.count, 0)).toBe(4);
    expect(whole.buckets).toHaveLength(4);
    // Temperatures in degrees Celsius whatever unit each reading gives; text fields are not numbers.
    await submit(device.id, 'temperature', [
      { timestamp: T0, value: 98.6, unit: '°F' },
      { timestamp: T0 + 1, value: 310.15, unit: 'K' },
      { timestamp: T0 + 2, value: 36, unit: 'C' },
    ]);
    const temperature = (
      await summaryOf(device.id, `dataType=temperature&from=${T0}&to=${T0 + MINUTE}&buckets=1`)
    ).json<ReadingsSummary>();
    expect(temperature.buckets).toHaveLength(1);
    expect(Object.keys(temperature.buckets[0]!.values)).toEqual(['value']);
    const { min, avg, max } = temperature.buckets[0]!.values.value!;
    expect([min, avg, max].map((value) => Math.round(value * 100) / 100)).toEqual([36, 36.67, 37]);

    const empty = await summaryOf(device.id, `dataType=battery&from=${T0}&to=${T0 + MINUTE}`);
    expect(empty.json()).toMatchObject({ total: 0, buckets: [] });
  });

  it('refuses what it cannot answer, with a sentence, and answers admins only', async () => {
    const device = await createIotDevice(context);
    const refused = async (query: string, path: string) => {
      const response = await summaryOf(device.id, query);
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json().issues.map((issue: { path: string }) => issue.path)).toContain(path);
      return response.json<{ issues: { message: string }[] }>();
    };
    await refused(`from=${T0}&to=${T0 + 1}`, 'querystring.dataType');
    await refused(`dataType=glucose&from=${T0}&to=${T0 + 1}`, 'querystring.dataType');
    await refused(`dataType=battery&from=${T0}`, 'querystring.to');
    await refused(`dataType=battery&from=1e12&to=${T0}`, 'querystring.from');
    await refused(`dataType=battery&from=${T0}&to=${T0}`, 'querystring.to');
    await refused(`dataType=battery&from=${T0}&to=${T0 + 1}&buckets=0`, 'querystring.buckets');
    await refused(`dataType=battery&from=${T0}&to=${T0 + 1}&buckets=501`, 'querystring.buckets');
    await refused(`dataType=battery&from=${T0}&to=${T0 + 1}&extra=1`, 'querystring');
    const thai = await context.app.inject({
      method: 'GET',
      url: `/api/iot-devices/${device.id}/readings-summary?dataType=battery&from=${T0 + 5}&to=${T0}`,
      headers: { authorization: `Bearer ${context.adminToken}`, 'accept-language': 'th' },
    });
    expect(thai.statusCode).toBe(400);
    expect(JSON.stringify(thai.json())).toContain('ต้องอยู่หลังเวลาเริ่มต้น');

    const missing = await summaryOf(
      '00000000-0000-4000-8000-000000000000',
      `dataType=battery&from=${T0}&to=${T0 + 1}`,
    );
    expect(missing.statusCode).toBe(404);

    const nurse = await createUser(context, { roles: ['public'] });
    const query = `/api/iot-devices/${device.id}/readings-summary?dataType=battery&from=${T0}&to=${T0 + 1}`;
    expect((await api(context, nurse.token).get(query)).statusCode).toBe(403);
    expect((await context.app.inject({ method: 'GET', url: query })).statusCode).toBe(401);
  });
});
