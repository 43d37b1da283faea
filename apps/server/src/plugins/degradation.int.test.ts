// How the server degrades: a database that cannot be reached answers 503 with Retry-After (not 500), and
// answers again once it is back; a lock held by another task gives 503 after the lock deadline, and a request
// that passes its own deadline 504; live event streams are capped per ticket and per person (429). The database
// faults need a PostgreSQL server (DATABASE_URL_TEST); the stream caps run on both databases.
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { createLocalJWKSet } from 'jose';
import pg from 'pg';
import { CONSOLE_CLIENT_ID } from '@careplane/shared/auth/clients';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '@/app.js';
import { loadConfig } from '@/config.js';
import { openDatabase } from '@/db/client.js';
import { users } from '@/db/schema/index.js';
import { freePort, startAuthTestServer } from '@/test/auth-server.js';
import {
  TEST_AUDIENCE,
  TEST_CA_PASSPHRASE,
  TEST_ENCRYPTION_KEY,
  TEST_ISSUER,
  api,
  createPostgresDatabase,
  createSigner,
  createTestContext,
  type TestContext,
} from '@/test/harness.js';

const postgres = process.env.DATABASE_URL_TEST;

/** A TCP hop between the server and PostgreSQL that a test cuts and restores, as a network fault would. */
async function databaseProxy(target: URL) {
  const sockets = new Set<Socket>();
  const port = await freePort();
  let server: Server | undefined;
  const restore = async () => {
    server = createServer((client) => {
      const upstream = createConnection(Number(target.port || 5432), target.hostname);
      for (const socket of [client, upstream]) {
        sockets.add(socket);
        socket.on('error', () => undefined).on('close', () => sockets.delete(socket));
      }
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
      client.pipe(upstream).pipe(client);
    });
    server.listen(port, '127.0.0.1');
    await once(server, 'listening');
  };
  const cut = async () => {
    const closing = server ? once(server, 'close') : Promise.resolve();
    server?.close();
    for (const socket of sockets) socket.destroy();
    await closing;
  };
  await restore();
  const url = new URL(target);
  url.host = `127.0.0.1:${port}`;
  return { url: url.toString(), cut, restore };
}

describe.runIf(postgres)('a database that cannot be reached', () => {
  let dropDatabase = async () => {};
  let databaseUrl = '';
  let proxy: Awaited<ReturnType<typeof databaseProxy>>;
  let close = async () => {};
  let call: ReturnType<typeof api>;
  let app: Awaited<ReturnType<typeof buildApp>>;

  beforeAll(async () => {
    const created = await createPostgresDatabase('careplane_outage');
    dropDatabase = created.drop;
    databaseUrl = created.url;
    proxy = await databaseProxy(new URL(created.url));
    const config = loadConfig({
      AUTH_ISSUER: TEST_ISSUER,
      AUTH_AUDIENCE: TEST_AUDIENCE,
      LOG_LEVEL: 'silent',
      DEMO_DATA: '0',
      ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
      DOCUMENTS_CA_PASSPHRASE: TEST_CA_PASSPHRASE,
      DATABASE_CONNECT_TIMEOUT_MS: '1000',
    });
    const database = await openDatabase({
      databaseUrl: proxy.url,
      poolSize: 3,
      timeouts: { connectMs: 1000, statementMs: 10_000, lockMs: 5_000 },
    });
    const signer = await createSigner();
    app = await buildApp(config, {
      database,
      keys: createLocalJWKSet({ keys: [signer.jwk] }),
      logger: false,
    });
    await app.ready();
    const subject = randomUUID();
    await database.db.insert(users).values({
      username: 'outage@careplane.test',
      usernameWithoutDomain: 'outage',
      primaryDomain: 'careplane.test',
      masterId: subject,
      firstName: 'Otto',
      lastName: 'Outage',
      roles: ['admin'],
      localRoles: ['application_admin'],
    });
    const token = await signer.sign({ roles: ['admin'] }, { subject });
    call = api({ app } as TestContext, token);
    close = async () => {
      await app.close();
      await database.close().catch(() => undefined);
    };
  }, 60_000);

  afterAll(async () => {
    await close();
    await proxy?.restore().catch(() => undefined);
    await dropDatabase();
  });

  it('answers 503 with Retry-After and the error body while it is away, and 200 once it is back', async () => {
    expect((await call.get('/api/users')).statusCode).toBe(200);
    await proxy.cut();
    for (const path of ['/api/users', '/api/service-providers', '/api/prescriptions']) {
      const answer = await call.get(path);
      expect(answer.statusCode, `${path}: ${answer.body}`).toBe(503);
      expect(answer.headers['retry-after']).toBe('5');
      expect(answer.json()).toEqual({
        statusCode: 503,
        error: 'Service Unavailable',
        message: 'The database is not available right now: try again shortly',
      });
    }
    const write = await call.post('/api/service-providers', {
      title: 'Written during the outage',
      type: 'pharmacy',
      address: { city: 'Bangkok' },
    });
    expect(write.statusCode).toBe(503);
    expect((await app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(503);

    await proxy.restore();
    await expect
      .poll(async () => (await call.get('/api/users')).statusCode, { timeout: 15_000, interval: 250 })
      .toBe(200);
    // Nothing of the refused write was stored.
    const providers = await call.get('/api/service-providers?filtersLike=title~outage');
    expect(providers.json().total).toBe(0);
  });

  it('answers 503 while the database takes no connections, and 200 once it takes them again', async () => {
    const name = new URL(databaseUrl).pathname.slice(1);
    // The auth server, on the same database: its provider's routes answer as the API does.
    const authDatabase = await openDatabase({
      databaseUrl,
      poolSize: 2,
      timeouts: { connectMs: 1000, statementMs: 10_000, lockMs: 5_000 },
    });
    const auth = await startAuthTestServer({}, { handle: authDatabase, drop: async () => undefined });
    const backchannel = () =>
      fetch(`${auth.baseUrl}/auth/backchannel`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'accept-language': 'th' },
        body: new URLSearchParams({
          client_id: CONSOLE_CLIENT_ID,
          scope: 'openid',
          login_hint: 'away@careplane.test',
        }),
      });
    expect((await backchannel()).status).toBe(200);
    const admin = new pg.Client({ connectionString: postgres });
    await admin.connect();
    const allow = (allowed: boolean) =>
      admin.query(`alter database "${name}" with allow_connections ${allowed ? 'true' : 'false'}`);
    try {
      expect((await call.get('/api/users')).statusCode).toBe(200);
      await allow(false);
      await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1', [name]);
      // The first request may meet a connection ended by the termination; those after it, new connections
      // that PostgreSQL refuses with 55000 "not currently accepting connections".
      for (let attempt = 0; attempt < 3; attempt++) {
        const answer = await call.get('/api/users');
        expect(answer.statusCode, answer.body).toBe(503);
        expect(answer.headers['retry-after']).toBe('5');
      }
      // A sign-in started meanwhile is told the same, in the OAuth words and the reader's language.
      for (let attempt = 0; attempt < 3; attempt++) {
        const refused = await backchannel();
        const body = (await refused.json()) as { error?: string; error_description?: string };
        if (attempt === 0 && refused.status !== 503) continue;
        expect(refused.status, JSON.stringify(body)).toBe(503);
        expect(refused.headers.get('retry-after')).toBe('5');
        expect(body.error).toBe('temporarily_unavailable');
        expect(body.error_description).toMatch(/[\u0E00-\u0E7F]/);
      }
      await allow(true);
      await expect
        .poll(async () => (await call.get('/api/users')).statusCode, { timeout: 15_000, interval: 250 })
        .toBe(200);
      await expect
        .poll(async () => (await backchannel()).status, { timeout: 15_000, interval: 250 })
        .toBe(200);
    } finally {
      await allow(true).catch(() => undefined);
      await admin.end();
      await auth.close();
      await authDatabase.close().catch(() => undefined);
    }
  });
});

describe.runIf(postgres)('deadlines', () => {
  let context: TestContext;
  let holder: pg.Client;

  beforeAll(async () => {
    context = await createTestContext({ DATABASE_LOCK_TIMEOUT_MS: '500', REQUEST_DEADLINE_MS: '1500' });
  });
  afterAll(async () => {
    await holder?.end().catch(() => undefined);
    await context?.close();
  });

  /** Another task holds the table's strongest lock until released. */
  async function lockTable(table: string) {
    const url = (context.database.driver as { pool: pg.Pool }).pool.options.connectionString!;
    holder = new pg.Client({ connectionString: url });
    await holder.connect();
    await holder.query('begin');
    await holder.query(`lock table ${table} in access exclusive mode`);
    return async () => {
      await holder.query('rollback');
      await holder.end();
    };
  }

  it('answers 503 after the lock deadline when another task holds a table lock', async () => {
    const release = await lockTable('service_providers');
    try {
      const started = Date.now();
      const answer = await api(context).get('/api/service-providers');
      const took = Date.now() - started;
      expect(answer.statusCode, answer.body).toBe(503);
      expect(answer.headers['retry-after']).toBe('1');
      expect(answer.json().message).toBe(
        'The records this needs are busy with another change: try again shortly',
      );
      // Told in the test's own log, not asserted: how long the caller waited.
      console.info(`lock deadline answered in ${took} ms`);
    } finally {
      await release();
    }
    expect((await api(context).get('/api/service-providers')).statusCode).toBe(200);
  });

  it('answers 504 when a request passes its own deadline', async () => {
    // A statement that waits longer than the request may: the deadline answers first.
    const waitsLong = await createTestContext({
      REQUEST_DEADLINE_MS: '400',
      DATABASE_LOCK_TIMEOUT_MS: '5000',
    });
    const url = (waitsLong.database.driver as { pool: pg.Pool }).pool.options.connectionString!;
    const other = new pg.Client({ connectionString: url });
    await other.connect();
    try {
      await other.query('begin');
      await other.query('lock table service_providers in access exclusive mode');
      const answer = await api(waitsLong).get('/api/service-providers');
      expect(answer.statusCode, answer.body).toBe(504);
      expect(answer.json()).toEqual({
        statusCode: 504,
        error: 'Gateway Timeout',
        message: 'The request took too long to answer: try again shortly',
      });
    } finally {
      await other.query('rollback').catch(() => undefined);
      await other.end();
    }
    expect((await api(waitsLong).get('/api/service-providers')).statusCode).toBe(200);
    await waitsLong.close();
  });
});

describe('live event streams', () => {
  let context: TestContext;
  let base = '';
  const open: AbortController[] = [];

  beforeAll(async () => {
    context = await createTestContext({
      EVENTS_MAX_STREAMS_PER_TICKET: '2',
      EVENTS_MAX_STREAMS_PER_USER: '3',
    });
    await context.app.listen({ host: '127.0.0.1', port: 0 });
    const address = context.app.server.address() as { port: number };
    base = `http://127.0.0.1:${address.port}`;
  });
  afterAll(async () => {
    for (const controller of open) controller.abort();
    await context?.close();
  });

  const ticket = async () =>
    (await api(context).post('/api/events/ticket')).json<{ ticket: string }>().ticket;

  /** Opens a stream and answers its status once its head arrives (the stream stays open). */
  async function stream(withTicket: string) {
    const controller = new AbortController();
    open.push(controller);
    const response = await fetch(`${base}/api/events?ticket=${encodeURIComponent(withTicket)}`, {
      signal: controller.signal,
    });
    return { response, close: () => controller.abort() };
  }

  it('opens at most two streams per ticket and three per person; a closed one frees its place', async () => {
    const first = await ticket();
    expect((await stream(first)).response.status).toBe(200);
    const second = await stream(first);
    expect(second.response.status).toBe(200);
    const third = await stream(first);
    expect(third.response.status).toBe(429);
    expect(third.response.headers.get('retry-after')).toBe('30');
    expect(await third.response.json()).toMatchObject({
      statusCode: 429,
      message: 'At most 2 live streams per ticket: close one or ask for a new ticket',
    });

    const other = await ticket();
    expect((await stream(other)).response.status).toBe(200);
    const fourth = await stream(other);
    expect(fourth.response.status).toBe(429);
    expect(await fourth.response.json()).toMatchObject({
      message: 'At most 3 live streams at once per person: close a tab',
    });

    second.close();
    await expect
      .poll(async () => (await stream(other)).response.status, { timeout: 5_000, interval: 100 })
      .toBe(200);
  });
});
