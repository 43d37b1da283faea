// Readings over MQTT through the real Mosquitto: stored once acknowledged, validated per type, refused
// messages counted and never stored, retries stored once, trusted devices with their secret, alerts opened.
import { and, eq, sql } from 'drizzle-orm';
import type { MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IngestionCounts } from '@careplane/shared/iot/iot.contract';
import { alerts, auditLog, iotDeviceData, iotDevices } from '@/db/schema/index.js';
import type { RelayedChanges } from '@/lib/changes.js';
import { createIotDevice, createUser } from '@/test/factories.js';
import { api, createTestContext, type TestContext } from '@/test/harness.js';
import { hashConnectionSecret } from './iot.secrets.js';
import { SECRET, connectPublisher, forgetSessions, mqttTestSettings } from './iot.test-helpers.js';

const mqttSettings = mqttTestSettings();
let context: TestContext;
let admin: ReturnType<typeof api>;
let publisher: MqttClient;
beforeAll(async () => {
  context = await createTestContext(mqttSettings.env);
  admin = api(context);
  publisher = await connectPublisher();
});
afterAll(async () => {
  await publisher?.endAsync();
  await context?.close();
  await forgetSessions(mqttSettings.clientId, mqttSettings.connections);
});

const T0 = 1_730_000_000_000;

const publish = (hardwareIdentifier: string, dataType: string, payload: unknown, secret?: string) =>
  publisher.publishAsync(
    `${mqttSettings.prefix}/${hardwareIdentifier}/${dataType}`,
    typeof payload === 'string' || Buffer.isBuffer(payload) ? payload : JSON.stringify(payload),
    { qos: 1, ...(secret ? { properties: { userProperties: { 'connection-secret': secret } } } : {}) },
  );

const readingsOf = (iotDeviceId: string) =>
  context.database.db.select().from(iotDeviceData).where(eq(iotDeviceData.iotDeviceId, iotDeviceId));

const counts = async () => (await admin.get('/api/iot-devices/ingestion')).json<IngestionCounts>().mqtt;

/** Waits until the server has dealt with `n` more readings (stored, repeated or refused) than `before`. */
async function handled(before: IngestionCounts['mqtt'], n: number) {
  await expect
    .poll(
      async () => {
        const now = await counts();
        return (
          now.stored + now.duplicates + now.rejected - (before.stored + before.duplicates + before.rejected)
        );
      },
      { timeout: 15_000 },
    )
    .toBe(n);
}

describe('readings over MQTT', () => {
  it('stores single readings and lists of readings published at QoS 1', async () => {
    const device = await createIotDevice(context, { supportedDataTypes: ['heart_rate', 'battery'] });
    const before = await counts();
    await publish(device.hardwareIdentifier, 'heart_rate', { timestamp: T0, rate: 72 });
    await publish(device.hardwareIdentifier, 'battery', [
      { timestamp: T0, level: 90 },
      { timestamp: T0 + 60_000, level: 89 },
    ]);
    await handled(before, 3);
    const stored = await readingsOf(device.id);
    expect(stored.map((row) => [row.dataType, row.data]).sort()).toEqual([
      ['battery', { timestamp: T0, level: 90 }],
      ['battery', { timestamp: T0 + 60_000, level: 89 }],
      ['heart_rate', { timestamp: T0, rate: 72 }],
    ]);
    expect(stored.every((row) => row.createdByUserId === null)).toBe(true);
    expect((await counts()).stored - before.stored).toBe(3);
    // Readable through the API like any other reading.
    const listed = await admin.get(`/api/iot-devices/data?filters=iotDevice.id~${device.id}`);
    expect(listed.json().total).toBe(3);
  });

  it('counts and logs malformed messages and invalid readings, storing none of them', async () => {
    const device = await createIotDevice(context, { supportedDataTypes: ['heart_rate'] });
    const before = await counts();
    const hw = device.hardwareIdentifier;
    await publish(hw, 'heart_rate', '{not json');
    await publish(hw, 'heart_rate', { timestamp: T0, rate: 'fast' });
    await publish(hw, 'heart_rate', { rate: 70 });
    await publish(hw, 'blood_pressure', { timestamp: T0, sys: 120, dias: 80 }); // not a supported type
    await publish(hw, 'mood', { timestamp: T0, value: 3 }); // not a data type
    await publish('no-such-device', 'heart_rate', { timestamp: T0, rate: 70 });
    // One good and one bad reading in one message: the good one is stored, the bad one refused.
    await publish(hw, 'heart_rate', [
      { timestamp: T0 + 1, rate: 71 },
      { timestamp: T0 + 2, rate: -5 },
    ]);
    await handled(before, 7);
    const after = await counts();
    expect(after.stored - before.stored).toBe(1);
    expect(after.rejected - before.rejected).toBe(6);
    expect(after.rejectedMessages - before.rejectedMessages).toBe(6);
    const stored = await readingsOf(device.id);
    expect(stored.map((row) => row.data)).toEqual([{ timestamp: T0 + 1, rate: 71 }]);
  });

  it('refuses for good a message read as no HTTP body would be, and keeps storing what follows', async () => {
    // Nested past any contract's depth, it overflowed the stack of the readings' checks (an alert's size check
    // writes it out): the message was left unacknowledged, and the broker sent it back every second, for ever,
    // to a connection that stored nothing more. No device is needed to send one.
    const device = await createIotDevice(context, { supportedDataTypes: ['heart_rate', 'alert'] });
    const hw = device.hardwareIdentifier;
    const deep = `{"timestamp":${T0},"id":"a","x":${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
    const before = await counts();
    await publish('no-such-device', 'alert', deep);
    await publish(hw, 'alert', deep);
    await publish(hw, 'heart_rate', `{"timestamp":${T0},"rate":70,"note":"a\\u0000b"}`);
    await publish(hw, 'heart_rate', Buffer.from([0x7b, 0xff, 0xfe, 0x7d]));
    await publish(hw, 'heart_rate', `{"timestamp":${T0},"rate":70,"__proto__":{"admin":true}}`);
    const next = Array.from({ length: 2 * mqttSettings.connections }, (_, index) => ({
      timestamp: T0 + 10 + index,
      rate: 60 + index,
    }));
    for (const reading of next) await publish(hw, 'heart_rate', reading);
    await handled(before, 5 + next.length);
    const after = await counts();
    expect(after.rejectedMessages - before.rejectedMessages).toBe(5);
    expect(after.stored - before.stored).toBe(next.length);
    expect(
      (await readingsOf(device.id))
        .map((row) => row.data)
        .sort((a, b) => Number(a.timestamp) - Number(b.timestamp)),
    ).toEqual(next);
  });

  it('stores a repeated message once (content-derived ids, as over HTTP)', async () => {
    const device = await createIotDevice(context);
    const reading = { timestamp: T0, sys: 120, dias: 80 };
    const before = await counts();
    await publish(device.hardwareIdentifier, 'blood_pressure', reading);
    await publish(device.hardwareIdentifier, 'blood_pressure', { dias: 80, sys: 120, timestamp: T0 });
    await publish(device.hardwareIdentifier, 'blood_pressure', [reading, reading]);
    await handled(before, 4);
    expect(await readingsOf(device.id)).toHaveLength(1);
    const after = await counts();
    expect(after.stored - before.stored).toBe(1);
    expect(after.duplicates - before.duplicates).toBe(3);
    // The same reading over HTTP names the same record.
    const http = await admin.post('/api/iot-devices/data/submit', {
      iotDeviceId: device.id,
      dataType: 'blood_pressure',
      data: [reading],
    });
    expect(http.json()).toMatchObject({ duplicates: 1, ids: [(await readingsOf(device.id))[0]!.id] });
  });

  it('takes a trusted device’s readings only with its connection secret', async () => {
    const device = await createIotDevice(context, { trustLevel: 'trusted', connectionSecret: SECRET });
    const hw = device.hardwareIdentifier;
    const before = await counts();
    await publish(hw, 'heart_rate', { timestamp: T0, rate: 60 });
    await publish(hw, 'heart_rate', { timestamp: T0 + 1, rate: 61 }, 'wrong-secret-value');
    await publish(hw, 'heart_rate', { timestamp: T0 + 2, rate: 62 }, SECRET);
    // MQTT 3 publishers have no user properties: the secret may travel in an envelope instead.
    const v4 = await connectPublisher(4);
    await v4.publishAsync(
      `${mqttSettings.prefix}/${hw}/heart_rate`,
      JSON.stringify({ connectionSecret: SECRET, data: [{ timestamp: T0 + 3, rate: 63 }] }),
      { qos: 1 },
    );
    await v4.endAsync();
    await handled(before, 4);
    const stored = await readingsOf(device.id);
    expect(stored.map((row) => row.data.rate).sort()).toEqual([62, 63]);
    expect(JSON.stringify(stored)).not.toContain(SECRET);
    expect((await counts()).rejected - before.rejected).toBe(2);
  });

  it('opens alerts from alert readings and from readings outside their bounds', async () => {
    const patient = await createUser(context);
    const device = await createIotDevice(context, { assignedUser: patient.id });
    const before = await counts();
    await publish(device.hardwareIdentifier, 'heart_rate', [
      { timestamp: T0, rate: 150 },
      { timestamp: T0 + 1, rate: 170 },
    ]);
    await publish(device.hardwareIdentifier, 'alert', { timestamp: T0 + 2, id: 'fall-9', severity: 'info' });
    await handled(before, 3);
    const opened = await context.database.db.select().from(alerts).where(eq(alerts.iotDeviceId, device.id));
    expect(
      opened.map((alert) => [alert.data.reason, alert.severity, alert.userId, alert.isActive]).sort(),
    ).toEqual([
      ['alert_reading', 'info', patient.id, true],
      ['out_of_bounds', 'critical', patient.id, true], // 170 is beyond 130 by more than a fifth
    ]);
  });

  it('audits each batch once and tells the other processes when it has committed', async () => {
    const device = await createIotDevice(context);
    const relayed: RelayedChanges[] = [];
    const stop = context.app.changes.subscribeRelayed((message) => {
      if (message?.origin === context.app.changes.origin) relayed.push(message);
    });
    try {
      const before = await counts();
      await publish(device.hardwareIdentifier, 'heart_rate', [
        { timestamp: T0, rate: 70 },
        { timestamp: T0 + 1, rate: 71 },
      ]);
      await handled(before, 2);
      // Again: nothing new is stored, and the audit row says so.
      await publish(device.hardwareIdentifier, 'heart_rate', { timestamp: T0, rate: 70 });
      await handled(before, 3);
      const audited = await context.database.db
        .select()
        .from(auditLog)
        .where(
          and(
            eq(auditLog.resource, 'iot-device-data'),
            sql`${auditLog.changes} -> 'devices' @> ${JSON.stringify([device.id])}::jsonb`,
          ),
        )
        .orderBy(auditLog.id);
      expect(audited.map((row) => [row.action, row.recordId, row.actorUserId, row.changes])).toEqual([
        ['create', null, null, { channel: 'mqtt', messages: 1, count: 2, stored: 2, devices: [device.id] }],
        ['create', null, null, { channel: 'mqtt', messages: 1, count: 1, stored: 0, devices: [device.id] }],
      ]);
      await expect
        .poll(() =>
          relayed.some((message) =>
            message.changes.some(
              (change) => change.resource === 'iot-device-data' && change.action === 'create',
            ),
          ),
        )
        .toBe(true);
    } finally {
      stop();
    }
  });

  // The server remembers the devices a stream comes from; what it remembers never outlives a change.
  describe('a device changed while it streams', () => {
    /** Publishes one heart rate and waits until the server has dealt with it; answers the change in counts. */
    async function send(hardwareIdentifier: string, timestamp: number, secret?: string) {
      const before = await counts();
      await publish(hardwareIdentifier, 'heart_rate', { timestamp, rate: 70 }, secret);
      await handled(before, 1);
      const after = await counts();
      return { stored: after.stored - before.stored, rejected: after.rejected - before.rejected };
    }
    const refused = { stored: 0, rejected: 1 };
    const stored = { stored: 1, rejected: 0 };

    it('refuses the next reading once the device is deleted, its types narrowed or it becomes trusted', async () => {
      const deleted = await createIotDevice(context);
      const narrowed = await createIotDevice(context);
      const trusted = await createIotDevice(context);
      for (const device of [deleted, narrowed, trusted]) {
        expect(await send(device.hardwareIdentifier, T0)).toEqual(stored);
      }
      expect((await admin.delete(`/api/iot-devices/${deleted.id}`)).statusCode).toBeLessThan(300);
      expect(
        (await admin.patch(`/api/iot-devices/${narrowed.id}`, { supportedDataTypes: ['battery'] }))
          .statusCode,
      ).toBe(200);
      expect(
        (
          await admin.patch(`/api/iot-devices/${trusted.id}`, {
            trustLevel: 'trusted',
            connectionSecret: SECRET,
          })
        ).statusCode,
      ).toBe(200);
      expect(await send(deleted.hardwareIdentifier, T0 + 1)).toEqual(refused);
      expect(await send(narrowed.hardwareIdentifier, T0 + 1)).toEqual(refused);
      expect(await send(trusted.hardwareIdentifier, T0 + 1)).toEqual(refused);
      expect(await send(trusted.hardwareIdentifier, T0 + 2, SECRET)).toEqual(stored);
      expect((await readingsOf(narrowed.id)).map((row) => row.timestamp)).toEqual([T0]);
      expect((await readingsOf(trusted.id)).map((row) => row.timestamp).sort()).toEqual([T0, T0 + 2]);
    });

    it('refuses at once a change this process was not told of (another process, or SQL)', async () => {
      const narrowed = await createIotDevice(context);
      const trusted = await createIotDevice(context);
      const deleted = await createIotDevice(context);
      for (const device of [narrowed, trusted, deleted]) {
        expect(await send(device.hardwareIdentifier, T0)).toEqual(stored);
      }
      const { db } = context.database;
      await db
        .update(iotDevices)
        .set({ supportedDataTypes: ['battery'] })
        .where(eq(iotDevices.id, narrowed.id));
      await db
        .update(iotDevices)
        .set({ trustLevel: 'trusted', connectionSecret: await hashConnectionSecret(SECRET) })
        .where(eq(iotDevices.id, trusted.id));
      await db.delete(iotDevices).where(eq(iotDevices.id, deleted.id));
      expect(await send(narrowed.hardwareIdentifier, T0 + 1)).toEqual(refused);
      expect(await send(trusted.hardwareIdentifier, T0 + 1)).toEqual(refused);
      expect(await send(trusted.hardwareIdentifier, T0 + 2, 'wrong-secret-value')).toEqual(refused);
      expect(await send(deleted.hardwareIdentifier, T0 + 1)).toEqual(refused);
      expect(await send(trusted.hardwareIdentifier, T0 + 3, SECRET)).toEqual(stored);
      expect((await readingsOf(narrowed.id)).map((row) => row.timestamp)).toEqual([T0]);
      expect((await readingsOf(trusted.id)).map((row) => row.timestamp).sort()).toEqual([T0, T0 + 3]);
    });

    it('takes the readings of a device that may send them again, without waiting to be told', async () => {
      const device = await createIotDevice(context, { supportedDataTypes: ['battery'] });
      expect(await send(device.hardwareIdentifier, T0)).toEqual(refused);
      await context.database.db
        .update(iotDevices)
        .set({ supportedDataTypes: ['battery', 'heart_rate'] })
        .where(eq(iotDevices.id, device.id));
      expect(await send(device.hardwareIdentifier, T0 + 1)).toEqual(stored);
      expect((await readingsOf(device.id)).map((row) => row.timestamp)).toEqual([T0 + 1]);
    });
  });
});
