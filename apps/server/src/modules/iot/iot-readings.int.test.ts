// IoT readings read back: lists, the latest reading of a device, deletes, and what deletes of others do.
import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
