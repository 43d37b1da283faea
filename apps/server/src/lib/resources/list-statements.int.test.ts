// A list's statements are rendered once per shape and bound with each request's values (repository.ts,
// decision 052). Requests of one shape must still each get their own answer: other values, another page,
// another scope, another relation tree, counted or not. Each is compared with the same list computed by
// filtering every row in JavaScript, on the embedded database and on PostgreSQL.
import { asc, eq, getTableColumns, inArray, sql, type SQL } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineListSpec, filterKinds } from '@careplane/shared/common/list-spec';
import { iotDeviceData, users } from '@/db/schema/index.js';
import { generateScaleData } from '@/db/seed/scale.js';
import { createTestDatabase, type TestDatabase } from '@/test/harness.js';
import { responseJsonSchema } from '../response-serializer.js';
import { declaresEveryField, renderedKey } from './answer-sql.js';
import { defineResource } from './definition.js';
import { entitySpec } from './graph.js';
import { bindListSpec, column } from './filters.js';
import type { RelationTree } from './relations.js';
import { createResourceRepository } from './repository.js';

// Two resources as the engine sees them, with list specs of their own (lib sits below the modules).
const anything = z.object({}).passthrough();
const userSpec = defineListSpec({
  resource: 'users',
  filters: { id: filterKinds.uuid, isBlocked: filterKinds.boolean },
  search: ['lastName'],
  sort: ['createdAt'],
  relations: ['commandCenters'],
  defaultSort: { path: 'createdAt', direction: 'desc' },
});
const usersRepository = createResourceRepository(
  defineResource({
    name: 'users',
    label: 'User',
    entity: 'users',
    table: users,
    idColumn: users.id,
    path: '/api/users',
    schemas: { create: anything, update: anything, item: anything },
    list: {
      spec: userSpec,
      query: bindListSpec(userSpec, {
        idColumn: users.id,
        filters: { id: column(users.id), isBlocked: column(users.isBlocked) },
        search: { lastName: users.lastName },
        sort: { createdAt: users.createdAt },
      }),
    },
  }),
);
const readingSpec = defineListSpec({
  resource: 'iot-device-data',
  filters: { id: filterKinds.uuid },
  search: [],
  sort: ['timestamp'],
  relations: [],
  defaultSort: { path: 'timestamp', direction: 'desc' },
  timeRange: 'timestamp',
});
const readingsRepository = createResourceRepository(
  defineResource({
    name: 'iot-device-data',
    label: 'Reading',
    entity: 'iotDeviceData',
    table: iotDeviceData,
    idColumn: iotDeviceData.id,
    path: '/api/iot-devices/data',
    schemas: { create: anything, update: anything, item: anything },
    list: {
      spec: readingSpec,
      query: bindListSpec(readingSpec, {
        idColumn: iotDeviceData.id,
        time: iotDeviceData.timestamp,
        filters: { id: column(iotDeviceData.id) },
        search: {},
        sort: { timestamp: iotDeviceData.timestamp },
      }),
    },
  }),
);

let database: TestDatabase;

interface UserRow {
  id: string;
  lastName: string | null;
  isBlocked: boolean;
}
let everyone: UserRow[];

/** The statements sent since the last look (the query log of the test's database). */
let sent: string[] = [];
const counts = () => {
  const found = sent.filter((query) => query.startsWith('select count(*)::int as "total"')).length;
  sent = [];
  return found;
};

beforeAll(async () => {
  database = await createTestDatabase({ onQuery: (query) => sent.push(query) });
  await generateScaleData(database.handle, { users: 200, readings: 600 });
  everyone = await database.handle.db
    .select({ id: users.id, lastName: users.lastName, isBlocked: users.isBlocked })
    .from(users)
    .orderBy(asc(users.id));
});
afterAll(() => database?.drop());

const page = (criteria: Partial<Parameters<typeof usersRepository.list>[1]>) => ({
  filters: [],
  filtersLike: [],
  sort: [],
  relations: [],
  limit: 10,
  offset: 0,
  ...criteria,
});
const ids = (items: unknown[]) => items.map((item) => (item as { id: string }).id);
const idSet = (items: unknown[]) => ids(items).sort();

describe('list statements rendered once per shape', () => {
  it('binds each request its own filter values, page and count', async () => {
    const db = database.handle.db;
    const [a, b, c] = [everyone[3]!, everyone[50]!, everyone[77]!];
    const first = await usersRepository.list(db, page({ filters: [`id~${a.id},${b.id}`] }));
    const second = await usersRepository.list(db, page({ filters: [`id~${b.id},${c.id}`] }));
    expect(idSet(first.items)).toEqual([a.id, b.id].sort());
    expect(idSet(second.items)).toEqual([b.id, c.id].sort());
    expect([first.total, second.total]).toEqual([2, 2]);

    // The same shape, another page; then uncounted.
    const all = ids((await usersRepository.list(db, page({ limit: 1000 }))).items);
    expect([...all].sort()).toEqual(everyone.map((row) => row.id));
    const later = await usersRepository.list(db, page({ limit: 7, offset: 21 }));
    expect(ids(later.items)).toEqual(all.slice(21, 28));
    expect(later.total).toBe(all.length);
    const uncounted = await usersRepository.list(db, page({ limit: 7, offset: 35, count: false }));
    expect(ids(uncounted.items)).toEqual(all.slice(35, 42));
    expect(uncounted.total).toBeNull();
  });

  it('binds searches, nulls and booleans by value, in one shape or another', async () => {
    const db = database.handle.db;
    const named = everyone.find((row) => row.lastName && row.lastName.length > 3)!;
    const fragment = named.lastName!.slice(1, 4).toLowerCase();
    for (const text of [fragment, 'zzqx-none']) {
      const found = await usersRepository.list(db, page({ filtersLike: [`lastName~${text}`], limit: 1000 }));
      expect(idSet(found.items)).toEqual(
        everyone.filter((row) => row.lastName?.toLowerCase().includes(text)).map((row) => row.id),
      );
    }
    for (const blocked of [true, false]) {
      const found = await usersRepository.list(db, page({ filters: [`isBlocked~${blocked}`], limit: 1000 }));
      expect(idSet(found.items)).toEqual(
        everyone.filter((row) => row.isBlocked === blocked).map((row) => row.id),
      );
    }
  });

  it('never shares a statement between scopes, even of one text', async () => {
    const db = database.handle.db;
    const [a, b] = [everyone[5]!, everyone[6]!];
    const only = (id: string) => eq(users.id, id);
    expect(renderedKey(only(a.id))).not.toEqual(renderedKey(only(b.id)));
    const seenByA = await usersRepository.list(db, page({}), only(a.id));
    const seenByB = await usersRepository.list(db, page({}), only(b.id));
    expect(ids(seenByA.items)).toEqual([a.id]);
    expect(ids(seenByB.items)).toEqual([b.id]);
    const none = await usersRepository.list(db, page({}), sql`false`);
    expect(none).toEqual({ items: [], total: 0 });
    const both = await usersRepository.list(db, page({}), inArray(users.id, [a.id, b.id]));
    expect(idSet(both.items)).toEqual([a.id, b.id].sort());
  });

  it('embeds the relations each request asks for', async () => {
    const db = database.handle.db;
    const plain = await usersRepository.list(db, page({ limit: 3 }));
    const related = await usersRepository.list(db, page({ limit: 3, relations: ['commandCenters'] }));
    expect(ids(plain.items)).toEqual(ids(related.items));
    expect(plain.items.every((item) => !('commandCenters' in (item as object)))).toBe(true);
    expect(
      related.items.every((item) => Array.isArray((item as { commandCenters: unknown }).commandCenters)),
    ).toBe(true);
  });

  it('binds time bounds by value', async () => {
    const db = database.handle.db;
    const readings = await db
      .select({ id: iotDeviceData.id, timestamp: iotDeviceData.timestamp })
      .from(iotDeviceData)
      .orderBy(asc(iotDeviceData.timestamp), asc(iotDeviceData.id));
    const stamps = readings.map((row) => row.timestamp);
    const ranges: [number, number][] = [
      [stamps[10]!, stamps[40]!],
      [stamps[200]!, stamps[260]!],
    ];
    for (const [from, to] of ranges) {
      const found = await readingsRepository.list(
        db,
        page({ from, to, sort: ['timestamp:asc'], limit: 500 }),
      );
      const expected = readings.filter((row) => row.timestamp >= from && row.timestamp <= to);
      expect(found.total).toBe(expected.length);
      expect(
        (found.items as { timestamp: number }[]).every(
          (item) => item.timestamp >= from && item.timestamp <= to,
        ),
      ).toBe(true);
    }
  });
});

describe('what a remembered query asks (decision 061)', () => {
  /** A page as the query validator hands it on: frozen, the same object for every request of one query. */
  const remembered = (criteria: Parameters<typeof page>[0]) => {
    const frozen = page(criteria);
    for (const value of Object.values(frozen)) if (Array.isArray(value)) Object.freeze(value);
    return Object.freeze(frozen);
  };

  it('is read once per page object, and each page keeps its own criteria, values and relations', async () => {
    const db = database.handle.db;
    const [a, b, c] = [everyone[8]!, everyone[9]!, everyone[10]!];
    const onlyA = remembered({ filters: [`id~${a.id}`] });
    const bAndC = remembered({ filters: [`id~${b.id},${c.id}`], relations: ['commandCenters'] });
    const sameShapeAsA = remembered({ filters: [`id~${c.id}`] });
    for (let round = 0; round < 2; round++) {
      expect(ids((await usersRepository.list(db, onlyA)).items)).toEqual([a.id]);
      expect(idSet((await usersRepository.list(db, bAndC)).items)).toEqual([b.id, c.id].sort());
      expect(ids((await usersRepository.list(db, sameShapeAsA)).items)).toEqual([c.id]);
      const written = (await usersRepository.listJson(db, bAndC))!;
      const items = JSON.parse(written.items) as { id: string; commandCenters: unknown }[];
      expect(idSet(items)).toEqual([b.id, c.id].sort());
      expect(items.every((item) => Array.isArray(item.commandCenters))).toBe(true);
      expect(written.total).toBe(2);
    }
    // The caller's scope is never part of what is remembered.
    expect(
      (await usersRepository.list(db, bAndC, eq(users.id, b.id))).items.map(
        (item) => (item as { id: string }).id,
      ),
    ).toEqual([b.id]);
    expect((await usersRepository.list(db, onlyA, eq(users.id, b.id))).items).toEqual([]);
  });

  it('refuses a bad value every time it is asked', async () => {
    const bad = remembered({ filters: ['id~not-a-uuid'] });
    for (let round = 0; round < 2; round++)
      await expect(usersRepository.list(database.handle.db, bad)).rejects.toMatchObject({ statusCode: 400 });
  });
});

describe('answers written by the database (decision 058)', () => {
  const both = async (criteria: Partial<Parameters<typeof usersRepository.list>[1]>, scope?: SQL) => {
    const db = database.handle.db;
    const rows = await usersRepository.list(db, page(criteria), scope);
    const written = await usersRepository.listJson(db, page(criteria), scope);
    return { rows, written: written! };
  };

  it('are the answers the rows give, in the same order, with the same total', async () => {
    const [a, b] = [everyone[8]!, everyone[9]!];
    const shapes: [Partial<Parameters<typeof usersRepository.list>[1]>, SQL?][] = [
      [{}],
      [{ limit: 25, offset: 13 }],
      [{ sort: ['createdAt:asc'], limit: 40, relations: ['commandCenters'] }],
      [{ relations: ['commandCenters'], count: false, offset: 5 }],
      [{ filtersLike: ['lastName~zzqx-none'] }],
      [{ relations: ['commandCenters'], filtersLike: ['lastName~zzqx-none'] }],
      [{}, inArray(users.id, [a.id, b.id])],
      [{ limit: 1000 }, sql`false`],
    ];
    for (const [criteria, scope] of shapes) {
      const { rows, written } = await both(criteria, scope);
      expect(JSON.parse(written.items)).toEqual(rows.items);
      expect(written.total).toBe(rows.total);
    }
    const plain = await both({ limit: 3 });
    expect(JSON.parse(plain.written.items)).toHaveLength(3);
    // One line, the rows joined by bare commas.
    expect(plain.written.items).not.toContain('\n');
    expect(plain.written.items).toContain('},{');
  });

  it('know the total from a short page, and count every match only for a full page or one past the end', async () => {
    const [a, b] = [everyone[20]!, everyone[21]!];
    const all = everyone.length;
    const pair = inArray(users.id, [a.id, b.id]);
    // The page's criteria, its scope, the total, and whether every match is counted.
    const cases: [Partial<Parameters<typeof usersRepository.list>[1]>, SQL | undefined, number, boolean][] = [
      [{ limit: 10 }, undefined, all, true], // a full page
      [{ limit: 1000 }, undefined, all, false], // a short page
      [{ limit: all }, undefined, all, true], // exactly full
      [{ limit: 10, offset: all - 5 }, undefined, all, false], // the short last page
      [{ limit: 10, offset: all }, undefined, all, true], // empty, just past the end
      [{ limit: 10, offset: all + 300 }, undefined, all, true], // empty, far past the end
      [{ filtersLike: ['lastName~zzqx-none'] }, undefined, 0, false], // an empty first page
      [{ relations: ['commandCenters'], limit: 10, offset: all - 3 }, undefined, all, false],
      [{ relations: ['commandCenters'], limit: 10, offset: all + 1 }, undefined, all, true],
      [{ relations: ['commandCenters'], limit: 10 }, undefined, all, true],
      [{ limit: 10 }, pair, 2, false],
      [{ limit: 1 }, pair, 2, true],
      [{ limit: 10, offset: 5 }, pair, 2, true],
    ];
    for (const [criteria, scope, total, counted] of cases) {
      const db = database.handle.db;
      sent = [];
      const rows = await usersRepository.list(db, page(criteria), scope);
      expect(counts(), `rows: ${JSON.stringify(criteria)}`).toBe(counted ? 1 : 0);
      const written = (await usersRepository.listJson(db, page(criteria), scope))!;
      // One statement writes the page, its relations included; the count follows it only when needed.
      const statements = sent.length;
      expect(counts(), `json: ${JSON.stringify(criteria)}`).toBe(counted ? 1 : 0);
      expect(statements, `json statements: ${JSON.stringify(criteria)}`).toBe(counted ? 2 : 1);
      expect(written.total, JSON.stringify(criteria)).toBe(total);
      expect(rows.total, JSON.stringify(criteria)).toBe(total);
      expect(JSON.parse(written.items)).toEqual(rows.items);
    }
    const uncounted = await usersRepository.listJson(database.handle.db, page({ count: false, limit: 1000 }));
    expect(uncounted!.total).toBeNull();
    expect(JSON.parse(uncounted!.items)).toHaveLength(all);
  });

  it('write any text as the rows read it: quotes, backslashes, control characters, Thai and emoji', async () => {
    const db = database.handle.db;
    const target = everyone[11]!;
    const lastName = 'ดวงใจ "Duang" \\ \u0001\t\n 🙂 </script>';
    await db.update(users).set({ lastName }).where(eq(users.id, target.id));
    const { rows, written } = await both({ filters: [`id~${target.id}`] });
    expect((rows.items[0] as { lastName: string }).lastName).toBe(lastName);
    expect(JSON.parse(written.items)).toEqual(rows.items);
  });
});

describe('answers written by the database hold only what the contract declares', () => {
  const tree = { commandCenters: {} };
  const userFields = Object.fromEntries(
    Object.keys(getTableColumns(users))
      .filter((key) => !entitySpec('users').hidden.includes(key))
      .map((key) => [key, z.unknown()]),
  );
  const centers = (entry: z.ZodType) => ({ commandCenters: z.array(entry) });
  const declared = (item: z.ZodType, relations: RelationTree = tree) =>
    declaresEveryField(database.handle.db, 'users', relations, responseJsonSchema(item));

  it('every column at every level, or an open object', () => {
    expect(declared(z.object({ ...userFields, ...centers(z.looseObject({})) }))).toBe(true);
    expect(declared(z.looseObject({}))).toBe(true);
    // An open object still writes the relations it declares as their contract says.
    expect(declared(z.looseObject(centers(z.object({ id: z.string() }))))).toBe(false);
    expect(declared(z.looseObject(centers(z.looseObject({}))))).toBe(true);
    // A user field or a center's field the contract leaves out: the route's writer must leave it out.
    const withoutLastName = Object.fromEntries(
      Object.entries(userFields).filter(([key]) => key !== 'lastName'),
    );
    expect(declared(z.object({ ...withoutLastName, ...centers(z.looseObject({})) }))).toBe(false);
    expect(declared(z.object({ ...userFields, ...centers(z.object({ id: z.string() })) }))).toBe(false);
    expect(declared(z.object(userFields))).toBe(false);
    expect(declared(z.object(userFields), {})).toBe(true);
  });

  it('leaves a list whose contract declares less to the writer', async () => {
    const narrow = createResourceRepository(
      defineResource({
        ...usersRepository.definition,
        schemas: { ...usersRepository.definition.schemas, item: z.object({ id: z.string() }) },
      }),
    );
    expect(await narrow.listJson(database.handle.db, page({}))).toBeUndefined();
  });
});
