// Two real server processes on one new PostgreSQL database behind a round-robin proxy, the way compose.yaml
// runs them (decision 042): consecutive requests of one client reach alternate processes, and a sign-in, a
// document signature, a live event stream and a runner job each still work end to end. The proxy counts what
// each process served, so every step shows it used both. Needs a PostgreSQL server (DATABASE_URL_TEST).
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';
import { and, eq } from 'drizzle-orm';
import * as client from 'openid-client';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CONSOLE_CLIENT_ID } from '@careplane/shared/auth/clients';
import {
  AuthenticatorClient,
  generateAuthenticatorKey,
  type AuthenticatorKey,
} from '@careplane/shared/authenticator/protocol';
import { createSamplePdf } from '@careplane/pdf-signatures/samples';
import { pdfsig } from '@careplane/pdf-signatures/testing';
import { IdentityService } from '@/auth-server/identities.js';
import { authServerSettings } from '@/auth-server/index.js';
import { loadConfig } from '@/config.js';
import { openDatabase, type DatabaseHandle } from '@/db/client.js';
import { auditLog, deviceRunnerJobs, documents, users } from '@/db/schema/index.js';
import { freePort } from './auth-server.js';
import { openEventStream } from './event-stream.js';
import { TEST_CA_PASSPHRASE, TEST_ENCRYPTION_KEY, createPostgresDatabase } from './harness.js';
import {
  inheritedEnvironment,
  killServerProcess,
  startServerProcess,
  type ServerProcess,
} from './server-processes.js';

const postgres = process.env.DATABASE_URL_TEST;

interface Forwarded {
  method: string;
  path: string;
  upstream: string;
}

/**
 * A load balancer of the test's own: each request goes to the next process in turn, bodies stream both ways
 * unbuffered (uploads, downloads, the live stream, long polls), X-Forwarded-* name the client.
 */
class RoundRobinProxy {
  upstreams: ServerProcess[] = [];
  /** Every request forwarded since the last reset, in arrival order. */
  forwarded: Forwarded[] = [];
  private turn = 0;
  private arrivals = new Set<() => void>();
  private readonly server: Server;
  port = 0;

  constructor() {
    this.server = createServer((incoming, outgoing) => {
      const upstream = this.upstreams[this.turn++ % this.upstreams.length];
      if (!upstream) {
        outgoing.writeHead(502).end();
        return;
      }
      this.forwarded.push({ method: incoming.method!, path: incoming.url!, upstream: upstream.name });
      for (const wake of this.arrivals) wake();
      const headers: IncomingHttpHeaders = {
        ...incoming.headers,
        'x-forwarded-for': incoming.socket.remoteAddress,
        'x-forwarded-proto': 'http',
        'x-forwarded-host': incoming.headers.host,
      };
      delete headers.connection;
      const forward = request(
        `${upstream.baseUrl}${incoming.url}`,
        { method: incoming.method, headers, agent: false },
        (answer) => {
          const answerHeaders = { ...answer.headers };
          delete answerHeaders.connection;
          delete answerHeaders['keep-alive'];
          outgoing.writeHead(answer.statusCode ?? 502, answerHeaders);
          outgoing.flushHeaders();
          answer.pipe(outgoing);
        },
      );
      forward.on('error', () => {
        if (!outgoing.headersSent) outgoing.writeHead(502);
        outgoing.end();
      });
      // The client went away (a closed stream, an abandoned long poll): so does the upstream request.
      outgoing.on('close', () => forward.destroy());
      incoming.pipe(forward);
    });
  }

  async listen() {
    this.server.listen(0, '127.0.0.1');
    await once(this.server, 'listening');
    this.port = (this.server.address() as { port: number }).port;
    return this;
  }

  get url() {
    return `http://127.0.0.1:${this.port}`;
  }

  /** The process the next request will reach. */
  get next() {
    return this.upstreams[this.turn % this.upstreams.length]!.name;
  }

  /** Requests per process since the last reset. */
  counts() {
    const counts: Record<string, number> = Object.fromEntries(this.upstreams.map(({ name }) => [name, 0]));
    for (const { upstream } of this.forwarded) counts[upstream]! += 1;
    return counts;
  }

  reset() {
    this.forwarded = [];
  }

  /** The first forwarded request that matches, once it has arrived. */
  async arrived(match: (forwarded: Forwarded) => boolean): Promise<Forwarded> {
    for (;;) {
      const found = this.forwarded.find(match);
      if (found) return found;
      await new Promise<void>((resolve) => {
        const wake = () => {
          this.arrivals.delete(wake);
          resolve();
        };
        this.arrivals.add(wake);
      });
    }
  }

  async close() {
    this.server.closeAllConnections();
    this.server.close();
  }
}

let proxy: RoundRobinProxy;
let database: DatabaseHandle | undefined;
let dropDatabase = async () => {};
const running: ServerProcess[] = [];
let issuer = '';
let phone: AuthenticatorClient;
let admin: { identityId: string; username: string; key: AuthenticatorKey };
/** The access token the sign-in step got; the later steps use it. */
let accessToken = '';

const call = async (method: string, path: string, body?: unknown, token = accessToken) => {
  const response = await fetch(`${proxy.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, text, json: <T>() => JSON.parse(text) as T };
};

/** Sends a harmless request when the next one would reach `name`, so that the next one reaches another. */
async function steerAwayFrom(name: string) {
  if (proxy.next === name) expect((await fetch(`${proxy.url}/api/health/live`)).status).toBe(200);
}

beforeAll(async () => {
  if (!postgres) return;
  proxy = await new RoundRobinProxy().listen();
  const created = await createPostgresDatabase('careplane_several');
  dropDatabase = created.drop;
  issuer = `${proxy.url}/auth`;
  const env: NodeJS.ProcessEnv = {
    ...inheritedEnvironment(),
    DATABASE_URL: created.url,
    HOST: '127.0.0.1',
    // Users reach the proxy: it is the issuer's address and the one links are made with.
    PUBLIC_URL: proxy.url,
    TRUST_PROXY: 'loopback',
    DEMO_DATA: '0',
    LOG_LEVEL: 'warn',
    // What every process must share to read each other's keys, tickets and signatures.
    ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
    DOCUMENTS_CA_PASSPHRASE: TEST_CA_PASSPHRASE,
    AUTH_POLL_INTERVAL: '1',
    API_WRITE_RATE_LIMIT: '1000000',
    AUTH_RATE_LIMIT_PER_IDENTITY: '1000',
  };
  // Both start at once on the new database: one migrates, the other waits for it (the migration lock).
  const [a, b] = await Promise.all([
    startServerProcess('A', { env, port: await freePort() }),
    startServerProcess('B', { env, port: await freePort() }),
  ]);
  running.push(a, b);
  proxy.upstreams = [a, b];

  database = await openDatabase({ databaseUrl: created.url, poolSize: 2 });
  const identities = new IdentityService(database.db, authServerSettings(loadConfig(env)));
  const identity = await identities.create({
    username: 'ada.several@careplane.test',
    firstName: 'Ada',
    lastName: 'Several',
    roles: ['admin'],
  });
  await database.db.insert(users).values({
    username: identity.username,
    usernameWithoutDomain: 'ada.several',
    primaryDomain: 'careplane.test',
    masterId: identity.id,
    firstName: 'Ada',
    lastName: 'Several',
    roles: ['admin'],
  });
  // The phone knows only the public address, as a real one does.
  phone = new AuthenticatorClient({ issuer });
  const { code } = await identities.issueEnrollmentCode(identity.id);
  const keys = await generateAuthenticatorKey();
  const enrolled = await phone.enroll(code, keys);
  admin = {
    identityId: identity.id,
    username: identity.username,
    key: { keyId: enrolled.keyId, privateKey: keys.privateKey },
  };
}, 240_000);

afterAll(async () => {
  for (const server of running) await killServerProcess(server).catch(() => undefined);
  await proxy?.close();
  await database?.close();
  await dropDatabase();
});

beforeEach(() => proxy?.reset());

describe.runIf(postgres)('two server processes behind a round-robin proxy', () => {
  it('signs in without a password: the request, the phone and the polls reach either process', async () => {
    const config = await client.discovery(new URL(issuer), CONSOLE_CLIENT_ID, undefined, client.None(), {
      execute: [client.allowInsecureRequests],
    });
    const started = await client.initiateBackchannelAuthentication(config, {
      scope: 'openid',
      login_hint: admin.username,
      binding_message: 'MP 42',
    });
    const pending = await phone.waitForPending(admin.key, { timeoutMs: 10_000, intervalMs: 100 });
    expect(pending).toMatchObject({ kind: 'login', bindingMessage: 'MP 42' });
    await phone.approve(admin.key, pending!);
    const tokens = await client.pollBackchannelAuthenticationGrant(config, started);
    expect(tokens.claims()).toMatchObject({ sub: admin.identityId });
    accessToken = tokens.access_token;

    // Both processes accept the token whichever signed it (one key set in the database).
    for (let turn = 0; turn < 2; turn += 1) {
      const me = await call('GET', `/api/users?limit=1`);
      expect(me.status, me.text).toBe(200);
    }
    expect(
      Object.values(proxy.counts()).every((count) => count > 0),
      JSON.stringify(proxy.counts()),
    ).toBe(true);
  });

  it('signs a document: whichever process hears the phone completes it, and either serves the file', async () => {
    expect(accessToken, 'the sign-in step ran').not.toBe('');
    const form = new FormData();
    form.append('file', new Blob([await createSamplePdf({ title: 'Care plan' })]), 'care-plan.pdf');
    const uploaded = await fetch(`${proxy.url}/api/documents`, {
      method: 'POST',
      headers: { authorization: `Bearer ${accessToken}` },
      body: form,
    });
    expect(uploaded.status).toBe(201);
    const documentId = ((await uploaded.json()) as { id: string }).id;
    const asked = await call('POST', `/api/documents/${documentId}/sign`);
    expect(asked.status, asked.text).toBe(200);
    const { requestId } = asked.json<{ requestId: string }>();

    const request = (await phone.pending(admin.key)).find((pending) => pending.id === requestId);
    expect(request, 'the phone sees the request').toBeDefined();
    await phone.approve(admin.key, request!);
    // Nobody polls the signing request: a process completes it on hearing the answer (decision 031).
    await expect
      .poll(
        async () =>
          (await database!.db.select().from(documents).where(eq(documents.id, documentId)))[0]!.isSigned,
        { timeout: 30_000, interval: 100 },
      )
      .toBe(true);
    const signings = await database!.db
      .select({ id: auditLog.id })
      .from(auditLog)
      .where(
        and(
          eq(auditLog.resource, 'documents'),
          eq(auditLog.action, 'sign'),
          eq(auditLog.recordId, documentId),
        ),
      );
    expect(signings).toHaveLength(1);

    for (let turn = 0; turn < 2; turn += 1) {
      const file = await fetch(`${proxy.url}/api/documents/${documentId}/download/signed`, {
        headers: { authorization: `Bearer ${accessToken}` },
      });
      expect(file.status).toBe(200);
      const { signatures } = await pdfsig(new Uint8Array(await file.arrayBuffer()));
      expect(signatures).toHaveLength(1);
      expect(signatures[0]).toMatchObject({ validation: 'Signature is Valid.' });
    }
    expect(
      Object.values(proxy.counts()).every((count) => count > 0),
      JSON.stringify(proxy.counts()),
    ).toBe(true);
  });

  let device = { id: '', token: '' };

  it('streams live events from one process of a change the other process made', async () => {
    expect(accessToken, 'the sign-in step ran').not.toBe('');
    const ticket = await call('POST', '/api/events/ticket');
    expect(ticket.status, ticket.text).toBe(200);
    const stream = await openEventStream(
      `${proxy.url}/api/events?ticket=${encodeURIComponent(ticket.json<{ ticket: string }>().ticket)}`,
    );
    try {
      expect(stream.status).toBe(200);
      const streaming = proxy.forwarded.find(({ path }) => path.startsWith('/api/events?'))!.upstream;
      await stream.next((event) => event.event === 'ready');

      await steerAwayFrom(streaming);
      const created = await call('POST', '/api/devices', { title: `Several ${randomUUID().slice(0, 8)}` });
      expect(created.status, created.text).toBe(201);
      device = created.json<{ id: string; token: string }>();
      const writer = proxy.forwarded.findLast(({ path }) => path === '/api/devices')!.upstream;
      expect(writer).not.toBe(streaming);

      const change = await stream.next(
        (event) => event.event === 'change' && JSON.parse(event.data).recordId === device.id,
      );
      expect(JSON.parse(change.data)).toMatchObject({ resource: 'devices', action: 'create' });
    } finally {
      stream.close();
    }
    expect(
      Object.values(proxy.counts()).every((count) => count > 0),
      JSON.stringify(proxy.counts()),
    ).toBe(true);
  });

  it('hands a job queued at one process to the device waiting at the other, once', async () => {
    expect(device.token, 'the live-stream step made the device').not.toBe('');
    const asDevice = (method: string, path: string, body?: unknown) => call(method, path, body, device.token);

    // The device's long poll waits at one process…
    const waiting = asDevice('GET', '/api/devices/me/jobs/next?wait=30');
    const poller = (await proxy.arrived(({ path }) => path.startsWith('/api/devices/me/jobs/next'))).upstream;
    // …and an admin queues the job at the other.
    await steerAwayFrom(poller);
    const queued = await call('POST', '/api/devices/jobs', {
      purpose: 'Maintenance',
      commands: ['collect-logs'],
      device: device.id,
    });
    expect(queued.status, queued.text).toBe(201);
    const job = queued.json<{ id: string }>();
    expect(proxy.forwarded.findLast(({ path }) => path === '/api/devices/jobs')!.upstream).not.toBe(poller);

    const handed = await waiting;
    expect(handed.status, handed.text).toBe(200);
    expect(handed.json()).toMatchObject({ id: job.id, status: 'NEW' });
    // Handed out once: neither process hands it out again.
    for (let turn = 0; turn < 2; turn += 1) {
      expect((await asDevice('GET', '/api/devices/me/jobs/next?wait=0')).status).toBe(204);
    }
    const accepted = await asDevice('POST', `/api/devices/me/jobs/${job.id}/ack`);
    expect(accepted.status, accepted.text).toBe(200);
    const running = await asDevice('POST', `/api/devices/me/jobs/${job.id}/status`, { status: 'RUNNING' });
    expect(running.status, running.text).toBe(200);
    const done = await asDevice('POST', `/api/devices/me/jobs/${job.id}/status`, {
      status: 'SUCCEEDED',
      results: [
        {
          command: 'collect-logs',
          exitCode: 0,
          stdout: 'logs',
          stderr: '',
          startedAt: new Date().toISOString(),
          finishedAt: new Date().toISOString(),
        },
      ],
    });
    expect(done.status, done.text).toBe(200);
    const [row] = await database!.db.select().from(deviceRunnerJobs).where(eq(deviceRunnerJobs.id, job.id));
    expect(row).toMatchObject({ status: 'SUCCEEDED' });
    const audited = await database!.db
      .select({ action: auditLog.action })
      .from(auditLog)
      .where(and(eq(auditLog.resource, 'device-jobs'), eq(auditLog.recordId, job.id)));
    expect(audited.map(({ action }) => action).filter((action) => action === 'hand-out')).toHaveLength(1);
    expect(
      Object.values(proxy.counts()).every((count) => count > 0),
      JSON.stringify(proxy.counts()),
    ).toBe(true);
  });
});
