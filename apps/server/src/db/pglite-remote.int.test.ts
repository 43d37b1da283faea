// The embedded database on its own thread (pglite-remote.ts, pglite-thread.ts): what the server's thread gets
// back is what PGlite gave in one thread (rows, bytes, errors, transactions, notifications, dumps), the server's
// event loop runs while a statement does, and the thread holds no process open.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { messages } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EmbeddedDatabase } from './pglite-remote.js';

const run = promisify(execFile);

describe('the embedded database on its own thread', () => {
  let database: EmbeddedDatabase;

  beforeAll(async () => {
    database = await EmbeddedDatabase.open({});
    await database.query(`create table probe (id int primary key, name text not null unique, data bytea)`);
  });
  afterAll(() => database.close());

  it('answers rows, in object and in array form', async () => {
    await database.query(`insert into probe (id, name) values ($1, $2), ($3, $4)`, [1, 'สมชาย', 2, 'Anna']);
    const { rows } = await database.query(`select id, name from probe order by id`);
    expect(rows).toEqual([
      { id: 1, name: 'สมชาย' },
      { id: 2, name: 'Anna' },
    ]);
    const arrays = await database.query(`select id, name from probe where id = $1`, [2], {
      rowMode: 'array',
    });
    expect(arrays.rows).toEqual([[2, 'Anna']]);
    expect(arrays.fields.map((field) => field.name)).toEqual(['id', 'name']);
  });

  it('gives back the bytes it was given, each value in a buffer of its own', async () => {
    const small = Uint8Array.from([0, 1, 2, 254, 255]);
    const large = new Uint8Array(1024 * 1024).map((_, index) => (index * 7) % 256);
    await database.query(`insert into probe (id, name, data) values (10, 'small', $1), (11, 'large', $2)`, [
      small,
      Buffer.from(large),
    ]);
    const { rows } = await database.query<{ data: Uint8Array }>(
      `select data from probe where id in (10, 11) order by id`,
    );
    expect(
      rows.map((row) => Buffer.from(row.data).equals(Buffer.from(rows[0] === row ? small : large))),
    ).toEqual([true, true]);
    for (const { data } of rows) expect(data.byteLength).toBe(data.buffer.byteLength);
  });

  it('raises the database’s own error, with its code and constraint', async () => {
    const error = await database
      .query(`insert into probe (id, name) values (3, 'Anna')`)
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(messages.DatabaseError);
    expect(error).toMatchObject({
      code: '23505',
      constraint: 'probe_name_key',
      table: 'probe',
      query: `insert into probe (id, name) values (3, 'Anna')`,
    });
    expect((error as Error).message).toContain('duplicate key');
  });

  it('commits a transaction whose callback returns, and rolls back one whose callback throws', async () => {
    const kept = await database.transaction(async (tx) => {
      await tx.query(`insert into probe (id, name) values (20, 'kept')`);
      return (await tx.query<{ n: number }>(`select count(*)::int as n from probe where id = 20`)).rows[0]?.n;
    });
    expect(kept).toBe(1);
    const refused = await database
      .transaction(async (tx) => {
        await tx.query(`insert into probe (id, name) values (21, 'undone')`);
        throw new Error('changed my mind');
      })
      .catch((caught: unknown) => caught);
    expect((refused as Error).message).toBe('changed my mind');
    const failed = await database
      .transaction(async (tx) => {
        await tx.query(`insert into probe (id, name) values (22, 'undone too')`);
        await tx.query(`insert into probe (id, name) values (23, 'kept')`);
      })
      .catch((caught: unknown) => caught);
    expect(failed).toMatchObject({ code: '23505' });
    const { rows } = await database.query(`select id from probe where id between 20 and 23 order by id`);
    expect(rows).toEqual([{ id: 20 }]);
  });

  it('lets a statement from outside a transaction wait until it ends, as one PGlite does', async () => {
    const order: string[] = [];
    let inside!: () => void;
    const opened = new Promise<void>((resolve) => (inside = resolve));
    const transaction = database.transaction(async (tx) => {
      await tx.query(`insert into probe (id, name) values (30, 'first')`);
      inside();
      // The outside statement has been sent by now; it still runs after this transaction.
      await new Promise((resolve) => setTimeout(resolve, 50));
      order.push('transaction');
      await tx.query(`update probe set name = 'first, updated' where id = 30`);
    });
    await opened;
    const outside = database.query(`select name from probe where id = 30`).then((result) => {
      order.push('outside');
      return result.rows;
    });
    await transaction;
    expect(await outside).toEqual([{ name: 'first, updated' }]);
    expect(order).toEqual(['transaction', 'outside']);
    await expect(database.transaction(async (tx) => tx).then((tx) => tx.query('select 1'))).rejects.toThrow(
      'Transaction is closed',
    );
  });

  it('hands over notifications until the listener stops', async () => {
    const heard: string[] = [];
    const unlisten = await database.listen('probe_channel', (payload) => heard.push(payload));
    await database.query(`select pg_notify('probe_channel', 'one')`);
    await database.query(`select pg_notify('probe_channel', 'two')`);
    await expect.poll(() => heard).toEqual(['one', 'two']);
    await unlisten();
    await database.query(`select pg_notify('probe_channel', 'three')`);
    // A statement after the notify has come back: had the listener still been there, it would have heard it.
    await database.query('select 1');
    expect(heard).toEqual(['one', 'two']);
  });

  it('keeps the server’s event loop running while a statement runs', async () => {
    let ticks = 0;
    const timer = setInterval(() => ticks++, 10);
    try {
      await database.query('select pg_sleep(0.4)');
    } finally {
      clearInterval(timer);
    }
    // In one thread, the loop would not have turned once until the statement ended.
    expect(ticks).toBeGreaterThan(5);
  });

  it('dumps its data folder, and a new database starts from the dump', async () => {
    const dump = await database.dumpDataDir('none');
    const copy = await EmbeddedDatabase.open({ loadDataDir: await dump.arrayBuffer() });
    try {
      const { rows } = await copy.query(`select name from probe where id = 1`);
      expect(rows).toEqual([{ name: 'สมชาย' }]);
    } finally {
      await copy.close();
    }
  });
});

describe('a closed embedded database', () => {
  // "PGlite is closed" is what the outage watch (lib/database-outage.ts) reads as a database out of reach: 503.
  it('refuses statements as PGlite does once closed', async () => {
    const database = await EmbeddedDatabase.open({});
    await database.close();
    const error = await database.query('select 1').catch((caught: unknown) => caught);
    expect((error as Error).message).toBe('PGlite is closed');
    await database.close();
  });

  it('does not keep a process alive that left it open', async () => {
    const script = `
      import { EmbeddedDatabase } from ${JSON.stringify(new URL('./pglite-remote.ts', import.meta.url).href)};
      const database = await EmbeddedDatabase.open({});
      const { rows } = await database.query('select 41 + 1 as answer');
      console.log(rows[0].answer);
    `;
    const { stdout } = await run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      timeout: 60_000,
    });
    expect(stdout.trim()).toBe('42');
  }, 90_000);
});
