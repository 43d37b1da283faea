// The embedded database's client for drizzle (pglite-drizzle.ts): drizzle's per-statement `parsers` option is
// left out, and the rows are the same as drizzle reads them with it.
import { types } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { date, interval, numeric, pgTable, serial, timestamp } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from './client.js';
import { withoutRedundantParsers } from './pglite-drizzle.js';

const probe = pgTable('pglite_drizzle_probe', {
  id: serial('id').primaryKey(),
  at: timestamp('at', { withTimezone: true }).notNull(),
  local: timestamp('local').notNull(),
  day: date('day').notNull(),
  span: interval('span').notNull(),
  amounts: numeric('amounts').array().notNull(),
  moments: timestamp('moments', { withTimezone: true }).array().notNull(),
});

/** drizzle's option, as its PGlite session sends it with every statement. */
const drizzleOption = {
  rowMode: 'array' as const,
  parsers: Object.fromEntries(
    [types.TIMESTAMP, types.TIMESTAMPTZ, types.INTERVAL, types.DATE, 1231, 1115, 1185, 1187, 1182].map(
      (type) => [type, (value: string) => value],
    ),
  ),
};

describe('withoutRedundantParsers', () => {
  it('leaves out drizzle’s text parsers and keeps the rest of the option', () => {
    expect(withoutRedundantParsers(drizzleOption)).toEqual({ rowMode: 'array' });
    expect(drizzleOption.parsers).toBeDefined();
  });

  it('passes any other parser on as it came', () => {
    const own = { parsers: { ...drizzleOption.parsers, [types.INT4]: () => 'mine' } };
    expect(withoutRedundantParsers(own)).toBe(own);
    expect(withoutRedundantParsers(undefined)).toBeUndefined();
    const plain = { rowMode: 'object' as const };
    expect(withoutRedundantParsers(plain)).toBe(plain);
  });
});

describe('drizzle on the embedded database', () => {
  let database: DatabaseHandle;
  const at = new Date('2026-11-26T19:45:12.345Z');
  const row = {
    at,
    local: new Date('2026-11-26T07:00:00.000Z'),
    day: '2026-11-26',
    span: '1 day 02:03:04',
    amounts: ['1.50', '20'],
    moments: [at, new Date('2025-01-02T03:04:05.006Z')],
  };

  beforeAll(async () => {
    database = await openDatabase({});
    await database.db.execute(sql`create table pglite_drizzle_probe (
      id serial primary key, at timestamptz not null, local timestamp not null, day date not null,
      span interval not null, amounts numeric[] not null, moments timestamptz[] not null)`);
  });
  afterAll(() => database.close());

  it('reads timestamps, dates, intervals and their arrays as drizzle maps them', async () => {
    await database.db.insert(probe).values(row);
    const [read] = await database.db.select().from(probe);
    expect(read).toEqual({ id: 1, ...row });
    // The relational query and the raw execute go through the same client.
    const executed = await database.db.execute(sql`select at, day from pglite_drizzle_probe`);
    expect((executed as { rows: unknown[] }).rows).toEqual([
      { at: '2026-11-26 19:45:12.345+00', day: '2026-11-26' },
    ]);
  });

  it('does the same inside a transaction, and rolls back with it', async () => {
    const inside = await database.db
      .transaction(async (tx) => {
        await tx.insert(probe).values({ ...row, day: '2027-01-01' });
        const rows = await tx.select().from(probe);
        tx.rollback();
        return rows;
      })
      .catch((error: unknown) => error);
    expect(inside).toBeInstanceOf(Error);
    const after = await database.db.select().from(probe);
    expect(after.map((one) => one.day)).toEqual(['2026-11-26']);
    const kept = await database.db.transaction(async (tx) => tx.select().from(probe));
    expect(kept[0]).toEqual({ id: 1, ...row });
  });

  it('a raw query reads those types as text too', async () => {
    const { rows } = await database.rawQuery('select at, span from pglite_drizzle_probe');
    expect(rows).toEqual([{ at: '2026-11-26 19:45:12.345+00', span: '1 day 02:03:04' }]);
  });
});
