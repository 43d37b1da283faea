// npm run bench:auth — the auth server under two loads, each against a bare Fastify route answering the same
// shape (the ceiling for HTTP), alternating, printed as absolute figures and ratios:
//
// 1. refresh grant: W clients, each rotating its own refresh token in a loop (a used token would revoke its
//    family, so a fixed request cannot be replayed): tokens per second.
// 2. CIBA poll storm: M pending sign-ins, polled at the token endpoint by C autocannon connections in turn
//    (each request is polled no faster than its interval), answering authorization_pending.
//
// The servers run in a child process of their own (this file with --serve), so that the load generator does
// not share their event loop; everything listens on 127.0.0.1 only. Database: the PostgreSQL server of
// DATABASE_URL, as for bench:api (the run's own identities, and the sign-ins and tokens it made, are removed at
// the end); without it a throwaway one, on the PostgreSQL server of DATABASE_URL_TEST or embedded in memory.
// REDIS_URL counts the rate limits in Redis (under a prefix removed at the end).
// Options: --duration s, --rounds n, --connections C, --pending M, --clients W.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { inArray, sql } from 'drizzle-orm';
import Fastify from 'fastify';
import { CONSOLE_CLIENT_ID } from '@careplane/shared/auth/clients';
import {
  AuthenticatorClient,
  generateAuthenticatorKey,
  type AuthenticatorKey,
} from '@careplane/shared/authenticator/protocol';

const { values: args } = parseArgs({
  options: {
    serve: { type: 'boolean', default: false },
    duration: { type: 'string', default: '8' },
    rounds: { type: 'string', default: '2' },
    connections: { type: 'string', default: '50' },
    pending: { type: 'string', default: '1000' },
    clients: { type: 'string', default: '16' },
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
  usernames: { refresh: string; storm: string };
  codes: { refresh: string; storm: string };
}

// ---------------------------------------------------------------------------------------------------------
// The child: the auth server (the whole app, limits raised out of the way) and the bare route.
async function serve() {
  const { startAuthTestServer } = await import('@/test/auth-server.js');
  const { loadConfig } = await import('@/config.js');
  const { openDatabase } = await import('@/db/client.js');
  const { authIdentities, authOidcPayloads } = await import('@/db/schema/index.js');
  const runId = randomUUID();
  const redisPrefix = `careplane-bench:${runId}:`;
  // DATABASE_URL (read as the server reads it): a database that outlives the run, so names are the run's own.
  const { databaseUrl } = loadConfig();
  const shared = databaseUrl ? await openDatabase({ databaseUrl, poolSize: 20 }) : undefined;
  const auth = await startAuthTestServer(
    {
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
  const code = async (username: string) => {
    const identity = await auth.server.identities.create({ username, firstName: 'Bench', lastName: 'Mark' });
    identityIds.push(identity.id);
    return (await auth.server.identities.issueEnrollmentCode(identity.id)).code;
  };
  const run = runId.slice(0, 8);
  const usernames = {
    refresh: `bench.refresh.${run}@careplane.local`,
    storm: `bench.storm.${run}@careplane.local`,
  };
  const codes = { refresh: await code(usernames.refresh), storm: await code(usernames.storm) };

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
    usernames,
    codes,
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
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
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

  const child = spawn(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), '--serve'], {
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
    const refreshKey = await enroll(authenticator, served.codes.refresh);
    await enroll(authenticator, served.codes.storm);

    // W signed-in clients, each with its own refresh token chain.
    const started = [];
    for (let i = 0; i < clients; i++) {
      const answer = await post(backchannelUrl, {
        scope: 'openid',
        login_hint: served.usernames.refresh,
      });
      if (answer.status !== 200)
        throw new Error(`backchannel: ${answer.status} ${JSON.stringify(answer.body)}`);
      started.push(answer.body.auth_req_id!);
    }
    for (const request of await authenticator.pending(refreshKey))
      await authenticator.approve(refreshKey, request);
    await sleep(1100);
    const refreshTokens: string[] = [];
    for (const id of started) {
      const answer = await post(tokenUrl, { grant_type: CIBA_GRANT, auth_req_id: id });
      if (!answer.body.refresh_token)
        throw new Error(`sign-in: ${answer.status} ${JSON.stringify(answer.body)}`);
      refreshTokens.push(answer.body.refresh_token);
    }

    // M pending sign-ins nobody approves.
    const pendingIds: string[] = [];
    const createStarted = performance.now();
    let asked = 0;
    await Promise.all(
      Array.from({ length: 20 }, async () => {
        while (asked < pendingCount) {
          asked += 1;
          const answer = await post(backchannelUrl, {
            scope: 'openid',
            login_hint: served.usernames.storm,
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

    /** C connections polling the pending requests in turn. */
    let next = 0;
    const runStorm = async (bare: boolean): Promise<Result> => {
      const answers: Record<string, number> = {};
      const result = await autocannon({
        url: bare ? served.bareUrl : served.authUrl.replace(/\/auth$/, ''),
        connections,
        duration,
        requests: [
          {
            method: 'POST',
            path: bare ? '/token' : `${new URL(served.authUrl).pathname}/token`,
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
            setupRequest: (request) => ({ ...request, body: pollBodies[next++ % pollBodies.length]! }),
            onResponse: (status, body) => {
              const kind = /"error":"([a-z_]+)"/.exec(body)?.[1] ?? String(status);
              answers[kind] = (answers[kind] ?? 0) + 1;
            },
          },
        ],
      });
      return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, answers };
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
        name: `refresh grant, ${clients} clients each rotating its token (bounded loop)`,
        run: runRefresh,
        unit: 'tokens/s',
      },
      {
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
    }
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
  }
}

if (args.serve) await serve();
else await parent();
