// A process that stops without leaving the shared MQTT subscription (killed, out of memory) keeps its sessions
// subscribed at the broker, which goes on queueing their share of the readings. Another member finds it gone
// (its presence, two checks in a row), takes its sessions over, stores what was queued and ends them, so the
// broker gives the survivors every reading (decision 098). Real Mosquitto and PostgreSQL; the stopped process is
// an MQTT client cut off without a DISCONNECT and a change listener closed.
import { randomUUID } from 'node:crypto';
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenForRemoteChanges } from '@/lib/change-listener.js';
import { createChangeFeed } from '@/lib/changes.js';
import { createTestDatabase, type TestDatabase } from '@/test/harness.js';
import { startMqttIngestion, type MqttIngestion } from './iot.mqtt.js';
import {
  connectPublisher,
  forgetSessions,
  ingestionSettings,
  mqttTestSettings,
  MQTT_TEST_URL,
  silentLog,
  standInIotService,
} from './iot.test-helpers.js';
import { mqttPresenceName, registerMqttMember, watchMqttMembers } from './mqtt-members.js';

const quiet = () => undefined;
const postgres = Boolean(process.env.DATABASE_URL_TEST);

let database: TestDatabase;
beforeAll(async () => {
  if (postgres) database = await createTestDatabase();
});
afterAll(async () => {
  await database?.drop();
});

describe.runIf(postgres)('a member that stopped without leaving the MQTT subscription', () => {
  const settings = mqttTestSettings(2);
  const survivor = { ...settings, clientId: `${settings.clientId}-b` };
  const stopped = `${settings.clientId}-a`;
  const filter = `$share/${settings.env.MQTT_SHARE_GROUP}/${settings.prefix}/+/+`;
  const subscription = {
    url: MQTT_TEST_URL,
    shareGroup: settings.env.MQTT_SHARE_GROUP,
    topicPrefix: settings.prefix,
  };
  let ingestion: MqttIngestion | undefined;
  let watch: ReturnType<typeof watchMqttMembers> | undefined;

  afterAll(async () => {
    await watch?.close();
    await ingestion?.close();
    await forgetSessions(survivor.clientId, survivor.connections);
    await forgetSessions(stopped, settings.connections);
  });

  it('has its sessions taken over by another member: every reading the broker acknowledged is stored', async () => {
    // The member that will stop: its sessions subscribed, its presence up, its membership written.
    const presenceA = mqttPresenceName(subscription);
    const listenerA = listenForRemoteChanges(database.handle, createChangeFeed(), quiet, {
      presence: presenceA,
    });
    const sessionsA = await Promise.all(
      Array.from({ length: settings.connections }, (_, index) =>
        mqtt.connectAsync(MQTT_TEST_URL, {
          clientId: `${stopped}-${index}`,
          protocolVersion: 5,
          clean: false,
          properties: { sessionExpiryInterval: 120 },
          reconnectPeriod: 0,
        }),
      ),
    );
    await Promise.all(sessionsA.map((client) => client.subscribeAsync(filter, { qos: 1 })));
    await registerMqttMember(database.handle, {
      clientId: stopped,
      presence: presenceA,
      connections: settings.connections,
    });

    // The survivor: its own sessions, stored readings counted by id.
    const stored = new Set<string>();
    const service = standInIotService((messages) => {
      for (const message of messages) for (const reading of message.readings) stored.add(String(reading.id));
    });
    ingestion = startMqttIngestion(ingestionSettings(survivor, { batchSize: 50 }), service, silentLog);
    await ingestion.ready;
    const presenceB = mqttPresenceName(subscription);
    const listenerB = listenForRemoteChanges(database.handle, createChangeFeed(), quiet, {
      presence: presenceB,
    });

    // The first member stops as a killed process does: its sockets cut, no DISCONNECT, its presence gone.
    for (const client of sessionsA) {
      client.stream.destroy();
      client.end(true);
    }
    await listenerA.close();

    const publisher = await connectPublisher();
    const sent = Array.from({ length: 200 }, (_, index) => `r-${randomUUID().slice(0, 8)}-${index}`);
    for (const id of sent) {
      await publisher.publishAsync(
        `${settings.prefix}/HW-takeover/heart_rate`,
        JSON.stringify({ id, timestamp: 1_760_000_000_000, rate: 70 }),
        { qos: 1 },
      );
    }
    // Half went to the stopped member's sessions; nothing takes them until the survivor takes them over.
    await expect.poll(() => stored.size, { timeout: 10_000 }).toBeGreaterThan(0);
    expect(stored.size).toBeLessThan(sent.length);

    watch = watchMqttMembers({
      database: database.handle,
      member: { clientId: survivor.clientId, presence: presenceB, connections: survivor.connections },
      takeOver: (stem, connections) => ingestion!.takeOver(stem, connections),
      log: silentLog,
      intervalMs: 200,
    });
    await expect.poll(() => stored.size, { timeout: 20_000, interval: 100 }).toBe(sent.length);
    expect([...stored].sort()).toEqual([...sent].sort());

    // The broker dropped the stopped member's sessions: every reading sent now reaches the survivor (with them
    // still subscribed, about half would wait for a process that does not come back).
    const after = `r-after-${randomUUID().slice(0, 8)}`;
    for (let index = 0; index < 20; index++) {
      await publisher.publishAsync(
        `${settings.prefix}/HW-takeover/heart_rate`,
        JSON.stringify({ id: `${after}-${index}`, timestamp: 1_760_000_000_000, rate: 70 }),
        { qos: 1 },
      );
    }
    await expect
      .poll(() => [...stored].filter((id) => id.startsWith(after)).length, { timeout: 10_000 })
      .toBe(20);
    await publisher.endAsync();
    await listenerB.close();
  }, 60_000);
});
