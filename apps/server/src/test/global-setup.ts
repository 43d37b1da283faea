// Vitest's global setup for the server's tests: one migrated database is made once per run, and every test
// file's own database starts as a copy of it (harness.ts, createTestDatabase) instead of an empty one that each
// file migrates again. Embedded, the copy is PGlite's dump of its data folder (several seconds saved per file on
// two cores: an empty PGlite runs initdb, then every migration); on PostgreSQL, a template database.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '@/db/client.js';
import { createPostgresDatabase } from './postgres-database.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The file holding a migrated embedded database (PGlite's dumpDataDir), when the tests run embedded. */
    pgliteTemplate?: string;
    /** The name of a migrated database on DATABASE_URL_TEST's server, when the tests run there. */
    postgresTemplate?: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  if (process.env.DATABASE_URL_TEST) {
    const template = await createPostgresDatabase('careplane_template');
    // Migrated, then closed: PostgreSQL copies a template only while nobody is connected to it.
    const handle = await openDatabase({ databaseUrl: template.url, poolSize: 1 });
    await handle.close();
    project.provide('postgresTemplate', template.name);
    return template.drop;
  }
  const handle = await openDatabase({});
  if (handle.driver.kind !== 'pglite') throw new Error('expected the embedded database');
  const dump = await handle.driver.client.dumpDataDir('none');
  await handle.close();
  const folder = await mkdtemp(path.join(tmpdir(), 'careplane-template-'));
  const file = path.join(folder, 'migrated.tar');
  await writeFile(file, Buffer.from(await dump.arrayBuffer()));
  project.provide('pgliteTemplate', file);
  return () => rm(folder, { recursive: true, force: true });
}
