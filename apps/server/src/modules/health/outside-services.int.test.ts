// The metrics say whether Redis and the MQTT broker answer this process, when it is configured to use them:
// the real Redis and Mosquitto, each behind a proxy the test cuts and restores. Neither is needed to serve
// (decision 075): readiness, which anyone may read, stays 200 and says nothing of them (it would tell the
// world when the sign-in limits go uncounted). Without them configured the metrics have neither
// (metrics.int.test.ts).
import net from 'node:net';
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forgetSessions, mqttTestSettings } from '@/modules/iot/iot.test-helpers.js';
import { createTestContext, type TestContext } from '@/test/harness.js';
import { MQTT_TEST_URL } from '@/test/mqtt.js';
import { REDIS_TEST_URL, testRedisAnswers } from '@/test/redis.js';

const TOKEN = 'a-metrics-token-of-the-test';

/** A TCP proxy to `target` that can be cut (every connection ends, new ones are refused) and restored. */
async function proxyTo(target: string) {
  const { hostname, port } = new URL(target);
  const sockets = new Set<net.Socket>();
  let cut = false;
  const server = net.createServer((client) => {
    if (cut) return void client.destroy();
    const upstream = net.connect({ host: hostname, port: Number(port) });
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => undefined);
    }
    client.pipe(upstream).pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    cut() {
      cut = true;
      for (const socket of sockets) socket.destroy();
    },
    restore() {
      cut = false;
    },
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function readiness(context: TestContext) {
  const answer = await context.app.inject({ method: 'GET', url: '/api/health/ready' });
  return { status: answer.statusCode, body: answer.json<Record<string, string>>() };
}

/** The samples of the two gauges, as `name{label}` → value. */
async function outsideMetrics(context: TestContext) {
  const answer = await context.app.inject({
    method: 'GET',
    url: '/api/metrics',
    headers: { authorization: `Bearer ${TOKEN}` },
  });
  expect(answer.statusCode, answer.body).toBe(200);
  const samples: Record<string, number> = {};
  for (const family of parsePrometheusTextFormat(answer.body)) {
    if (family.name !== 'careplane_outside_service_up' && family.name !== 'careplane_mqtt_connections')
      continue;
    for (const metric of family.metrics) {
      const label = metric.labels?.service ?? metric.labels?.state;
      samples[`${family.name}{${label}}`] = Number(metric.value);
    }
  }
  return samples;
}

const redisAvailable = await testRedisAnswers('Readiness of Redis tests');

describe.skipIf(!redisAvailable)('with Redis and the broker configured', () => {
  const mqtt = mqttTestSettings(2);
  let context: TestContext;
  let redis: Awaited<ReturnType<typeof proxyTo>>;
  let broker: Awaited<ReturnType<typeof proxyTo>>;

  beforeAll(async () => {
    redis = await proxyTo(REDIS_TEST_URL);
    broker = await proxyTo(MQTT_TEST_URL);
    context = await createTestContext({
      ...mqtt.env,
      MQTT_URL: `mqtt://127.0.0.1:${broker.port}`,
      REDIS_URL: `redis://127.0.0.1:${redis.port}`,
      REDIS_KEY_PREFIX: `careplane-test:${mqtt.clientId}:`,
      METRICS_TOKEN: TOKEN,
    });
  });
  afterAll(async () => {
    await context?.close();
    await Promise.all([redis?.close(), broker?.close()]);
    await forgetSessions(mqtt.clientId, mqtt.connections);
  });

  const everythingUp = {
    'careplane_outside_service_up{redis}': 1,
    'careplane_outside_service_up{mqtt_broker}': 1,
    'careplane_mqtt_connections{subscribed}': 2,
    'careplane_mqtt_connections{total}': 2,
  };

  const readyAlone = { status: 200, body: { status: 'ready', database: 'up' } };

  it('says each is up, then down while it is away, and up again when it is back; readiness tells none of it', async () => {
    await expect.poll(() => outsideMetrics(context), { timeout: 15_000 }).toEqual(everythingUp);
    expect(await readiness(context)).toEqual(readyAlone);

    redis.cut();
    await expect
      .poll(() => outsideMetrics(context), { timeout: 15_000 })
      .toEqual({ ...everythingUp, 'careplane_outside_service_up{redis}': 0 });

    broker.cut();
    await expect
      .poll(() => outsideMetrics(context), { timeout: 15_000 })
      .toEqual({
        'careplane_outside_service_up{redis}': 0,
        'careplane_outside_service_up{mqtt_broker}': 0,
        'careplane_mqtt_connections{subscribed}': 0,
        'careplane_mqtt_connections{total}': 2,
      });
    expect(await readiness(context)).toEqual(readyAlone);

    redis.restore();
    broker.restore();
    await expect.poll(() => outsideMetrics(context), { timeout: 15_000 }).toEqual(everythingUp);
  });
});
