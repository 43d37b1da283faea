// npm run bench:api — list queries through the API (wrk, else autocannon, 50 connections, in a process of its
// own: load.ts) against the same SQL replayed on the raw driver with the same concurrency, alternating, and
// printed as ratios. Two bare Fastify routes frame the distance: one sending the same bytes (what HTTP alone
// allows) and one sending the same SQL first (the least any API can cost here). Needs scale data:
// `npm run seed -- --scale large` first (same DATABASE_URL or DATA_DIR).
// BENCH_SMOKE=1: a throwaway database (on DATABASE_URL_TEST's server, else embedded in memory) with a tiny
// batch of scale data, and seconds of load.
import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { eq } from 'drizzle-orm';
import Fastify from 'fastify';
import { createLocalJWKSet } from 'jose';
import { buildApp } from '@/app.js';
import { loadConfig } from '@/config.js';
import { openDatabase, type DatabaseHandle } from '@/db/client.js';
import { users } from '@/db/schema/index.js';
import { generateScaleData } from '@/db/seed/scale.js';
import { statementName } from '@/lib/resources/answer-sql.js';
import {
  TEST_AUDIENCE,
  TEST_CA_PASSPHRASE,
  TEST_ENCRYPTION_KEY,
  TEST_ISSUER,
  createPostgresDatabase,
  createSigner,
} from '@/test/harness.js';
import { download, runLoad, type LoadGenerator } from './load.js';
import { SMOKE, emitRow } from './rows.js';

const { values: args } = parseArgs({
  options: {
    connections: { type: 'string', default: SMOKE ? '10' : '50' },
    duration: { type: 'string', default: SMOKE ? '1' : '8' },
    rounds: { type: 'string', default: SMOKE ? '1' : '2' },
    /** Seconds of unmeasured load on each path before its rounds (API and raw driver alike). */
    warmup: { type: 'string', default: SMOKE ? '0' : '2' },
    /** Only the scenarios whose path contains this text (to profile one). */
    only: { type: 'string' },
  },
});
const connections = Number(args.connections);
const duration = Number(args.duration);
const rounds = Number(args.rounds);
const warmup = Number(args.warmup);

interface Captured {
  query: string;
  params: unknown[];
}
let capture: Captured[] | null = null;

const env = loadConfig();
const onQuery = (query: string, params: unknown[]) => capture?.push({ query, params });
let database: DatabaseHandle;
let dropDatabase = async (): Promise<void> => undefined;
if (SMOKE) {
  if (process.env.DATABASE_URL_TEST) {
    const created = await createPostgresDatabase('careplane_bench');
    database = await openDatabase({ databaseUrl: created.url, poolSize: 20, onQuery });
    dropDatabase = created.drop;
  } else database = await openDatabase({ onQuery });
  await generateScaleData(database, { users: 200, readings: 2000 });
} else {
  database = await openDatabase({
    databaseUrl: env.databaseUrl,
    dataDir: env.dataDir,
    poolSize: 20,
    onQuery,
  });
}
const config = loadConfig({
  ...process.env,
  AUTH_ISSUER: TEST_ISSUER,
  AUTH_AUDIENCE: TEST_AUDIENCE,
  LOG_LEVEL: 'silent',
  // A throwaway database gets throwaway secrets, as in the tests: nothing is generated into the working copy's
  // DATA_DIR. On DATABASE_URL's or DATA_DIR's data the server's own key opens what the server sealed there.
  ...(SMOKE ? { ENCRYPTION_KEY: TEST_ENCRYPTION_KEY, DOCUMENTS_CA_PASSPHRASE: TEST_CA_PASSPHRASE } : {}),
});
const signer = await createSigner('bench');
const app = await buildApp(config, {
  database,
  keys: createLocalJWKSet({ keys: [signer.jwk] }),
  logger: false,
});

const subject = `bench-${randomUUID()}`;
await database.db.insert(users).values({
  username: `${subject}@bench.careplane.local`,
  usernameWithoutDomain: subject,
  primaryDomain: 'bench.careplane.local',
  masterId: subject,
  roles: ['admin'],
});
const token = await signer.sign({ roles: ['admin'] }, { subject, expiresInSeconds: 3600 });
const address = await app.listen({ port: 0, host: '127.0.0.1' });

// The ceiling HTTP sets for each answer: a bare Fastify route (no hooks, no database) sending the same bytes
// under the same load. The raw driver's figure never pays for HTTP; this shows how much of the distance is
// carrying the answer at all.
// Between the two, the least any API can cost: a bare route that sends the same statements, in the same shape,
// and answers the same bytes. What separates it from the raw driver is HTTP on this machine's cores (the
// load generator's included); what separates the API from it is the API's own work per request.
let bareAnswer = '';
let bareStatements: Captured[] = [];
const bare = Fastify({ logger: false });
bare.get('/answer', (_request, reply) => reply.type('application/json; charset=utf-8').send(bareAnswer));
bare.get('/replay', async (_request, reply) => {
  await replay(bareStatements);
  return reply.type('application/json; charset=utf-8').send(bareAnswer);
});
const bareAddress = await bare.listen({ port: 0, host: '127.0.0.1' });

const count = async (table: string) =>
  Number(((await database.rawQuery(`select count(*)::int as n from ${table}`)).rows[0] as { n: number }).n);
const userCount = await count('users');
const readingCount = await count('iot_device_data');
const busiest = (
  await database.rawQuery(
    `select iot_device_id as id, min(timestamp)::float8 as first, max(timestamp)::float8 as last
       from iot_device_data where iot_device_id = (select id from iot_devices order by id limit 1)
       group by iot_device_id`,
  )
).rows[0] as { id: string; first: number; last: number } | undefined;
if (!busiest) throw new Error('No IoT readings: run `npm run seed -- --scale large` first.');
const middle = Math.round((busiest.first + busiest.last) / 2);
const day = 24 * 3600 * 1000;

const scenarios = [
  {
    path: 'GET /api/users relations+filtersLike',
    name: 'users + patientProfile,commandCenters + filtersLike',
    url: '/api/users?relations=patientProfile,commandCenters&filtersLike=lastName~boon&limit=20',
  },
  {
    path: 'GET /api/users … sort=lastName',
    name: 'users by last name + patientProfile,commandCenters + filtersLike',
    url: '/api/users?relations=patientProfile,commandCenters&filtersLike=lastName~boon&sort=lastName:asc&limit=20',
  },
  {
    path: 'GET /api/users … count=false',
    name: 'the same, rows only (count=false, as the console asks)',
    url: '/api/users?relations=patientProfile,commandCenters&filtersLike=lastName~boon&sort=lastName:asc&limit=20&count=false',
  },
  {
    path: 'GET /api/iot-devices/data (one device, 2 days)',
    name: "one IoT device's readings, two-day range, by timestamp, at most 100",
    url: `/api/iot-devices/data?filters=iotDevice.id~${busiest.id}&from=${middle - day}&to=${middle + day}&sort=timestamp:desc&limit=100`,
  },
  {
    path: 'GET /api/devices relations=stats',
    name: 'devices with their latest stats',
    url: '/api/devices?relations=stats&limit=20',
  },
];

interface Result {
  rps: number;
  p50: number;
  p99: number;
  /** CPU time this process spent per request (µs): the server's, or the raw driver loop's. */
  cpu: number;
  /** CPU time the load generator spent per request (µs), and which one ran; none for the raw driver loop. */
  generatorCpu?: number;
  generator?: LoadGenerator;
}

/** `work`'s result, with the CPU time this process spent per request it answered, in µs. */
async function measuringCpu<T extends { requests: number }>(
  work: () => Promise<T>,
): Promise<T & { cpu: number }> {
  const before = process.cpuUsage();
  const done = await work();
  const used = process.cpuUsage(before);
  return { ...done, cpu: done.requests ? (used.user + used.system) / done.requests : 0 };
}

async function runApi(url: string, seconds = duration): Promise<Result> {
  // The load generator runs in a process of its own, off the server's event loop.
  const result = await measuringCpu(() =>
    runLoad({
      url: address,
      path: url,
      connections,
      duration: seconds,
      headers: { authorization: `Bearer ${token}` },
    }),
  );
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${url}: ${result.non2xx} answers were not successful, ${result.errors} errors`);
  return {
    rps: result.rps,
    p50: result.p50,
    p99: result.p99,
    cpu: result.cpu,
    generatorCpu: result.generatorCpu,
    generator: result.generator,
  };
}

/**
 * The statements one API call sends, in order, minus the caller lookup (cached by the API after the first call),
 * and what the call answers: the rows on the page and the total that matched.
 */
async function captureSql(
  url: string,
): Promise<{ statements: Captured[]; rows: number; total: number | null; body: string }> {
  await app.inject({ url, headers: { authorization: `Bearer ${token}` } });
  capture = [];
  const response = await app.inject({ url, headers: { authorization: `Bearer ${token}` } });
  const captured = capture;
  capture = null;
  if (response.statusCode !== 200) throw new Error(`${url}: ${response.statusCode} ${response.body}`);
  const page = response.json<{ items: unknown[]; total: number | null }>();
  return { statements: captured, rows: page.items.length, total: page.total, body: response.body };
}

/**
 * One statement as the API sends it: prepared under the same name when the API prepares it (parsed once per
 * connection), else unnamed. Replaying a prepared statement unnamed would charge the reference a parse and a
 * plan the API does not pay.
 */
const run = (statement: Captured) =>
  database.rawQuery(statement.query, statement.params, statementName(statement.query));

/** The statement that counts every match (sent only when the page does not tell the total). */
const isCount = (statement: Captured) => statement.query.startsWith('select count(*)::int as "total" from');

/** One API call's statements in the API's shape: the page first (in json form with its relations), then the
 * rest, any count beside any embedding query (row form). */
async function replay(statements: Captured[]): Promise<void> {
  const [page, ...rest] = statements;
  await run(page!);
  await Promise.all([
    (async () => {
      for (const statement of rest) if (!isCount(statement)) await run(statement);
    })(),
    ...rest.filter(isCount).map(run),
  ]);
}

async function runRaw(statements: Captured[], seconds = duration): Promise<Result> {
  const latencies: number[] = [];
  const deadline = Date.now() + seconds * 1000;
  const worker = async () => {
    while (Date.now() < deadline) {
      const started = performance.now();
      await replay(statements);
      latencies.push(performance.now() - started);
    }
  };
  const { cpu } = await measuringCpu(async () => {
    await Promise.all(Array.from({ length: connections }, worker));
    return { requests: latencies.length };
  });
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
  return { rps: latencies.length / seconds, p50: at(0.5), p99: at(0.99), cpu };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
const fmt = (r: Result) =>
  `${r.rps.toFixed(0).padStart(6)} req/s  p50 ${r.p50.toFixed(1).padStart(6)} ms  p99 ${r.p99.toFixed(1).padStart(6)} ms  CPU ${r.cpu.toFixed(0).padStart(5)} µs/request${r.generatorCpu === undefined ? '' : ` (load generator, ${r.generator}: ${r.generatorCpu.toFixed(0)} µs)`}`;

console.log(
  `bench:api on ${database.kind}: ${userCount} users, ${readingCount} readings; ${connections} connections, ${duration}s x ${rounds} rounds each, alternating, after ${warmup}s of each unmeasured`,
);
for (const scenario of scenarios.filter((one) => !args.only || one.path.includes(args.only))) {
  const { statements, rows, total, body } = await captureSql(scenario.url);
  const api: Result[] = [];
  const raw: Result[] = [];
  // The first path of a run used to meet cold code and cold database pages in its first API round only: both
  // sides warm first, unmeasured.
  if (warmup > 0) {
    await runApi(scenario.url, warmup);
    await runRaw(statements, warmup);
  }
  for (let round = 0; round < rounds; round++) {
    api.push(await runApi(scenario.url));
    raw.push(await runRaw(statements));
  }
  bareAnswer = body;
  bareStatements = statements;
  const ceiling = await runLoad({ url: bareAddress, path: '/answer', connections, duration });
  const floor = await measuringCpu(() =>
    runLoad({ url: bareAddress, path: '/replay', connections, duration }),
  );
  if (floor.non2xx > 0 || floor.errors > 0) throw new Error(`${scenario.url}: the bare replay failed`);
  const apiRps = median(api.map((r) => r.rps));
  const rawRps = median(raw.map((r) => r.rps));
  // What the query really returns, measured, not what its limit promises.
  console.log(
    `\n${scenario.name}: ${rows} rows of ${total ?? 'uncounted'} matching  (${statements.length} statement${statements.length === 1 ? '' : 's'})`,
  );
  console.log(`  api  ${fmt(api[api.length - 1]!)}`);
  console.log(`  raw  ${fmt(raw[raw.length - 1]!)}`);
  console.log(`  bare route, same ${body.length} bytes: ${ceiling.rps.toFixed(0)} req/s`);
  console.log(
    `  bare route, same SQL, same bytes: ${floor.rps.toFixed(0)} req/s, CPU ${floor.cpu.toFixed(0)} µs/request, load generator ${floor.generatorCpu.toFixed(0)} µs (${(floor.rps / rawRps).toFixed(2)}× raw; the api is ${(apiRps / floor.rps).toFixed(2)}× this)`,
  );
  console.log(`  ratio api/raw (median req/s): ${(apiRps / rawRps).toFixed(2)}`);
  emitRow({
    bench: 'api',
    path: scenario.path,
    figure: apiRps,
    unit: 'req/s',
    reference: rawRps,
    referenceName: 'raw driver, same SQL',
    ratio: apiRps / rawRps,
    aim: '≥ 0.8× raw',
    met: apiRps / rawRps >= 0.8,
    note: `${database.kind}, ${connections} connections, load from ${api[0]!.generator}; ${scenario.path}: ${rows} rows of ${total ?? 'uncounted'}, ${body.length} B, a bare route sending the same bytes ${ceiling.rps.toFixed(0)} req/s, one sending the same SQL first ${floor.rps.toFixed(0)} req/s (${(floor.rps / rawRps).toFixed(2)}× raw); server CPU per request ${median(api.map((r) => r.cpu)).toFixed(0)} µs, the bare route's ${floor.cpu.toFixed(0)} µs; the load generator's ${median(api.map((r) => r.generatorCpu ?? 0)).toFixed(0)} µs`,
  });
}

// The CSV export: every user, one download at a time, read to its end by a process of its own, against the raw
// driver sending the same statements one after another (the pages and their relations, as the export did). One
// statement reading the same rows in the same order frames what the database needs at least.
const exportScenarios = [
  {
    path: 'GET /api/users/export.csv sort=lastName',
    name: 'every user as CSV, by name',
    url: '/api/users/export.csv?sort=lastName:asc',
    oneStatement: 'select * from users order by last_name asc, first_name asc, id asc',
  },
  {
    path: 'GET /api/users/export.csv (newest first)',
    name: 'every user as CSV, in the default order',
    url: '/api/users/export.csv',
    oneStatement: 'select * from users order by created_at desc, id desc',
  },
];
for (const scenario of exportScenarios.filter((one) => !args.only || one.path.includes(args.only))) {
  const headers = { authorization: `Bearer ${token}` };
  capture = [];
  const response = await app.inject({ url: scenario.url, headers });
  const statements = capture;
  capture = null;
  if (response.statusCode !== 200)
    throw new Error(`${scenario.url}: ${response.statusCode} ${response.body}`);
  // Header and rows; a value never holds a line break of its own in this data.
  const rows = response.body.split('\r\n').length - 2;
  const timed = async <T>(work: () => Promise<T>) => {
    const started = performance.now();
    await work();
    return (performance.now() - started) / 1000;
  };
  // Seconds to the last byte (or row), and this process's CPU time per row in µs: the server's, or the raw
  // driver loop's.
  const downloadOnce = async () => {
    const done = await measuringCpu(async () => {
      const answer = await download(address, scenario.url, headers);
      return { ...answer, requests: rows };
    });
    if (done.status !== 200) throw new Error(`${scenario.url}: ${done.status}`);
    return done;
  };
  const replayOnce = () =>
    measuringCpu(async () => ({
      seconds: await timed(async () => {
        for (const statement of statements) await run(statement);
      }),
      requests: rows,
    }));
  if (warmup > 0) {
    await downloadOnce();
    await replayOnce();
  }
  const api: { seconds: number; cpu: number }[] = [];
  const raw: { seconds: number; cpu: number }[] = [];
  let bytes = 0;
  for (let round = 0; round < rounds; round++) {
    const done = await downloadOnce();
    api.push(done);
    bytes = done.bytes;
    raw.push(await replayOnce());
  }
  const once: number[] = [];
  for (let round = 0; round < 3; round++)
    once.push(await timed(() => database.rawQuery(scenario.oneStatement)));
  const one = median(once);
  const apiSeconds = median(api.map((r) => r.seconds));
  const rawSeconds = median(raw.map((r) => r.seconds));
  const apiCpu = median(api.map((r) => r.cpu));
  const rawCpu = median(raw.map((r) => r.cpu));
  console.log(`\n${scenario.name}: ${rows} rows, ${bytes} B, ${statements.length} statements`);
  console.log(
    `  api  ${(rows / apiSeconds).toFixed(0).padStart(7)} rows/s  ${(apiSeconds * 1000).toFixed(0)} ms  CPU ${apiCpu.toFixed(1)} µs/row`,
  );
  console.log(
    `  raw  ${(rows / rawSeconds).toFixed(0).padStart(7)} rows/s  ${(rawSeconds * 1000).toFixed(0)} ms  CPU ${rawCpu.toFixed(1)} µs/row`,
  );
  console.log(`  one statement, the same rows in the same order: ${(one * 1000).toFixed(0)} ms`);
  console.log(`  ratio api/raw: ${(rawSeconds / apiSeconds).toFixed(2)}`);
  emitRow({
    bench: 'api',
    path: scenario.path,
    figure: rows / apiSeconds,
    unit: 'rows/s',
    reference: rows / rawSeconds,
    referenceName: 'raw driver, same SQL',
    ratio: rawSeconds / apiSeconds,
    aim: '≥ 0.8× raw',
    met: rawSeconds / apiSeconds >= 0.8,
    note: `${database.kind}, one download at a time; ${rows} rows, ${bytes} B in ${(apiSeconds * 1000).toFixed(0)} ms through the API, its ${statements.length} statements ${(rawSeconds * 1000).toFixed(0)} ms on the raw driver (sent one after another; the export reads a page ahead); server CPU ${apiCpu.toFixed(1)} µs a row, the raw driver loop's ${rawCpu.toFixed(1)} µs; one statement reading the same rows in the same order ${(one * 1000).toFixed(0)} ms`,
  });
}

await database.db.delete(users).where(eq(users.masterId, subject));
await bare.close();
await app.close();
await database.close();
await dropDatabase();
