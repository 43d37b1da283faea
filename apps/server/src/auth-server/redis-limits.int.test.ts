// With REDIS_URL, every server process counts sign-in limits into one budget: per identity (the auth server's
// own limiter) and per caller address (@fastify/rate-limit). Two processes on one Redis and one database,
// each test under a key prefix of its own, removed afterwards. When Redis stops answering, sign-ins go on.
import { randomUUID } from 'node:crypto';
import net from 'node:net';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Limiter, RedisLimitStore, TooManyRequests } from './limits.js';
import { CONSOLE_CLIENT_ID } from '@careplane/shared/auth/clients';
import { freePort, startAuthTestServer, type AuthTestServer } from '@/test/auth-server.js';
import { REDIS_TEST_URL, testRedisAnswers } from '@/test/redis.js';

const REDIS_URL = REDIS_TEST_URL;
// CI names its Redis: there, a Redis that does not answer fails the run instead of skipping these tests.
const available = await testRedisAnswers('Redis limit tests');

let redis: Redis;
const prefixes: string[] = [];
const newPrefix = () => {
  const prefix = `careplane-test:${randomUUID()}:`;
  prefixes.push(prefix);
  return prefix;
};
const keysUnder = async (prefix: string) => {
  const keys: string[] = [];
  let cursor = '0';
  do {
    const [next, batch] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
    cursor = next;
    keys.push(...batch);
  } while (cursor !== '0');
  return keys;
};

type Answer = { status: number; headers: Headers; body: Record<string, unknown> };
const backchannel = (server: AuthTestServer, loginHint: string): Promise<Answer> =>
  fetch(`${server.baseUrl}/auth/backchannel`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ client_id: CONSOLE_CLIENT_ID, scope: 'openid', login_hint: loginHint }),
  }).then(async (response) => ({
    status: response.status,
    headers: response.headers,
    body: (await response.json()) as Record<string, unknown>,
  }));

/** Two processes on one database and one Redis, with one issuer (as behind a load balancer). */
async function pair(env: Record<string, string>): Promise<[AuthTestServer, AuthTestServer]> {
  const shared = { PUBLIC_URL: `http://127.0.0.1:${await freePort()}`, REDIS_URL, ...env };
  const first = await startAuthTestServer(shared);
  const second = await startAuthTestServer(shared, first.database);
  return [first, second];
}

describe.skipIf(!available)('rate limits shared through Redis', () => {
  const started: AuthTestServer[] = [];

  beforeAll(() => {
    redis = new Redis(REDIS_URL);
  });

  afterAll(async () => {
    // The second of each pair first: the first one owns the database.
    for (const server of started.reverse()) await server.close();
    for (const prefix of prefixes) {
      const keys = await keysUnder(prefix);
      if (keys.length) await redis.del(...keys);
      expect(await keysUnder(prefix)).toEqual([]);
    }
    redis?.disconnect();
  });

  it('one budget per identity across two processes, alike for unknown identities', async () => {
    const prefix = newPrefix();
    const [a, b] = await pair({ REDIS_KEY_PREFIX: prefix, AUTH_RATE_LIMIT_PER_IDENTITY: '3' });
    started.push(a, b);
    await a.server.identities.create({ username: 'shared@careplane.test', firstName: 'S', lastName: 'S' });

    for (const hint of ['shared@careplane.test', 'nobody-here@careplane.test']) {
      // Alternating between the processes: each saw at most two, yet the fourth is refused.
      const answers = [
        await backchannel(a, hint),
        await backchannel(b, hint),
        await backchannel(a, hint),
        await backchannel(b, hint),
      ];
      expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 429]);
      expect(answers[3]!.body.error).toBe('too_many_requests');
      expect(Number(answers[3]!.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    // The counts live in Redis under this deployment's prefix.
    expect((await keysUnder(`${prefix}auth:limit:login:`)).length).toBe(2);
    const [key] = await keysUnder(`${prefix}auth:limit:login:`);
    expect(await redis.get(key!)).toBe('4');
    expect(await redis.pttl(key!)).toBeGreaterThan(0);
  });

  it('one budget per caller address across two processes', async () => {
    const prefix = newPrefix();
    const [a, b] = await pair({ REDIS_KEY_PREFIX: prefix, AUTH_RATE_LIMIT_PER_CLIENT: '5' });
    started.push(a, b);
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const target = i % 2 === 0 ? a : b;
      statuses.push((await fetch(`${target.baseUrl}/auth/qr/sessions`, { method: 'POST' })).status);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    const refused = await fetch(`${a.baseUrl}/auth/qr/sessions`, { method: 'POST' });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    // Discovery counts into a budget of its own.
    expect((await fetch(`${b.baseUrl}/auth/.well-known/openid-configuration`)).status).toBe(200);
    expect(await keysUnder(`${prefix}auth:rate:`)).toHaveLength(2);
  });

  it('another prefix is another budget', async () => {
    const store = (prefix: string) => new RedisLimitStore(redis, prefix);
    const one = store(newPrefix());
    const other = store(newPrefix());
    expect((await one.hit('k', 60_000)).count).toBe(1);
    expect((await one.hit('k', 60_000)).count).toBe(2);
    const fresh = await other.hit('k', 60_000);
    expect(fresh.count).toBe(1);
    expect(fresh.resetAt).toBeGreaterThan(Date.now() + 59_000);
  });
});

describe('when Redis does not answer', () => {
  it('a sign-in is not held for it: a Redis that takes connections but never answers, or none at all', async () => {
    // Takes the connection and says nothing, as a hung Redis (or a proxy in front of a dead one) does.
    const silent = net.createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as net.AddressInfo;
    const limits = { AUTH_RATE_LIMIT_PER_IDENTITY: '2' };
    const servers = [
      await startAuthTestServer({ ...limits, REDIS_URL: `redis://127.0.0.1:${port}` }),
      await startAuthTestServer({ ...limits, REDIS_URL: `redis://127.0.0.1:${await freePort()}` }),
    ];
    try {
      for (const server of servers) {
        // Each answers instead of waiting on Redis for good, and counts by itself: the identity's third
        // sign-in within the minute is refused, as it would be with Redis.
        const answers = [];
        for (let attempt = 0; attempt < 3; attempt++) {
          answers.push((await backchannel(server, 'nobody@careplane.test')).status);
        }
        expect(answers).toEqual([200, 200, 429]);
        expect((await fetch(`${server.baseUrl}/auth/qr/sessions`, { method: 'POST' })).status).toBe(200);
      }
    } finally {
      for (const server of servers) await server.close();
      silent.close();
    }
  });

  it('counts the hit in this process and reports the failure: the limit holds, and sign-ins go on', async () => {
    const port = await freePort();
    const broken = new Redis(`redis://127.0.0.1:${port}`, {
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
      lazyConnect: true,
    });
    broken.on('error', () => undefined);
    const errors: unknown[] = [];
    const store = new RedisLimitStore(broken, 'careplane-test:', (error) => errors.push(error));
    const counts = [];
    for (let hit = 0; hit < 3; hit++) counts.push((await store.hit('k', 60_000)).count);
    expect(counts).toEqual([1, 2, 3]);
    expect(errors).toHaveLength(3);
    // A limiter on it refuses the hit past its budget, as it would with Redis answering.
    const limiter = new Limiter(store, 3);
    await expect(limiter.check('k')).rejects.toBeInstanceOf(TooManyRequests);
    broken.disconnect();
  });
});
