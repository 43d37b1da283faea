// The listener of other processes' changes, when its database connection cannot be had: it keeps trying, and
// says so once per outage rather than once per try (a log line a second, each with a stack, buried the rest).
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '@/db/client.js';
import { freePort } from '@/test/auth-server.js';
import { listenForRemoteChanges, type ChangeListenerHandle } from './change-listener.js';
import type { ChangeFeed } from './changes.js';

let listener: ChangeListenerHandle | undefined;
let pool: pg.Pool | undefined;
afterEach(async () => {
  await listener?.close();
  await pool?.end();
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
    listener = listenForRemoteChanges(database, feed, (error) => errors.push(error));

    await expect.poll(() => attempts, { timeout: 10_000 }).toBeGreaterThanOrEqual(3);
    expect(errors).toHaveLength(1);
  });
});
