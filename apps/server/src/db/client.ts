// One database handle for the whole server: embedded PGlite by default, PostgreSQL with DATABASE_URL.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { migrationsFolder } from '@/locations.js';
import * as schema from './schema/index.js';
import { withLinkRelations } from './schema/links.js';
import { EmbeddedDatabase } from './pglite-remote.js';

export type Schema = typeof schema;
export type Database = PgDatabase<PgQueryResultHKT, Schema>;
/** A transaction handle has the same query surface as the database. */
export type Executor = Database;

export interface DatabaseHandle {
  db: Database;
  kind: 'pglite' | 'postgres';
  /**
   * Runs raw SQL on the underlying driver; benchmarks compare the API against it. `name`: a prepared statement
   * of that name (parsed once per connection), as the API prepares it. PGlite prepares every data statement by
   * its text (pglite-statements.ts), raw or not, and ignores the name; it runs on its own thread, reached as
   * drizzle reaches it (pglite-remote.ts).
   */
  rawQuery: (text: string, params?: unknown[], name?: string) => Promise<{ rows: unknown[] }>;
  /** The driver under drizzle: PostgreSQL's pool, or the embedded database on its own thread. */
  driver: { kind: 'pglite'; client: EmbeddedDatabase } | { kind: 'postgres'; pool: pg.Pool };
  close: () => Promise<void>;
}

export interface OpenDatabaseOptions {
  databaseUrl?: string | undefined;
  /** Directory of the embedded database; undefined keeps it in memory. */
  dataDir?: string | undefined;
  /**
   * Embedded, in memory: start from this copy of a database (PGlite's `dumpDataDir`) instead of an empty one.
   * The tests start every file's database from one migrated copy (src/test/global-setup.ts); the migrations
   * still run, and find nothing left to do.
   */
  loadDataDir?: Blob | undefined;
  poolSize?: number;
  /** Sees every statement drizzle sends; benchmarks use it to replay the API's SQL on the raw driver. */
  onQuery?: (query: string, params: unknown[]) => void;
  /** Told when an idle pooled connection fails (the pool has already let it go). */
  onIdleError?: (error: Error) => void;
  /**
   * PostgreSQL: the longest a query waits for a pooled connection, runs, and waits for a lock (ms; 0 or none:
   * no limit). The server sets them (DATABASE_*_TIMEOUT_MS); migrations run without them.
   */
  timeouts?: { connectMs: number; statementMs: number; lockMs: number };
}

// int8 as JS numbers: ids are uuids, and the bigint columns hold millisecond timestamps.
pg.types.setTypeParser(20, (value) => Number(value));

const queryLogger = (options: OpenDatabaseOptions) => {
  const { onQuery } = options;
  return onQuery ? { logQuery: (query: string, params: unknown[]) => onQuery(query, params) } : false;
};

export async function openDatabase(options: OpenDatabaseOptions): Promise<DatabaseHandle> {
  if (options.databaseUrl) {
    const { timeouts } = options;
    const limit = (ms: number | undefined) => (ms ? ms : undefined);
    // Migrations first, on a connection of their own without the deadlines of requests: an index on a large
    // table takes the time it takes.
    const migrator = new pg.Client({
      connectionString: options.databaseUrl,
      connectionTimeoutMillis: limit(timeouts?.connectMs),
    });
    await migrator.connect();
    try {
      // Several processes starting at once on a new database would each create the same tables: the first
      // to take this lock migrates, the others then find nothing left to do. Ending the connection frees it.
      await migrator.query(`select pg_advisory_lock(hashtext('careplane.migrations'))`);
      await migratePg(drizzlePg(migrator, { schema, casing: 'snake_case' }), { migrationsFolder });
    } finally {
      await migrator.end();
    }
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: options.poolSize ?? 20,
      // Waiting for a connection (the server down, the pool exhausted), a statement, a lock: each bounded, so
      // a request answers 503 instead of hanging.
      connectionTimeoutMillis: limit(timeouts?.connectMs),
      statement_timeout: limit(timeouts?.statementMs),
      lock_timeout: limit(timeouts?.lockMs),
    });
    // An idle connection closed by the server (restart, failover, a dropped database) must not crash the
    // process: the pool drops it and opens a new one on the next query.
    pool.on('error', (error) => options.onIdleError?.(error));
    const db = drizzlePg(pool, {
      schema: withLinkRelations(schema),
      casing: 'snake_case',
      logger: queryLogger(options),
    });
    return {
      db: db as unknown as Database,
      kind: 'postgres',
      rawQuery: async (text, params, name) =>
        name ? pool.query({ name, text, values: params }) : pool.query(text, params as unknown[]),
      driver: { kind: 'postgres', pool },
      close: () => pool.end(),
    };
  }
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });
  // PGlite on a thread of its own (decision 088): its statements no longer take turns with HTTP on one core.
  const client = await EmbeddedDatabase.open({
    dataDir: options.dataDir ? path.join(options.dataDir, 'pgdata') : undefined,
    loadDataDir: options.loadDataDir ? await options.loadDataDir.arrayBuffer() : undefined,
  });
  try {
    // The thread prepares drizzle's statements and raw ones alike, so a benchmark's replay is sent as the
    // API's was.
    const db = drizzlePglite({
      client: client as unknown as PGlite,
      schema: withLinkRelations(schema),
      casing: 'snake_case',
      logger: queryLogger(options),
    });
    await migratePglite(db, { migrationsFolder });
    return {
      db: db as unknown as Database,
      kind: 'pglite',
      rawQuery: async (text, params) => client.query(text, params),
      driver: { kind: 'pglite', client },
      close: () => client.close(),
    };
  } catch (error) {
    await client.close().catch(() => undefined);
    throw error;
  }
}
