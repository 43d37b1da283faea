// npm run bench:auth — the auth server under two loads, each against a bare Fastify route answering the same
// shape (the ceiling for HTTP), alternating, printed as absolute figures and ratios:
//
// 1. refresh grant: W clients, each rotating its own refresh token in a loop (a used token would revoke its
//    family, so a fixed request cannot be replayed): tokens per second.
// 2. CIBA poll storm: M pending sign-ins (spread over M/5 identities: the server keeps at most five sign-ins
//    pending per identity), polled at the token endpoint by C autocannon connections in turn, answering
//    authorization_pending (or slow_down where the rate outruns the interval; both are counted and shown).
//
// Signing in follows the protocol: each sign-in carries its own binding message, the authenticator approves the
// pending request with that code (decision 030), and the token endpoint is polled at the interval the server
// answered. The servers run in a child process of their own (this file with --serve) and autocannon in another
// (load.ts), so that neither load generator shares their event loop; everything listens on 127.0.0.1 only.
// With DATABASE_URL the auth server opens its signing keys as the server does (ENCRYPTION_KEY, ENCRYPTION_KEY_FILE
// or the key generated in DATA_DIR, encryption-key.ts), so a database filled by `npm run seed` works. Database: the PostgreSQL server of
// DATABASE_URL, as for bench:api (the run's own identities, and the sign-ins and tokens it made, are removed at
// the end); without it a throwaway one, on the PostgreSQL server of DATABASE_URL_TEST or embedded in memory.
// REDIS_URL counts the rate limits in Redis (under a prefix removed at the end).
// Options: --duration s, --rounds n, --connections C, --pending M, --clients W, --profile folder.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { inArray, sql } from 'drizzle-orm';
import Fastify from 'fastify';
import { CONSOLE_CLIENT_ID } from '@careplane/shared/auth/clients';
import {
  AuthenticatorClient,
  generateAuthenticatorKey,
  type AuthenticatorKey,
} from '@careplane/shared/authenticator/protocol';
import { runLoad } from './load.js';
import { SMOKE, emitRow } from './rows.js';

const { values: args } = parseArgs({
  options: {
    serve: { type: 'boolean', default: false },
    duration: { type: 'string', default: SMOKE ? '1' : '8' },
    rounds: { type: 'string', default: SMOKE ? '1' : '2' },
    connections: { type: 'string', default: SMOKE ? '10' : '50' },
    pending: { type: 'string', default: SMOKE ? '20' : '1000' },
    clients: { type: 'string', default: SMOKE ? '2' : '16' },
    // A folder for the auth server's CPU profile (node --cpu-prof), to see where its time goes.
    profile: { type: 'string' },
  },
});

const CLIENT_ID = CONSOLE_CLIENT_ID;
const CIBA_GRANT = 'urn:openid:params:grant-type:ciba';
const HOST = '127.0.0.1';

interface Served {
  authUrl: string;
  bareUrl: string;
  database: string;
  redis: boolean;
  refresh: { username: string; code: string };
  /** Identities the pending sign-ins are spread over (at most MAX_PENDING_LOGINS each). */
  storm: string[];
}

// ---------------------------------------------------------------------------------------------------------
// The child: the auth server (the whole app, limits raised out of the way) and the bare route.
async function serve() {
  const { startAuthTestServer } = await import('@/test/auth-server.js');
  const { loadConfig } = await import('@/config.js');
  const { openDatabase } = await import('@/db/client.js');
  const { authIdentities, authOidcPayloads } = await import('@/db/schema/index.js');
  const { MAX_PENDING_LOGINS } = await import('@/auth-server/requests.js');
  const runId = randomUUID();
  const redisPrefix = `careplane-bench:${runId}:`;
  // DATABASE_URL (read as the server reads it): a database that outlives the run, so names are the run's own.
  const { databaseUrl } = loadConfig();
  const shared = databaseUrl ? await openDatabase({ databaseUrl, poolSize: 20 }) : undefined;
  // On a database of its own the test keys do; on DATABASE_URL's, the keys the server sealed there are opened
  // as the server opens them (the same variables and DATA_DIR), not with the test key (SigningKeysLocked).
  const serverKeys: Record<string, string> = {};
  if (shared) {
    for (const name of ['INIT_CWD', 'DATA_DIR', 'ENCRYPTION_KEY_FILE', 'DOCUMENTS_CA_PASSPHRASE_FILE']) {
      const value = process.env[name];
      if (value) serverKeys[name] = value;
    }
    // Blank unsets the harness's test values.
    serverKeys.ENCRYPTION_KEY = process.env.ENCRYPTION_KEY ?? '';
    serverKeys.DOCUMENTS_CA_PASSPHRASE = process.env.DOCUMENTS_CA_PASSPHRASE ?? '';
  }
  const auth = await startAuthTestServer(
    {
      ...serverKeys,
      AUTH_RATE_LIMIT_PER_CLIENT: '1000000000',
      AUTH_RATE_LIMIT_PER_IDENTITY: '1000000000',
      AUTH_RATE_LIMIT_PER_KEY: '1000000000',
      AUTH_REQUEST_TTL: '600',
      AUTH_POLL_INTERVAL: '1',
      REDIS_KEY_PREFIX: redisPrefix,
      ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {}),
    },
    shared && { handle: shared, drop: () => shared.close() },
  );
  const identityIds: string[] = [];
  const create = async (username: string) => {
    const identity = await auth.server.identities.create({ username, firstName: 'Bench', lastName: 'Mark' });
    identityIds.push(identity.id);
    return identity.id;
  };
  const run = runId.slice(0, 8);
  const refreshUsername = `bench.refresh.${run}@careplane.local`;
  const refresh = {
    username: refreshUsername,
    code: (await auth.server.identities.issueEnrollmentCode(await create(refreshUsername))).code,
  };
  const storm = Array.from(
    { length: Math.ceil(Number(args.pending) / MAX_PENDING_LOGINS) },
    (_, index) => `bench.storm.${run}.${index}@careplane.local`,
  );
  for (const username of storm) await create(username);

  // The ceiling: the same request shape (a form POST), parsed, answered with a JSON error of the same size.
  const bare = Fastify({ logger: false });
  bare.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string' },
    (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
  );
  bare.post('/token', async (_request, reply) =>
    reply.code(400).send({
      error: 'authorization_pending',
      error_description:
        "authorization request is still pending as the end-user hasn't yet been authenticated",
    }),
  );
  const bareUrl = await bare.listen({ host: HOST, port: 0 });

  const served: Served = {
    authUrl: auth.issuer,
    bareUrl,
    database: `${auth.database.handle.kind}${shared ? ' (DATABASE_URL)' : ''}`,
    redis: auth.server.redis !== null,
    refresh,
    storm,
  };
  console.log(JSON.stringify(served));
  const stop = async () => {
    const redis = auth.server.redis;
    if (redis) {
      let cursor = '0';
      do {
        const [next, keys] = await redis.scan(cursor, 'MATCH', `${redisPrefix}*`, 'COUNT', 1000);
        cursor = next;
        if (keys.length) await redis.del(...keys);
      } while (cursor !== '0');
    }
    await bare.close();
    if (shared) {
      // The sign-ins, grants and refresh tokens of the run's identities, then the identities (their keys,
      // codes and requests go with them).
      await shared.db
        .delete(authOidcPayloads)
        .where(sql`${authOidcPayloads.payload}->>'accountId' in ${identityIds}`);
      await shared.db.delete(authIdentities).where(inArray(authIdentities.id, identityIds));
    }
    await auth.close();
    if (shared) await shared.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop());
}

// ---------------------------------------------------------------------------------------------------------
// The parent: set-up over HTTP through the authenticator protocol, then the measurements.
interface Result {
  rps: number;
  p50: number;
  p99: number;
  answers: Record<string, number>;
}

const form = (params: Record<string, string>) =>
  new URLSearchParams({ client_id: CLIENT_ID, ...params }).toString();
const post = async (url: string, params: Record<string, string>) => {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: form(params),
  });
  return { status: response.status, body: (await response.json()) as Record<string, string> };
};
const percentile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

async function enroll(authenticator: AuthenticatorClient, code: string): Promise<AuthenticatorKey> {
  const pair = await generateAuthenticatorKey();
  const { keyId } = await authenticator.enroll(code, pair);
  return { keyId, privateKey: pair.privateKey };
}

async function parent() {
  const duration = Number(args.duration);
  const rounds = Number(args.rounds);
  const connections = Number(args.connections);
  const pendingCount = Number(args.pending);
  const clients = Number(args.clients);

  const profiling = args.profile ? ['--cpu-prof', `--cpu-prof-dir=${args.profile}`] : [];
  const serve = [...process.execArgv, ...profiling, fileURLToPath(import.meta.url), '--serve'];
  const child = spawn(process.execPath, serve, {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: process.env,
  });
  const lines = createInterface({ input: child.stdout });
  const served = await new Promise<Served>((resolve, reject) => {
    lines.on('line', (line) => {
      if (line.startsWith('{')) resolve(JSON.parse(line) as Served);
    });
    child.once('exit', (code) => reject(new Error(`the server process ended (${code})`)));
  });
  try {
    const tokenUrl = `${served.authUrl}/token`;
    const backchannelUrl = `${served.authUrl}/backchannel`;
    const bareTokenUrl = `${served.bareUrl}/token`;
    const authenticator = new AuthenticatorClient({ issuer: served.authUrl });
    const refreshKey = await enroll(authenticator, served.refresh.code);

    /**
     * One sign-in as a client does it: a backchannel request with its own binding message, approved on the
     * authenticator by that code (never "whatever is pending"), then the token endpoint polled at the interval
     * the server answered (the first poll may go at once) until the tokens come.
     */
    const signIn = async (index: number): Promise<string> => {
      const bindingMessage = `BENCH ${index}`;
      const started = await post(backchannelUrl, {
        scope: 'openid',
        login_hint: served.refresh.username,
        binding_message: bindingMessage,
      });
      if (started.status !== 200)
        throw new Error(`backchannel: ${started.status} ${JSON.stringify(started.body)}`);
      const authReqId = started.body.auth_req_id!;
      const interval = Number(started.body.interval ?? 5);
      const request = (await authenticator.pending(refreshKey)).find(
        (pending) => pending.bindingMessage === bindingMessage,
      );
      if (!request) throw new Error(`sign-in ${index}: no pending request with code ${bindingMessage}`);
      await authenticator.approve(refreshKey, request);
      const deadline = Date.now() + Number(started.body.expires_in ?? 60) * 1000;
      let wait = 0;
      for (;;) {
        if (wait > 0) await sleep(wait * 1000);
        const answer = await post(tokenUrl, { grant_type: CIBA_GRANT, auth_req_id: authReqId });
        if (answer.body.refresh_token) return answer.body.refresh_token;
        const error = answer.body.error;
        if ((error !== 'authorization_pending' && error !== 'slow_down') || Date.now() > deadline)
          throw new Error(`sign-in: ${answer.status} ${JSON.stringify(answer.body)}`);
        // RFC 8628 / CIBA: slow_down adds five seconds to the interval.
        wait = error === 'slow_down' ? Math.max(wait, interval) + 5 : interval;
      }
    };
    // W signed-in clients, each with its own refresh token chain.
    const refreshTokens: string[] = [];
    for (let index = 0; index < clients; index++) refreshTokens.push(await signIn(index));

    // M pending sign-ins nobody approves, at most five per identity.
    const pendingIds: string[] = [];
    const createStarted = performance.now();
    let asked = 0;
    await Promise.all(
      Array.from({ length: 20 }, async () => {
        while (asked < pendingCount) {
          const index = asked;
          asked += 1;
          const answer = await post(backchannelUrl, {
            scope: 'openid',
            login_hint: served.storm[index % served.storm.length]!,
          });
          if (answer.status !== 200) throw new Error(`backchannel: ${answer.status}`);
          pendingIds.push(answer.body.auth_req_id!);
        }
      }),
    );
    const createSeconds = (performance.now() - createStarted) / 1000;
    const pollBodies = pendingIds.map((id) => form({ grant_type: CIBA_GRANT, auth_req_id: id }));

    /** W loops, each refreshing its own chain (or, for the ceiling, posting the same shape to the bare route). */
    const runRefresh = async (bare: boolean): Promise<Result> => {
      const latencies: number[] = [];
      const answers: Record<string, number> = {};
      const deadline = Date.now() + duration * 1000;
      await Promise.all(
        refreshTokens.map(async (_token, index) => {
          while (Date.now() < deadline) {
            const begin = performance.now();
            const params = { grant_type: 'refresh_token', refresh_token: refreshTokens[index]! };
            const answer = await post(bare ? bareTokenUrl : tokenUrl, params);
            latencies.push(performance.now() - begin);
            const kind = answer.status === 200 ? 'tokens' : (answer.body.error ?? String(answer.status));
            answers[kind] = (answers[kind] ?? 0) + 1;
            if (!bare) {
              if (!answer.body.refresh_token)
                throw new Error(`refresh: ${answer.status} ${JSON.stringify(answer.body)}`);
              refreshTokens[index] = answer.body.refresh_token;
            }
          }
        }),
      );
      latencies.sort((a, b) => a - b);
      return {
        rps: latencies.length / duration,
        p50: percentile(latencies, 0.5),
        p99: percentile(latencies, 0.99),
        answers,
      };
    };

    /** C connections polling the pending requests in turn (autocannon in a process of its own). */
    const runStorm = async (bare: boolean): Promise<Result> => {
      const result = await runLoad({
        url: new URL(bare ? served.bareUrl : served.authUrl).origin,
        path: bare ? '/token' : `${new URL(served.authUrl).pathname}/token`,
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        bodies: pollBodies,
        connections,
        duration,
      });
      if (result.errors > 0) throw new Error(`CIBA poll storm: ${result.errors} connection errors`);
      return { rps: result.rps, p50: result.p50, p99: result.p99, answers: result.answers };
    };

    const fmt = (r: Result) =>
      `${r.rps.toFixed(0).padStart(6)} req/s  p50 ${r.p50.toFixed(1).padStart(6)} ms  p99 ${r.p99.toFixed(1).padStart(6)} ms  ${JSON.stringify(r.answers)}`;
    console.log(
      `bench:auth on ${served.database}${served.redis ? ' with Redis limits' : ''}: ${duration}s x ${rounds} rounds each, alternating with a bare Fastify route; 127.0.0.1`,
    );
    console.log(
      `  set-up: ${pendingCount} pending sign-ins created in ${createSeconds.toFixed(1)} s (${(pendingCount / createSeconds).toFixed(0)}/s)`,
    );

    const scenarios = [
      {
        path: 'refresh grant',
        aim: 0.3,
        name: `refresh grant, ${clients} clients each rotating its token (bounded loop)`,
        run: runRefresh,
        unit: 'tokens/s',
      },
      {
        path: `CIBA poll, ${pendingCount} pending`,
        aim: 0.3,
        name: `CIBA poll storm: ${pendingCount} pending requests, ${connections} connections (autocannon)`,
        run: runStorm,
        unit: 'polls/s',
      },
    ];
    for (const scenario of scenarios) {
      const auth: Result[] = [];
      const bare: Result[] = [];
      for (let round = 0; round < rounds; round++) {
        bare.push(await scenario.run(true));
        auth.push(await scenario.run(false));
      }
      const authRps = median(auth.map((r) => r.rps));
      const bareRps = median(bare.map((r) => r.rps));
      console.log(`\n${scenario.name}`);
      auth.forEach((r, i) => console.log(`  auth  round ${i + 1} ${fmt(r)}`));
      bare.forEach((r, i) => console.log(`  bare  round ${i + 1} ${fmt(r)}`));
      console.log(
        `  median: auth ${authRps.toFixed(0)} ${scenario.unit}, bare ${bareRps.toFixed(0)} req/s; ratio auth/bare ${(authRps / bareRps).toFixed(3)}`,
      );
      const answers: Record<string, number> = {};
      for (const result of auth)
        for (const [kind, n] of Object.entries(result.answers)) answers[kind] = (answers[kind] ?? 0) + n;
      const ratio = authRps / bareRps;
      emitRow({
        bench: 'auth',
        path: scenario.path,
        figure: authRps,
        unit: scenario.unit,
        reference: bareRps,
        referenceName: 'bare Fastify route',
        ratio,
        aim: `≥ ${scenario.aim}× bare`,
        met: ratio >= scenario.aim,
        note: `${served.database}; answers ${JSON.stringify(answers)}`,
      });
    }
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
  }
}

if (args.serve) await serve();
else await parent();
