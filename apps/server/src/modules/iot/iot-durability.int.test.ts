// Durability: the real server as a child process takes readings over HTTP and over MQTT, is killed with
// SIGKILL in the middle of the stream, and restarts; every reading that was acknowledged (a 201 over HTTP,
// the broker's PUBACK over MQTT) is stored afterwards. The database is an embedded one in a folder of the
// test's own, or a fresh database on DATABASE_URL_TEST.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '@/db/client.js';
import { iotDeviceData, iotDevices, users } from '@/db/schema/index.js';
import { serverRoot } from '@/locations.js';
import { freePort } from '@/test/auth-server.js';
import {
  TEST_ENCRYPTION_KEY,
  TEST_ISSUER,
  createPostgresDatabase,
  createSigner,
  type TokenSigner,
} from '@/test/harness.js';
import { connectPublisher, forgetSessions, mqttTestSettings } from './iot.test-helpers.js';

const mqttSettings = mqttTestSettings(4);
const dataDir = mkdtempSync(path.join(tmpdir(), 'careplane-durability-'));
const T0 = 1_740_000_000_000;
const HTTP_BATCH = 20;

let databaseUrl: string | undefined;
let dropDatabase = async () => {};
let jwks: Server;
let signer: TokenSigner;
let token = '';
let baseUrl = '';
let env: NodeJS.ProcessEnv = {};
const devices = { http: '', mqtt: '', mqttHardware: `HW-durable-${randomUUID().slice(0, 8)}` };

async function withDatabase<T>(work: (handle: DatabaseHandle) => Promise<T>): Promise<T> {
  const handle = await openDatabase(databaseUrl ? { databaseUrl, poolSize: 2 } : { dataDir });
  try {
    return await work(handle);
  } finally {
    await handle.close();
  }
}

/** Starts the server from its sources and waits until it answers (and its MQTT sessions have subscribed). */
async function startServer(): Promise<{ child: ChildProcess; output: () => string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: serverRoot,
    stdio: ['ignore', 'pipe', 'pipe'],
    env,
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  await expect
    .poll(
      async () => {
        if (child.exitCode !== null) throw new Error(`the server exited:\n${output}`);
        const response = await fetch(`${baseUrl}/api/health`).catch(() => null);
        return response?.status;
      },
      { timeout: 60_000, interval: 200 },
    )
    .toBe(200);
  return { child, output: () => output };
}

beforeAll(async () => {
  signer = await createSigner();
  jwks = createServer((_request, response) => {
    response.setHeader('content-type', 'application/json');
    response.end(JSON.stringify({ keys: [signer.jwk] }));
  });
  jwks.listen(0, '127.0.0.1');
  await once(jwks, 'listening');
  const jwksPort = (jwks.address() as { port: number }).port;

  if (process.env.DATABASE_URL_TEST) {
    const created = await createPostgresDatabase('careplane_durable');
    databaseUrl = created.url;
    dropDatabase = created.drop;
  }

  // The admin who submits over HTTP, and the two devices, written before the server starts.
  const subject = randomUUID();
  await withDatabase(async ({ db }) => {
    await db.insert(users).values({
      username: 'durable@careplane.test',
      usernameWithoutDomain: 'durable',
      primaryDomain: 'careplane.test',
      masterId: subject,
      firstName: 'Dee',
      lastName: 'Durable',
      roles: ['admin'],
      localRoles: ['application_admin'],
    });
    const [http, mqtt] = await db
      .insert(iotDevices)
      .values([
        { hardwareIdentifier: `HW-http-${randomUUID().slice(0, 8)}`, model: 'Pulse', connectionType: 'wifi' },
        { hardwareIdentifier: devices.mqttHardware, model: 'Pulse', connectionType: 'wifi' },
      ])
      .returning({ id: iotDevices.id });
    devices.http = http!.id;
    devices.mqtt = mqtt!.id;
  });
  token = await signer.sign({ roles: ['admin'] }, { subject, expiresInSeconds: 600 });

  const port = await freePort();
  baseUrl = `http://127.0.0.1:${port}`;
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !['DATABASE_URL', 'DATA_DIR'].includes(name)),
  );
  env = {
    ...inherited,
    ...mqttSettings.env,
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : { DATA_DIR: dataDir }),
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: baseUrl,
    AUTH_SERVER: '0',
    AUTH_ISSUER: TEST_ISSUER,
    AUTH_JWKS_URL: `http://127.0.0.1:${jwksPort}/jwks`,
    DEMO_DATA: '0',
    LOG_LEVEL: 'warn',
    ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
    API_WRITE_RATE_LIMIT: '1000000',
  };
}, 120_000);

afterAll(async () => {
  jwks?.close();
  await forgetSessions(mqttSettings.clientId, mqttSettings.connections).catch(() => undefined);
  await dropDatabase();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('a server killed during a stream of readings', () => {
  it('has stored every acknowledged reading after it restarts', async () => {
    let server = await startServer();
    const publisher = await connectPublisher();
    const acknowledged = { http: [] as number[], mqtt: [] as number[] };
    let killed = false;

    // HTTP: batches one after another until the server stops answering.
    const httpStream = (async () => {
      for (let batch = 0; ; batch += 1) {
        const timestamps = Array.from({ length: HTTP_BATCH }, (_, index) => T0 + batch * HTTP_BATCH + index);
        const response = await fetch(`${baseUrl}/api/iot-devices/data/submit`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({
            iotDeviceId: devices.http,
            dataType: 'heart_rate',
            data: timestamps.map((timestamp) => ({ timestamp, rate: 70 })),
          }),
        }).catch(() => null);
        if (!response) return;
        expect(response.status).toBe(201);
        acknowledged.http.push(...timestamps);
      }
    })();

    // MQTT: readings one by one, each acknowledged by the broker, before, during and after the kill.
    const mqttStream = (async () => {
      for (let index = 0; index < 3000; index += 1) {
        const timestamp = T0 + index;
        await publisher.publishAsync(
          `${mqttSettings.prefix}/${devices.mqttHardware}/heart_rate`,
          JSON.stringify({ timestamp, rate: 72 }),
          { qos: 1 },
        );
        acknowledged.mqtt.push(timestamp);
        if (killed && acknowledged.mqtt.length >= 2000) return;
      }
    })();

    // Kill the server once both streams are well under way.
    await expect
      .poll(() => acknowledged.http.length >= 10 * HTTP_BATCH && acknowledged.mqtt.length >= 1000, {
        timeout: 60_000,
        interval: 20,
      })
      .toBe(true);
    server.child.kill('SIGKILL');
    killed = true;
    await once(server.child, 'exit');
    await httpStream;
    await mqttStream;
    await publisher.endAsync();

    server = await startServer();
    // The sessions bring back what the killed server had not acknowledged, and what arrived meanwhile.
    const stored = async (iotDeviceId: string) => {
      const response = await fetch(
        `${baseUrl}/api/iot-devices/data?filters=iotDevice.id~${iotDeviceId}&limit=1`,
        { headers: { authorization: `Bearer ${token}` } },
      );
      return ((await response.json()) as { total: number }).total;
    };
    await expect
      .poll(() => stored(devices.mqtt), { timeout: 60_000, interval: 250 })
      .toBeGreaterThanOrEqual(acknowledged.mqtt.length);
    server.child.kill('SIGTERM');
    await once(server.child, 'exit');

    await withDatabase(async ({ db }) => {
      const timestampsOf = async (iotDeviceId: string) =>
        new Set(
          (
            await db
              .select({ timestamp: iotDeviceData.timestamp })
              .from(iotDeviceData)
              .where(eq(iotDeviceData.iotDeviceId, iotDeviceId))
          ).map((row) => row.timestamp),
        );
      const http = await timestampsOf(devices.http);
      const mqtt = await timestampsOf(devices.mqtt);
      expect(acknowledged.http.filter((timestamp) => !http.has(timestamp))).toEqual([]);
      expect(acknowledged.mqtt.filter((timestamp) => !mqtt.has(timestamp))).toEqual([]);
      expect(acknowledged.http.length).toBeGreaterThanOrEqual(10 * HTTP_BATCH);
      expect(acknowledged.mqtt.length).toBeGreaterThanOrEqual(2000);
    });
  }, 240_000);
});
