// Answers selected in their final form (answer-sql.ts) against the way they were made before: drizzle's
// relational query, then shapeRow. For every entity of the graph and each of its relations (and each relation
// of those), on scale data, both must give the same answers.
import { getTableColumns, inArray } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as schema from '@/db/schema/index.js';
import { generateScaleData } from '@/db/seed/scale.js';
import { createTestDatabase, type TestDatabase } from '@/test/harness.js';
import { answerSelect, statement } from './answer-sql.js';
import { entitySpec, type EntityName } from './graph.js';
import { queryShape, shapeRow, type RelationTree } from './relations.js';
import { sql } from 'drizzle-orm';

type Row = Record<string, unknown>;

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
  await generateScaleData(database.handle, { users: 200, readings: 2000 });
});
afterAll(() => database?.drop());

const entities = Object.keys(schema).filter((name): name is EntityName => {
  try {
    return entitySpec(name as EntityName) !== undefined;
  } catch {
    return false;
  }
});

/** Lists in a stable order (many relations without an order of their own come in the database's order). */
function sorted(value: unknown): unknown {
  if (Array.isArray(value)) {
    const items = value.map(sorted);
    return items.every((item) => item && typeof item === 'object' && 'id' in item)
      ? [...(items as Row[])].sort((a, b) => String(a.id).localeCompare(String(b.id)))
      : items;
  }
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value as Row).map(([key, item]) => [key, sorted(item)]));
  return value;
}

function trees(entity: EntityName): RelationTree[] {
  const found: RelationTree[] = [{}];
  for (const [name, spec] of Object.entries(entitySpec(entity).relations)) {
    found.push({ [name]: {} });
    for (const inner of Object.keys(entitySpec(spec.target).relations))
      found.push({ [name]: { [inner]: {} } });
  }
  return found;
}

describe('answers selected in their final form', () => {
  it.each(entities)('%s: the same answers as drizzle with shapeRow, for every relation', async (entity) => {
    const db = database.handle.db;
    const table = schema[entity] as unknown as PgTable;
    const idColumn = getTableColumns(table).id!;
    const ids = (
      (await db.select({ id: idColumn }).from(table).orderBy(idColumn).limit(25)) as { id: string }[]
    ).map((row) => row.id);
    for (const tree of trees(entity)) {
      const items = answerSelect(db, entity, table, tree);
      expect(items, JSON.stringify(tree)).toBeDefined();
      const answers = await statement(
        db,
        sql`select ${items} from ${table} where ${inArray(idColumn, ids)}`,
        {
          named: false,
        },
      ).execute();
      const query = (db.query as unknown as Record<string, { findMany: (options: Row) => Promise<Row[]> }>)[
        entity
      ]!;
      let before: Row[];
      try {
        before = (await query.findMany({ ...queryShape(entity, tree), where: inArray(idColumn, ids) })).map(
          (row) => shapeRow(entity, row, tree),
        );
      } catch (error) {
        // drizzle names a nested table by its whole path, and PostgreSQL cuts names at 63 bytes: two long
        // paths then clash ("cannot be referenced from this part of the query"). Answers selected here name
        // their tables a1, a2, …: nothing to compare with, but they must come.
        expect(String((error as { cause?: unknown }).cause ?? error)).toMatch(/does not exist/);
        expect(answers.length).toBe(ids.length);
        continue;
      }
      expect(sorted(answers), `${entity} ${JSON.stringify(tree)}`).toEqual(sorted(before));
    }
  });
});
