// npm run bench:ingest — readings per second into iot_device_data three ways in one run: PostgreSQL COPY of
// the rows (the ceiling), the server's HTTP batch submit, and MQTT at QoS 1 through the broker (each message
// one reading, acknowledged by the server once stored). The server runs as a child process from its sources;
// its CPU time is read from /proc and printed as a share of one core and of the machine. Before MQTT, the same
// publishers send the same messages through the broker to a subscriber that stores nothing and acknowledges at
// once (the server's own MQTT client, in this process): the rate the broker and the publishers allow on the
// machine as it is during the run, the ceiling of the MQTT figure.
// Needs PostgreSQL and a broker (MQTT_URL, default mqtt://127.0.0.1:1883). The database: DATABASE_URL (its rows
// are removed at the end; the server opens its keys there as it always does), else a database
// of the run's own on DATABASE_URL_TEST's server, dropped at the end; with neither (the embedded default) there
// is no COPY to compare with, and the bench reports its rows as not measured.
// Aims: MQTT at least 15,000 readings/s; HTTP batches at least half of COPY. BENCH_SMOKE=1: 2,000 readings.
import { spawn } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { availableParallelism } from 'node:os';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { parseArgs } from 'node:util';
import { eq, inArray } from 'drizzle-orm';
import mqtt from 'mqtt';
import { from as copyFrom } from 'pg-copy-streams';
import { loadConfig } from '@/config.js';
import { openDatabase } from '@/db/client.js';
import { alerts, iotDeviceData, iotDevices, users } from '@/db/schema/index.js';
import { serverRoot } from '@/locations.js';
import { subscribe } from '@/lib/mqtt-subscriber.js';
import { readingRecordId } from '@/modules/iot/iot.service.js';
import { freePort } from '@/test/auth-server.js';
import { TEST_ISSUER, createPostgresDatabase, createSigner } from '@/test/harness.js';
import { type LeanPublisher, connectLeanPublisher } from './lean-publisher.js';
import { SMOKE, emitRow } from './rows.js';

const { values: args } = parseArgs({
  options: {
    readings: { type: 'string', default: SMOKE ? '2000' : '60000' },
    devices: { type: 'string', default: SMOKE ? '5' : '50' },
    'http-batch': { type: 'string', default: SMOKE ? '100' : '500' },
    'http-connections': { type: 'string', default: '4' },
    'mqtt-publishers': { type: 'string', default: SMOKE ? '2' : '16' },
    'mqtt-window': { type: 'string', default: SMOKE ? '100' : '1000' },
    // Readings published over MQTT and not yet stored, at most (below what the broker queues for the server).
    'mqtt-backlog': { type: 'string', default: SMOKE ? '1000' : '10000' },
    // The server's MQTT_CONNECTIONS and MQTT_RECEIVE_MAXIMUM (its defaults unless given).
    'mqtt-connections': { type: 'string', default: process.env.MQTT_CONNECTIONS ?? (SMOKE ? '2' : '16') },
    'mqtt-receive-maximum': { type: 'string', default: process.env.MQTT_RECEIVE_MAXIMUM ?? '1000' },
    // A folder for the server's CPU profile (node --cpu-prof), to see where its time goes.
    profile: { type: 'string' },
    // Which ways to measure besides COPY: http, mqtt or both (the default).
    only: { type: 'string', default: 'http,mqtt' },
  },
});
const N = Number(args.readings);
const DEVICES = Number(args.devices);
const HTTP_BATCH = Number(args['http-batch']);
const HTTP_CONNECTIONS = Number(args['http-connections']);
const PUBLISHERS = Number(args['mqtt-publishers']);
const WINDOW = Number(args['mqtt-window']);
const BACKLOG = Number(args['mqtt-backlog']);
const WAYS = new Set(args.only.split(','));

const env = loadConfig();
const HTTP_PATH = `HTTP batches of ${HTTP_BATCH} readings`;
const MQTT_PATH = 'MQTT QoS 1, 1 reading a message';
const MQTT_CEILING = 'MQTT through the broker, nothing stored (ceiling)';
const HTTP_AIM = 0.5;
const MQTT_AIM = 15_000;
const throwaway =
  !env.databaseUrl && process.env.DATABASE_URL_TEST
    ? await createPostgresDatabase('careplane_bench')
    : undefined;
const databaseUrl = env.databaseUrl ?? throwaway?.url;
if (!databaseUrl) {
  console.error('bench:ingest compares against PostgreSQL COPY: set DATABASE_URL or DATABASE_URL_TEST.');
  for (const [path, aim] of [
    [HTTP_PATH, `≥ ${HTTP_AIM}× COPY`],
    [MQTT_PATH, `≥ ${MQTT_AIM} readings/s`],
  ] as const) {
    emitRow({
      bench: 'ingest',
      path,
      figure: null,
      unit: 'readings/s',
      reference: null,
      referenceName: 'PostgreSQL COPY',
      ratio: null,
      aim,
      met: null,
      note: 'not measured: needs PostgreSQL (DATABASE_URL or DATABASE_URL_TEST)',
    });
  }
  process.exit(0);
}
const mqttUrl = env.mqtt.url ?? 'mqtt://127.0.0.1:1883';
const database = await openDatabase({ databaseUrl, poolSize: 4 });
if (database.driver.kind !== 'postgres') throw new Error('PostgreSQL only');
const { pool } = database.driver;

// --- The admin, the devices, a key set for the admin's token --------------------------------------
const tag = randomUUID().slice(0, 8);
const subject = `bench-ingest-${tag}`;
const [admin] = await database.db
  .insert(users)
  .values({
    username: `${subject}@bench.careplane.local`,
    usernameWithoutDomain: subject,
    primaryDomain: 'bench.careplane.local',
    masterId: subject,
    roles: ['admin'],
  })
  .returning({ id: users.id });
const makeDevices = async (kind: string) =>
  database.db
    .insert(iotDevices)
    .values(
      Array.from({ length: DEVICES }, (_, index) => ({
        hardwareIdentifier: `bench-${tag}-${kind}-${index}`,
        model: 'Bench pulse',
        connectionType: 'wifi',
      })),
    )
    .returning({ id: iotDevices.id, hardwareIdentifier: iotDevices.hardwareIdentifier });
const copyDevices = await makeDevices('copy');
const httpDevices = await makeDevices('http');
const mqttDevices = await makeDevices('mqtt');

const signer = await createSigner('bench');
const token = await signer.sign({ roles: ['admin'] }, { subject, expiresInSeconds: 3600 });
const jwks = createServer((_request, response) => {
  response.setHeader('content-type', 'application/json');
  response.end(JSON.stringify({ keys: [signer.jwk] }));
});
jwks.listen(0, '127.0.0.1');
await once(jwks, 'listening');

// --- The server, a child process -------------------------------------------------------------------
const port = await freePort();
const baseUrl = `http://127.0.0.1:${port}`;
const prefix = `bench-${tag}/iot`;
const clientId = `cpb-${tag}`;
const mqttConnections = Number(args['mqtt-connections']);
const profiling = args.profile ? ['--cpu-prof', `--cpu-prof-dir=${args.profile}`] : [];
// The Node flags of `npm start` (apps/server/package.json); BENCH_NODE_ARGS replaces them to compare.
const nodeArgs = (process.env.BENCH_NODE_ARGS ?? '--max-semi-space-size=64').split(' ').filter(Boolean);
const server = spawn(process.execPath, [...profiling, ...nodeArgs, '--import', 'tsx', 'src/main.ts'], {
  cwd: serverRoot,
  stdio: ['ignore', 'inherit', 'inherit'],
  env: {
    ...process.env,
    DATABASE_URL: databaseUrl,
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: baseUrl,
    AUTH_SERVER: '0',
    AUTH_ISSUER: TEST_ISSUER,
    AUTH_JWKS_URL: `http://127.0.0.1:${(jwks.address() as { port: number }).port}/jwks`,
    DEMO_DATA: '0',
    LOG_LEVEL: 'warn',
    // On DATABASE_URL the server finds its encryption key as it always does (ENCRYPTION_KEY, ENCRYPTION_KEY_FILE
    // or the key generated in DATA_DIR), so it opens the keys sealed there; on the run's own database, a key
    // of the bench's (the server seals its keys with it at the first start).
    ...(throwaway && !process.env.ENCRYPTION_KEY
      ? { ENCRYPTION_KEY: createHash('sha256').update('bench:ingest').digest('hex') }
      : {}),
    API_WRITE_RATE_LIMIT: '100000000',
    MQTT_URL: mqttUrl,
    MQTT_TOPIC_PREFIX: prefix,
    MQTT_SHARE_GROUP: `bench-${tag}`,
    MQTT_CLIENT_ID: clientId,
    MQTT_CONNECTIONS: String(mqttConnections),
    MQTT_RECEIVE_MAXIMUM: args['mqtt-receive-maximum'],
    MQTT_SESSION_EXPIRY: '60',
  },
});
for (let started = Date.now(); ;) {
  const response = await fetch(`${baseUrl}/api/health`).catch(() => null);
  if (response?.ok) break;
  if (server.exitCode !== null || Date.now() - started > 60_000) throw new Error('the server did not start');
  await new Promise((resolve) => setTimeout(resolve, 200));
}

/** CPU seconds the server process has used (user + system), from /proc. */
const TICKS = 100;
function serverCpu() {
  const fields = readFileSync(`/proc/${server.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICKS;
}

interface Result {
  name: string;
  seconds: number;
  cpu: number | null;
  /** CPU seconds of this process (the clients: HTTP requests, MQTT publishers), for the machine's split. */
  clientCpu: number;
}
const results: Result[] = [];
async function measure(name: string, withServer: boolean, work: () => Promise<void>) {
  const cpu = withServer ? serverCpu() : 0;
  const client = process.cpuUsage();
  const started = process.hrtime.bigint();
  await work();
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const used = process.cpuUsage(client);
  results.push({
    name,
    seconds,
    cpu: withServer ? serverCpu() - cpu : null,
    clientCpu: (used.user + used.system) / 1e6,
  });
  console.log(`${name}: ${Math.round(N / seconds)} readings/s (${seconds.toFixed(2)} s)`);
}

const T0 = Date.now() - 30 * 24 * 3600 * 1000;
const readingOf = (index: number) => ({ timestamp: T0 + index, rate: 60 + (index % 50) });
const deviceOf = <T>(list: T[], index: number) => list[index % list.length]!;

// --- COPY: the same rows as the server writes over HTTP (ids, JSON, device, the admin as creator) -----
await measure('PostgreSQL COPY', false, async () => {
  const client = await pool.connect();
  try {
    const csv = (value: string) => `"${value.replace(/"/g, '""')}"`;
    const lines = function* () {
      const chunk: string[] = [];
      for (let index = 0; index < N; index += 1) {
        const device = deviceOf(copyDevices, index);
        const reading = readingOf(index);
        const id = readingRecordId(device.id, 'heart_rate', reading);
        const data = csv(JSON.stringify(reading));
        chunk.push(`${id},${reading.timestamp},heart_rate,${data},${device.id},${admin!.id}\n`);
        if (chunk.length === 1000) yield chunk.splice(0).join('');
      }
      if (chunk.length) yield chunk.join('');
    };
    await pipeline(
      Readable.from(lines()),
      client.query(
        copyFrom(
          'COPY iot_device_data (id, timestamp, data_type, data, iot_device_id, created_by_user_id) FROM STDIN (FORMAT csv)',
        ),
      ),
    );
  } finally {
    client.release();
  }
});

// --- HTTP batches --------------------------------------------------------------------------------------
if (WAYS.has('http'))
  await measure(`HTTP batches of ${HTTP_BATCH} (${HTTP_CONNECTIONS} at a time)`, true, async () => {
    let next = 0;
    await Promise.all(
      Array.from({ length: HTTP_CONNECTIONS }, async () => {
        for (;;) {
          const start = next;
          if (start >= N) return;
          next += HTTP_BATCH;
          const end = Math.min(N, start + HTTP_BATCH);
          const device = deviceOf(httpDevices, start / HTTP_BATCH);
          const data = [];
          for (let index = start; index < end; index += 1) data.push(readingOf(index));
          const response = await fetch(`${baseUrl}/api/iot-devices/data/submit`, {
            method: 'POST',
            headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
            body: JSON.stringify({ iotDeviceId: device.id, dataType: 'heart_rate', data }),
          });
          if (response.status !== 201) throw new Error(`HTTP ${response.status}: ${await response.text()}`);
          await response.arrayBuffer();
        }
      }),
    );
  });

// --- MQTT, one reading per message, until every one is stored -----------------------------------------
// The broker acknowledges a publish on receipt, so publishers faster than the server would only fill the
// broker's queues, and Mosquitto drops QoS 1 messages beyond max_queued_messages per session. The publishers
// therefore keep at most BACKLOG readings published and not yet stored, as devices that back off would: the
// figure is the rate the server sustains, not the rate a queue fills.
const mqttIds = mqttDevices.map((device) => device.id);
const storedInDatabase = async () =>
  Number(
    (
      await pool.query<{ n: number }>(
        'select count(*)::int as n from iot_device_data where iot_device_id = any($1::uuid[])',
        [mqttIds],
      )
    ).rows[0]!.n,
  );
/** What the server reports it has stored over MQTT (its own counter: polling it costs the database nothing). */
const storedOverMqtt = async () => {
  const response = await fetch(`${baseUrl}/api/iot-devices/ingestion`, {
    headers: { authorization: `Bearer ${token}` },
  });
  if (!response.ok) throw new Error(`ingestion counts: HTTP ${response.status}`);
  return ((await response.json()) as { mqtt: { stored: number } }).mqtt.stored;
};
/**
 * Publishes N readings, one a message, keeping at most BACKLOG published and not yet counted by `counted`
 * (polled every 50 ms); resolves when `counted` reaches N.
 */
async function publishAll(
  publishers: LeanPublisher[],
  topicPrefix: string,
  devices: { hardwareIdentifier: string }[],
  counted: () => Promise<number>,
) {
  let next = 0;
  let stored = 0;
  // Settles at each new count; publishers waiting on the backlog wake then.
  const nextCount = () => {
    let resolve!: () => void;
    const promise = new Promise<void>((settle) => (resolve = settle));
    return { promise, resolve };
  };
  let progress = nextCount();
  // Counts what is stored every 50 ms; a count that stops growing while readings are missing means the
  // broker dropped some, and waiting longer would not bring them.
  const watching = (async () => {
    for (let still = Date.now(); stored < N;) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      const now = await counted();
      if (now > stored) [stored, still] = [now, Date.now()];
      else if (Date.now() - still > 15_000) {
        throw new Error(
          `only ${stored} of ${N} readings arrived: the broker dropped messages (max_queued_messages)`,
        );
      }
      progress.resolve();
      progress = nextCount();
    }
  })();
  const publishing = Promise.all(
    publishers.map(async (publisher) => {
      while (next < N) {
        if (next - stored >= BACKLOG) {
          await progress.promise;
          continue;
        }
        const index = next;
        next += 1;
        const device = deviceOf(devices, index);
        const topic = `${topicPrefix}/${device.hardwareIdentifier}/heart_rate`;
        await publisher.publish(topic, JSON.stringify(readingOf(index)));
      }
      await publisher.drained();
    }),
  );
  await Promise.all([publishing, watching]);
}

if (WAYS.has('mqtt')) {
  const publishers = await Promise.all(
    Array.from({ length: PUBLISHERS }, (_, index) =>
      connectLeanPublisher(mqttUrl, `${clientId}-pub-${index}`, WINDOW),
    ),
  );
  // The ceiling: the same publishing through the broker to as many connections of the server's MQTT client,
  // acknowledging each message at once and storing nothing.
  const ceilingPrefix = `bench-${tag}/ceiling`;
  let received = 0;
  const quiet = { info: () => undefined, warn: () => undefined, error: console.error };
  const ceilingSubscriptions = Array.from({ length: mqttConnections }, (_, index) =>
    subscribe({
      url: mqttUrl,
      clientId: `${clientId}-ceiling-${index}`,
      filter: `$share/bench-${tag}-ceiling/${ceilingPrefix}/+/+`,
      sessionExpiry: 0,
      receiveMaximum: Number(args['mqtt-receive-maximum']),
      onMessage: async () => {
        received += 1;
      },
      log: quiet,
    }),
  );
  await Promise.all(ceilingSubscriptions.map((subscription) => subscription.ready));
  await measure(MQTT_CEILING, false, () =>
    publishAll(publishers, ceilingPrefix, mqttDevices, async () => received),
  );
  await Promise.all(ceilingSubscriptions.map((subscription) => subscription.close()));

  await measure(`MQTT QoS 1, 1 reading per message (${PUBLISHERS} publishers)`, true, () =>
    publishAll(publishers, prefix, mqttDevices, storedOverMqtt),
  );
  await Promise.all(publishers.map((publisher) => publisher.end()));
  const inDatabase = await storedInDatabase();
  if (inDatabase !== N)
    throw new Error(`the server counted ${N} readings stored, the database holds ${inDatabase}`);
}

// --- The figures -------------------------------------------------------------------------------------------
const cores = availableParallelism();
const copy = results[0]!;
console.log(`\n${N} readings each, ${DEVICES} devices per way, ${cores} cores\n`);
console.log(
  '| way | readings/s | × COPY | server CPU (of one core) | server CPU (of the machine) | bench clients CPU (of one core) |',
);
console.log('| --- | ---: | ---: | ---: | ---: | ---: |');
for (const result of results) {
  const rate = N / result.seconds;
  const share = result.cpu === null ? null : result.cpu / result.seconds;
  console.log(
    `| ${result.name} | ${Math.round(rate)} | ${(copy.seconds / result.seconds).toFixed(2)} | ` +
      `${share === null ? '—' : `${Math.round(share * 100)} %`} | ` +
      `${share === null ? '—' : `${Math.round((share / cores) * 100)} %`} | ` +
      `${Math.round((result.clientCpu / result.seconds) * 100)} % |`,
  );
}

// The server's broker sessions would outlive it: end them, then the server.
server.kill('SIGTERM');
await once(server, 'exit');
await Promise.all(
  Array.from({ length: mqttConnections }, async (_, index) => {
    const client = await mqtt.connectAsync(mqttUrl, {
      clientId: `${clientId}-${index}`,
      protocolVersion: 5,
      clean: true,
      properties: { sessionExpiryInterval: 0 },
      reconnectPeriod: 0,
    });
    await client.endAsync();
  }),
);
jwks.close();
// On DATABASE_URL's database (one filled by `npm run seed`, say) the run takes back the rows it wrote: readings,
// any alert they opened, its devices and its admin, so later benches there see the data they were given. The
// audit rows of its batches stay, as every audit row does.
if (!throwaway) {
  const ids = [...copyDevices, ...httpDevices, ...mqttDevices].map((device) => device.id);
  await database.db.delete(iotDeviceData).where(inArray(iotDeviceData.iotDeviceId, ids));
  await database.db.delete(alerts).where(inArray(alerts.iotDeviceId, ids));
  await database.db.delete(iotDevices).where(inArray(iotDevices.id, ids));
  await database.db.delete(users).where(eq(users.id, admin!.id));
}
await database.close();
await throwaway?.drop();

const copyRate = N / copy.seconds;
const note = `${N} readings, ${DEVICES} devices a way; ${throwaway ? "the run's own database" : 'DATABASE_URL'}`;
const ceiling = results.find((result) => result.name === MQTT_CEILING);
for (const result of results.slice(1)) {
  if (result === ceiling) continue;
  const rate = N / result.seconds;
  const http = result.name.startsWith('HTTP');
  emitRow({
    bench: 'ingest',
    path: http ? HTTP_PATH : MQTT_PATH,
    figure: rate,
    unit: 'readings/s',
    reference: copyRate,
    referenceName: 'PostgreSQL COPY',
    ratio: rate / copyRate,
    aim: http ? `≥ ${HTTP_AIM}× COPY` : `≥ ${MQTT_AIM} readings/s`,
    met: http ? rate / copyRate >= HTTP_AIM : rate >= MQTT_AIM,
    note:
      !http && ceiling
        ? `${note}; the broker and publishers alone, nothing stored: ${Math.round(N / ceiling.seconds)} readings/s`
        : note,
  });
}
