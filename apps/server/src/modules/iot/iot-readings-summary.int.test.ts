// A chart's readings summed up by the server: GET /api/iot-devices/{id}/readings-summary.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReadingsSummary } from '@careplane/shared/iot/iot.contract';
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
