// The listener of other processes' changes, when its database connection cannot be had: it keeps trying, and
// says so once per outage rather than once per try (a log line a second, each with a stack, buried the rest),
// and once when it listens again.
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '@/db/client.js';
import { freePort } from '@/test/auth-server.js';
import { listenForRemoteChanges, type ChangeListenerHandle } from './change-listener.js';
import type { ChangeFeed } from './changes.js';

let listener: ChangeListenerHandle | undefined;
let pool: pg.Pool | undefined;
let reachable: pg.Pool | undefined;
afterEach(async () => {
  await listener?.close();
  await pool?.end();
  await reachable?.end();
});

describe('listenForRemoteChanges on PostgreSQL', () => {
  it('reports a connection it cannot have once, however often it tries again', async () => {
    pool = new pg.Pool({
      connectionString: `postgres://postgres@127.0.0.1:${await freePort()}/careplane`,
      connectionTimeoutMillis: 500,
    });
    let attempts = 0;
    const connect = pool.connect.bind(pool);
    pool.connect = (() => {
      attempts += 1;
      return connect();
    }) as typeof pool.connect;
    const database = { driver: { kind: 'postgres', pool } } as unknown as DatabaseHandle;
    const feed = { receive: () => undefined, lost: () => undefined } as unknown as ChangeFeed;
    const errors: unknown[] = [];
    let recovered = 0;
    listener = listenForRemoteChanges(database, feed, (error) => errors.push(error), {
      onRecovered: () => (recovered += 1),
    });

    await expect.poll(() => attempts, { timeout: 10_000 }).toBeGreaterThanOrEqual(3);
    expect(errors).toHaveLength(1);
    expect(recovered).toBe(0);

    // The database answers again: the listener says so, once.
    if (!process.env.DATABASE_URL_TEST) return;
    reachable = new pg.Pool({ connectionString: process.env.DATABASE_URL_TEST });
    const answering = reachable;
    pool.connect = (() => answering.connect()) as typeof pool.connect;
    await expect.poll(() => recovered, { timeout: 10_000 }).toBe(1);
    expect(errors).toHaveLength(1);
  });
});
