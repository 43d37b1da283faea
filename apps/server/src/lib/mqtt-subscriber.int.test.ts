// The QoS 1 subscriber against the real Mosquitto (MQTT_URL_TEST, 127.0.0.1:1883 in CI): it keeps receiving
// while earlier messages wait for their handlers, honours its receive maximum, and acknowledges a message only
// when its handler has settled, so a failed or unfinished one comes back.
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import net from 'node:net';
import mqtt, { type MqttClient } from 'mqtt';
import type { IPublishPacket } from 'mqtt-packet';
import { afterEach, describe, expect, it } from 'vitest';
import { MQTT_TEST_URL } from '@/test/mqtt.js';
import {
  brokerAddress,
  brokerOutage,
  subscribe,
  type Subscription,
  type SubscriberOptions,
} from './mqtt-subscriber.js';

const quiet = () => undefined;
const log = { info: quiet, warn: quiet, error: quiet };

interface Held {
  packet: IPublishPacket;
  resolve: () => void;
  reject: (error: Error) => void;
}

/** A subscriber whose handler holds every message until the test settles it. */
function holdingSubscriber(tag: string, overrides: Partial<SubscriberOptions> = {}) {
  const held: Held[] = [];
  const subscription = subscribe({
    url: MQTT_TEST_URL,
    clientId: `cpt-sub-${tag}`,
    filter: `test-${tag}/#`,
    sessionExpiry: 60,
    receiveMaximum: 100,
    reconnectMs: 50,
    log,
    onMessage: (packet) =>
      new Promise<void>((resolve, reject) => {
        held.push({ packet, resolve, reject });
      }),
    ...overrides,
  });
  open.push(subscription);
  return { subscription, held };
}

const open: Subscription[] = [];
const publishers: MqttClient[] = [];
const sessions: string[] = [];

async function publisher() {
  const client = await mqtt.connectAsync(MQTT_TEST_URL, {
    clientId: `cpt-pub-${randomUUID().slice(0, 8)}`,
    protocolVersion: 5,
    reconnectPeriod: 0,
  });
  publishers.push(client);
  return client;
}

const publishAll = (client: MqttClient, tag: string, count: number) =>
  Promise.all(
    Array.from({ length: count }, (_, index) =>
      client.publishAsync(`test-${tag}/m`, String(index), { qos: 1 }),
    ),
  );

const bodies = (held: Held[]) => held.map((entry) => entry.packet.payload.toString()).sort((a, b) => +a - +b);

afterEach(async () => {
  await Promise.all(open.splice(0).map((subscription) => subscription.close()));
  await Promise.all(publishers.splice(0).map((client) => client.endAsync()));
  // The sessions outlive the connections by design: end them.
  await Promise.all(
    sessions.splice(0).map(async (clientId) => {
      const client = await mqtt.connectAsync(MQTT_TEST_URL, {
        clientId,
        protocolVersion: 5,
        clean: true,
        properties: { sessionExpiryInterval: 0 },
        reconnectPeriod: 0,
      });
      await client.endAsync();
    }),
  );
});

describe('the QoS 1 subscriber', () => {
  it('keeps receiving while earlier messages wait, and stops at its receive maximum', async () => {
    const tag = randomUUID().slice(0, 8);
    sessions.push(`cpt-sub-${tag}`);
    const { subscription, held } = holdingSubscriber(tag, { receiveMaximum: 10 });
    await subscription.ready;
    await publishAll(await publisher(), tag, 25);

    // Ten messages are in the handler at once, none settled: nothing holds the connection but the maximum.
    await expect.poll(() => held.length).toBe(10);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(held.length).toBe(10);

    // Settling them acknowledges them, and the broker sends the next ones.
    for (const entry of held.slice(0, 10)) entry.resolve();
    await expect.poll(() => held.length).toBeGreaterThan(10);
    for (let settled = 10; settled < 25;) {
      await expect.poll(() => held.length).toBeGreaterThan(settled);
      for (const entry of held.slice(settled)) entry.resolve();
      settled = held.length;
    }
    expect(bodies(held)).toEqual(Array.from({ length: 25 }, (_, index) => String(index)));
  });

  it('does not acknowledge a message whose handler failed: the next connection receives it again', async () => {
    const tag = randomUUID().slice(0, 8);
    sessions.push(`cpt-sub-${tag}`);
    const { subscription, held } = holdingSubscriber(tag);
    await subscription.ready;
    await publishAll(await publisher(), tag, 3);
    await expect.poll(() => held.length).toBe(3);

    held[0]!.resolve();
    held[1]!.reject(new Error('the database is away'));
    // The failure dropped the connection; the session brings back what was not acknowledged.
    await expect.poll(() => held.length, { timeout: 10_000 }).toBeGreaterThanOrEqual(4);
    await expect.poll(() => bodies(held), { timeout: 10_000 }).toHaveLength(5);
    // The failed message and the one still under way come back; the acknowledged one does not.
    expect(bodies(held.slice(3))).toEqual(['1', '2']);
    expect(held.slice(3).every((entry) => entry.packet.dup)).toBe(true);
    for (const entry of held.slice(2)) entry.resolve();
  });

  it('waits longer before each reconnect while its handler keeps failing, with one line per dropped connection', async () => {
    const tag = randomUUID().slice(0, 8);
    sessions.push(`cpt-sub-${tag}`);
    const lines: { level: string; message: string; retryMs?: number }[] = [];
    const record = (level: string) => (object: object, message: string) =>
      lines.push({ level, message, retryMs: (object as { retryMs?: number }).retryMs });
    let failing = true;
    const handled = new Set<string>();
    const { subscription } = holdingSubscriber(tag, {
      reconnectMs: 50,
      maxReconnectMs: 200,
      log: { info: record('info'), warn: record('warn'), error: record('error') },
      onMessage: async (packet) => {
        if (failing) throw new Error('the database is away');
        handled.add(packet.payload.toString());
      },
    });
    await subscription.ready;
    await publishAll(await publisher(), tag, 5);
    const warnings = () => lines.filter((line) => line.level === 'warn');
    await expect.poll(() => warnings().length, { timeout: 10_000 }).toBeGreaterThanOrEqual(3);
    failing = false;
    await expect.poll(() => handled.size, { timeout: 10_000 }).toBe(5);
    // Five messages failed on each connection: one full line for the first, then one per connection, each
    // waiting twice as long as the one before, up to the most.
    expect(lines.filter((line) => line.level === 'error')).toHaveLength(1);
    expect(
      warnings()
        .slice(0, 3)
        .map((line) => line.retryMs),
    ).toEqual([100, 200, 200]);
    expect(lines.at(-1)).toMatchObject({ level: 'info', message: 'MQTT messages are handled again' });
  });

  it('acknowledges on close what was under way, and leaves what it had not taken to the session', async () => {
    const tag = randomUUID().slice(0, 8);
    sessions.push(`cpt-sub-${tag}`);
    const first = holdingSubscriber(tag, { receiveMaximum: 5 });
    await first.subscription.ready;
    await publishAll(await publisher(), tag, 8);
    await expect.poll(() => first.held.length).toBe(5);

    const closed = first.subscription.close();
    // Closing waits for the handlers under way.
    let done = false;
    void closed.then(() => (done = true));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(done).toBe(false);
    for (const entry of first.held) entry.resolve();
    await closed;

    // The next connection of the same session gets only the three messages never taken.
    const second = holdingSubscriber(tag, { receiveMaximum: 5 });
    await second.subscription.ready;
    await expect.poll(() => second.held.length).toBe(3);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(bodies(second.held)).toEqual(['5', '6', '7']);
    for (const entry of second.held) entry.resolve();
  });

  it('leaves a shared subscription on close({ leave }): the members still up get every message', async () => {
    const tag = randomUUID().slice(0, 8);
    const member = (name: string) => {
      sessions.push(`cpt-sub-${tag}-${name}`);
      return holdingSubscriber(`${tag}-${name}`, { filter: `$share/g-${tag}/test-${tag}/#` });
    };
    const [stays, leaves, stops] = [member('a'), member('b'), member('c')];
    await Promise.all([stays, leaves, stops].map((one) => one.subscription.ready));
    const settleAll = (one: { held: Held[] }) => {
      const timer = setInterval(() => one.held.forEach((entry) => entry.resolve()), 20);
      return () => clearInterval(timer);
    };
    const stopSettling = settleAll(stays);
    await leaves.subscription.close({ leave: true });
    // Without leaving, a stopped member's session keeps its share: the broker queues it for its return.
    await stops.subscription.close();

    await publishAll(await publisher(), tag, 60);
    await expect.poll(() => stays.held.length, { timeout: 10_000 }).toBeGreaterThanOrEqual(30);
    await new Promise((resolve) => setTimeout(resolve, 300));
    stopSettling();
    // Every message reached a member that is up or a session kept for one that stopped; none went to the one
    // that left.
    const kept = 60 - stays.held.length;
    expect(kept).toBeGreaterThan(0);
    expect(kept).toBeLessThan(60);
    const back = holdingSubscriber(`${tag}-c`, { filter: `$share/g-${tag}/test-${tag}/#` });
    await back.subscription.ready;
    await expect.poll(() => back.held.length, { timeout: 10_000 }).toBe(kept);
    for (const entry of back.held) entry.resolve();
    expect([...bodies(stays.held), ...bodies(back.held)].sort((a, b) => +a - +b)).toEqual(
      Array.from({ length: 60 }, (_, index) => String(index)),
    );
  });

  it('says once that a broker is away at start, naming it, and once that it answers; the same when it is lost', async () => {
    const tag = randomUUID().slice(0, 8);
    // A port where nothing listens yet; later a relay to the test broker listens there.
    const probe = net.createServer().listen(0, '127.0.0.1');
    await once(probe, 'listening');
    const port = (probe.address() as net.AddressInfo).port;
    await new Promise((resolve) => probe.close(resolve));
    const url = `mqtt://127.0.0.1:${port}`;

    const lines: { level: string; message: string; fields: Record<string, unknown> }[] = [];
    const record = (level: string) => (fields: object, message: string) =>
      lines.push({ level, message, fields: fields as Record<string, unknown> });
    const recording = { info: record('info'), warn: record('warn'), error: record('error') };
    const shared = brokerOutage(recording, url);
    const failed = new Set<string>();
    const outage = {
      failed: (clientId: string, error: Error) => {
        failed.add(clientId);
        shared.failed(clientId, error);
      },
      connected: (clientId: string) => shared.connected(clientId),
      gone: (clientId: string) => shared.gone(clientId),
    };
    const clientIds = [0, 1, 2].map((index) => `cpt-sub-${tag}-${index}`);
    sessions.push(...clientIds);
    const subscriptions = clientIds.map(
      (clientId) => holdingSubscriber(tag, { url, clientId, log: recording, outage }).subscription,
    );

    // Every connection has failed, some more than once: one warning, naming the broker, without a stack.
    await expect.poll(() => failed.size, { timeout: 10_000 }).toBe(3);
    const warnings = () => lines.filter((line) => line.level === 'warn');
    expect(warnings()).toEqual([
      {
        level: 'warn',
        message: `the MQTT broker at ${url} cannot be reached; its connections keep trying`,
        fields: { broker: url, code: 'ECONNREFUSED', reason: expect.stringContaining('ECONNREFUSED') },
      },
    ]);

    // The broker answers at that address: the connections subscribe, and one line says so.
    const target = new URL(MQTT_TEST_URL);
    const relayed = new Set<net.Socket>();
    const startRelay = async () => {
      const relay = net.createServer((socket) => {
        const upstream = net.connect(Number(target.port || 1883), target.hostname);
        relayed.add(socket).add(upstream);
        socket.pipe(upstream).pipe(socket);
        const end = () => [socket, upstream].forEach((each) => each.destroy());
        socket.on('error', end).on('close', end);
        upstream.on('error', end).on('close', end);
      });
      relay.listen(port, '127.0.0.1');
      await once(relay, 'listening');
      return relay;
    };
    const relay = await startRelay();
    await Promise.all(subscriptions.map((subscription) => subscription.ready));
    const infos = () => lines.filter((line) => line.level === 'info');
    await expect.poll(() => infos().length).toBe(1);
    expect(infos()[0]).toMatchObject({
      message: `connected to the MQTT broker at ${url}`,
      fields: { broker: url },
    });

    // The broker goes away again: one line that it was lost, and one that it is back once it is.
    failed.clear();
    await new Promise((resolve) => {
      relay.close(resolve);
      for (const socket of relayed) socket.destroy();
    });
    await expect.poll(() => failed.size, { timeout: 10_000 }).toBe(3);
    expect(warnings().map((line) => line.message)).toEqual([
      `the MQTT broker at ${url} cannot be reached; its connections keep trying`,
      `the MQTT broker at ${url} was lost; its connections keep trying`,
    ]);

    // Back once more: one line says so.
    const again = await startRelay();
    await expect.poll(() => infos().length, { timeout: 10_000 }).toBe(2);
    expect(infos()[1]!.message).toBe(`connected to the MQTT broker at ${url} again`);
    expect(lines.filter((line) => line.level === 'error')).toEqual([]);
    await Promise.all(subscriptions.map((subscription) => subscription.close()));
    await new Promise((resolve) => {
      again.close(resolve);
      for (const socket of relayed) socket.destroy();
    });
  });

  it('forgets a connection that stops trying, so the others still say when the broker is back', () => {
    const lines: string[] = [];
    const record = (_: object, message: string) => lines.push(message);
    const outage = brokerOutage({ info: record, warn: record, error: record }, 'mqtt://127.0.0.1:1883');
    const refused = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    outage.failed('a', refused);
    outage.failed('b', refused);
    outage.gone('b');
    outage.connected('a');
    outage.failed('a', refused);
    expect(lines).toEqual([
      'the MQTT broker at mqtt://127.0.0.1:1883 cannot be reached; its connections keep trying',
      'connected to the MQTT broker at mqtt://127.0.0.1:1883',
      'the MQTT broker at mqtt://127.0.0.1:1883 was lost; its connections keep trying',
    ]);
  });

  it('names a broker by its host and port, never its user name or password', () => {
    expect(brokerAddress('mqtt://ingest:s3cret@broker.example:1884')).toBe('mqtt://broker.example:1884');
    expect(brokerAddress('mqtts://ingest:s3cret@broker.example')).toBe('mqtts://broker.example:8883');
    expect(brokerAddress('mqtt://127.0.0.1')).toBe('mqtt://127.0.0.1:1883');
  });

  it('refuses an address it cannot speak to', () => {
    expect(() =>
      subscribe({
        url: 'ws://127.0.0.1:8080/mqtt',
        clientId: 'never',
        filter: 'x/#',
        sessionExpiry: 0,
        receiveMaximum: 1,
        log,
        onMessage: async () => undefined,
      }),
    ).toThrowError(/mqtt:\/\/ or mqtts:\/\//);
  });
});
