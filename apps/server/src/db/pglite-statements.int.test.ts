// Prepared statements on the embedded database (pglite-statements.ts): the same answers and errors as PGlite's
// own `query`, each text parsed once, under PGlite's locks, and nothing lost when a statement goes stale.
import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PgliteStatements } from './pglite-statements.js';

let client: PGlite;

const preparedCount = async () =>
  Number(
    (await client.query<{ n: number }>('select count(*)::int as n from pg_prepared_statements')).rows[0]!.n,
  );

beforeAll(async () => {
  client = await PGlite.create();
  await client.exec(`
    create table notes (
      id serial primary key,
      body text not null unique,
      at timestamptz,
      tags text[],
      extra jsonb,
      done boolean not null default false
    );`);
});

afterAll(async () => {
  await client.close();
});

beforeEach(async () => {
  await client.exec('deallocate all; truncate notes restart identity;');
});

describe('PgliteStatements', () => {
  it('answers as PGlite’s query does, in both row modes, and parses each text once', async () => {
    const statements = new PgliteStatements(client);
    const insert = 'insert into notes (body, at, tags, extra) values ($1, $2, $3, $4) returning id, at';
    const at = new Date('2026-11-26T10:00:00Z');
    const values = [at, ['a', 'b'], { dose: 5, note: 'ยาเช้า' }];
    const prepared = await statements.query(insert, ['first', ...values]);
    const own = await client.query(insert, ['second', ...values]);
    expect({ ...prepared, rows: [] }).toEqual({ ...own, rows: [] });
    expect(prepared.rows).toEqual([{ id: 1, at }]);
    expect(own.rows).toEqual([{ id: 2, at }]);
    await statements.query(insert, ['third', null, null, null]);

    const select = 'select id, body, at, tags, extra, done from notes where id >= $1 order by id';
    // The values went in the same through both paths.
    const [first, second] = (await client.query<Record<string, unknown>>(select, [1])).rows;
    expect({ ...first, id: 0, body: '' }).toEqual({ ...second, id: 0, body: '' });
    for (const rowMode of ['object', 'array'] as const) {
      const own = await client.query(select, [1], { rowMode });
      expect(await statements.query(select, [1], { rowMode })).toEqual(own);
      expect(await statements.query(select, [1], { rowMode })).toEqual(own);
    }
    expect(statements.size).toBe(2);
    expect(await preparedCount()).toBe(2);

    const update = 'update notes set done = $1 where id >= $2';
    const updated = await statements.query(update, [true, 2]);
    expect(updated).toMatchObject({ command: 'UPDATE', affectedRows: 2, rowCount: 2, rows: [] });
    const removed = await statements.query('delete from notes where done = $1', [true]);
    expect(removed).toMatchObject({ command: 'DELETE', affectedRows: 2 });
  });

  it('sends anything but a data statement, and calls with their own types or blobs, through PGlite’s query', async () => {
    const statements = new PgliteStatements(client);
    await statements.query('set statement_timeout = 0');
    await statements.query('select $1::int as n', [1], { paramTypes: [23] });
    expect(statements.size).toBe(0);
    expect(await preparedCount()).toBe(0);
  });

  it('throws the database’s error with the statement, and the next statement runs', async () => {
    const statements = new PgliteStatements(client);
    const insert = 'insert into notes (body) values ($1)';
    await statements.query(insert, ['once']);
    const refused = await statements.query(insert, ['once']).catch((error: unknown) => error);
    expect(refused).toMatchObject({ code: '23505', query: insert, params: ['once'] });

    const unparsable = await statements.query('select from where', []).catch((error: unknown) => error);
    expect(unparsable).toMatchObject({ code: '42601', query: 'select from where' });
    expect(statements.size).toBe(1);

    expect((await statements.query('select count(*)::int as n from notes')).rows).toEqual([{ n: 1 }]);
  });

  it('prepares again a statement that went stale, alone', async () => {
    const statements = new PgliteStatements(client);
    await statements.query("insert into notes (body) values ('x')");
    const all = 'select * from notes';
    expect(Object.keys((await statements.query<object>(all)).rows[0]!)).not.toContain('later');

    await client.exec('alter table notes add column later text');
    try {
      // The plan's result type changed (0A000): prepared again, answered with the new column.
      expect(Object.keys((await statements.query<object>(all)).rows[0]!)).toContain('later');
      // Gone from the database (26000): prepared again.
      await client.exec('deallocate all');
      expect((await statements.query(all)).rows).toHaveLength(1);
    } finally {
      await client.exec('alter table notes drop column later');
    }
  });

  it('closes the least recently used statement past its bound', async () => {
    const statements = new PgliteStatements(client, 2);
    await statements.query('select 1 as a');
    await statements.query('select 2 as b');
    await statements.query('select 1 as a'); // now the most recent
    await statements.query('select 3 as c'); // closes `select 2`
    expect(statements.size).toBe(2);
    const names = await client.query<{ statement: string }>(
      'select statement from pg_prepared_statements order by statement',
    );
    expect(names.rows.map((row) => row.statement)).toEqual(['select 1 as a', 'select 3 as c']);
  });

  it('runs inside a transaction, and a statement alone waits for the transaction to end', async () => {
    const statements = new PgliteStatements(client);
    const count = 'select count(*)::int as n from notes';
    let inserted!: () => void;
    const insertedOnce = new Promise<void>((resolve) => (inserted = resolve));
    const transaction = client.transaction(async (tx) => {
      const query = statements.inTransaction(tx);
      await query('insert into notes (body) values ($1)', ['uncommitted']);
      expect((await query(count)).rows).toEqual([{ n: 1 }]);
      inserted();
      // Let the statement below try to run while the transaction is open.
      await new Promise((resolve) => setImmediate(resolve));
      await tx.rollback();
    });
    await insertedOnce;
    const alone = await statements.query(count);
    await transaction;
    expect(alone.rows).toEqual([{ n: 0 }]);

    const failed = await client
      .transaction(async (tx) => {
        const query = statements.inTransaction(tx);
        await query('insert into notes (body) values ($1)', ['kept?']);
        await query('insert into notes (body) values ($1)', ['kept?']);
      })
      .catch((error: unknown) => error);
    expect(failed).toMatchObject({ code: '23505' });
    expect((await statements.query(count)).rows).toEqual([{ n: 0 }]);
  });

  it('refuses a statement on a closed transaction', async () => {
    const statements = new PgliteStatements(client);
    let query!: ReturnType<PgliteStatements['inTransaction']>;
    await client.transaction(async (tx) => {
      query = statements.inTransaction(tx);
      await tx.rollback();
    });
    await expect(query('select 1')).rejects.toThrow('Transaction is closed');
  });
});
