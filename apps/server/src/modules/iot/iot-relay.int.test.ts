// Readings relayed by a client device with its device token (a patient terminal sending what its wristband
// measured): only for the IoT devices linked to it, audited as the device.
import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, iotDeviceData } from '@/db/schema/index.js';
import { createDevice, createIotDevice, createUser } from '@/test/factories.js';
import { api, createTestContext, type TestContext } from '@/test/harness.js';

let context: TestContext;
beforeAll(async () => {
  context = await createTestContext();
});
afterAll(async () => {
  await context?.close();
});

const T0 = 1_730_000_000_000;
const readingsOf = (iotDeviceId: string) =>
  context.database.db.select().from(iotDeviceData).where(eq(iotDeviceData.iotDeviceId, iotDeviceId));
const withToken = (token: string) => api(context, token);
const heartRates = (iotDeviceId: string, ...rates: number[]) => ({
  iotDeviceId,
  dataType: 'heart_rate',
  data: rates.map((rate, index) => ({ timestamp: T0 + index * 1000, rate })),
});

describe('a client device relaying readings with its device token', () => {
  it('lists the IoT devices linked to it, without their secrets, and nobody else’s', async () => {
    const band = await createIotDevice(context, { supportedDataTypes: ['heart_rate'] });
    const other = await createIotDevice(context);
    const terminal = await createDevice(context, { title: 'Terminal', iotDevices: [band.id] });
    await createDevice(context, { title: 'Elsewhere', iotDevices: [other.id] });

    const listed = await withToken(terminal.token).get('/api/devices/me/iot-devices');
    expect(listed.statusCode, listed.body).toBe(200);
    expect(listed.json()).toEqual([
      {
        id: band.id,
        hardwareIdentifier: band.hardwareIdentifier,
        model: band.model,
        trustLevel: band.trustLevel,
        supportedDataTypes: ['heart_rate'],
      },
    ]);
    expect(listed.body).not.toContain('connectionSecret');
    expect((await api(context).get('/api/devices/me/iot-devices')).statusCode).toBe(401);
  });

  it('stores a batch of a linked IoT device, audited as the device, with no user as creator', async () => {
    const band = await createIotDevice(context, { supportedDataTypes: ['heart_rate'] });
    const terminal = await createDevice(context, { title: 'Relay', iotDevices: [band.id] });
    const sent = await withToken(terminal.token).post(
      '/api/iot-devices/data/submit',
      heartRates(band.id, 72, 75),
    );
    expect(sent.statusCode, sent.body).toBe(201);
    const stored = await readingsOf(band.id);
    expect(stored.map((row) => row.data)).toEqual([
      expect.objectContaining({ rate: 72 }),
      expect.objectContaining({ rate: 75 }),
    ]);
    expect(stored.every((row) => row.createdByUserId === null)).toBe(true);
    const entries = await context.database.db
      .select()
      .from(auditLog)
      .where(
        and(eq(auditLog.resource, 'iot-device-data'), eq(auditLog.actorSubject, `device:${terminal.id}`)),
      );
    expect(entries).toHaveLength(1);
  });

  it('answers 404 for an IoT device not linked to it, or unknown, and stores nothing', async () => {
    const band = await createIotDevice(context, { supportedDataTypes: ['heart_rate'] });
    const stranger = await createDevice(context, { title: 'Not linked' });
    for (const iotDeviceId of [band.id, randomUUID()]) {
      const sent = await withToken(stranger.token).post(
        '/api/iot-devices/data/submit',
        heartRates(iotDeviceId, 70),
      );
      expect(sent.statusCode, iotDeviceId).toBe(404);
      expect(sent.json().message).toBe('IoT device not found');
    }
    expect(await readingsOf(band.id)).toEqual([]);
  });

  it('keeps the route closed to people who are not admins, and the readings list to devices', async () => {
    const band = await createIotDevice(context, { supportedDataTypes: ['heart_rate'] });
    const terminal = await createDevice(context, { title: 'Reader', iotDevices: [band.id] });
    const nurse = await createUser(context, { localRoles: ['nurse'] });
    expect(
      (await withToken(nurse.token).post('/api/iot-devices/data/submit', heartRates(band.id, 70))).statusCode,
    ).toBe(403);
    expect((await withToken(terminal.token).get('/api/iot-devices/data')).statusCode).toBe(401);
    expect(await readingsOf(band.id)).toEqual([]);
  });
});
