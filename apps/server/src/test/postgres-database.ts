// A database of a test's own on the PostgreSQL server of DATABASE_URL_TEST. Kept apart from harness.ts so that
// Vitest's global setup (global-setup.ts) makes its template the same way without loading the app.
import { randomUUID } from 'node:crypto';
import pg from 'pg';

/**
 * An empty database of the caller's own on the PostgreSQL server of DATABASE_URL_TEST (which must be set):
 * its name, its URL, and how to drop it. For tests that start server processes on it or reach it another way. With
 * `template`, a copy of that database instead of an empty one.
 */
export async function createPostgresDatabase(
  prefix = 'careplane_test',
  template?: string,
): Promise<{
  name: string;
  url: string;
  drop: () => Promise<void>;
}> {
  const serverUrl = process.env.DATABASE_URL_TEST;
  if (!serverUrl) throw new Error('DATABASE_URL_TEST is not set');
  const name = `${prefix}_${randomUUID().replace(/-/g, '').slice(0, 16)}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}${template ? ` template ${template}` : ''}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    drop: async () => {
      const cleanup = new pg.Client({ connectionString: serverUrl });
      await cleanup.connect();
      await cleanup.query(`drop database if exists ${name} with (force)`);
      await cleanup.end();
    },
  };
}
