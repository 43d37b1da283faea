// A new many-to-many relation needs its declaration, its migration and its contract, nothing else: a link of
// the test's own (a device's watchers, a user's watched devices) declared here, its table made by the
// migration drizzle-kit generates from it, and a resource whose contract names the list. The engine writes
// the list, embeds it on both sides, filters by it, refuses unknown ids and lets the rows go with a record.
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { generateDrizzleJson, generateMigration } from 'drizzle-kit/api';
import Fastify, { type FastifyInstance } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineListSpec, filterKinds as k } from '@careplane/shared/common/list-spec';
import { embeddedList, idList, recordSchema, requiredText } from '@careplane/shared/common/primitives';
import * as schema from '@/db/schema/index.js';
import { defineLink } from '@/db/schema/links.js';
import { errorsPlugin } from '@/plugins/errors.js';
import { jsonBodyPlugin } from '@/plugins/json-body.js';
import { createResponseSerializerCompiler } from '@/lib/response-serializer.js';
import type { Caller } from '@/lib/caller.js';
import { createChangeFeed } from '@/lib/changes.js';
import { createStore } from '@/lib/store.js';
import { defineResource } from '@/lib/resources/definition.js';
import { bindListSpec, column } from '@/lib/resources/filters.js';
import { parseRelations, queryShape, shapeRow } from '@/lib/resources/relations.js';
import { registerResourceRoutes } from '@/lib/resources/routes.js';
import { createResourceService } from '@/lib/resources/service.js';
import { createTestDatabase, type TestDatabase } from './harness.js';

const { devices, users } = schema;

// 1. The declaration.
const deviceWatchers = defineLink(
  'test_device_watchers',
  { column: 'deviceId', references: devices, list: 'watchers' },
  { column: 'userId', references: users, list: 'watchedDevices' },
);

// 2. The contract: a body field, an answer field, a filter and a relation.
const watchedDeviceListSpec = defineListSpec({
  resource: 'devices',
  filters: { id: k.uuid, 'watchers.id': k.ref('users') },
  search: ['title'],
  sort: ['createdAt'],
  relations: ['watchers'],
  defaultSort: { path: 'createdAt', direction: 'asc' },
});
const watchedDeviceCreateSchema = z.strictObject({ title: requiredText(), watchers: idList.optional() });
const watchedDeviceSchema = z.object({
  ...recordSchema,
  title: z.string(),
  watchers: embeddedList.optional(),
});

// 3. The resource, as any module writes it: nothing in it names the link.
const watchedDevicesResource = defineResource({
  name: 'devices',
  label: 'Device',
  entity: 'devices',
  table: devices,
  idColumn: devices.id,
  path: '/api/watched-devices',
  schemas: {
    create: watchedDeviceCreateSchema,
    update: watchedDeviceCreateSchema.partial(),
    item: watchedDeviceSchema,
  },
  list: {
    spec: watchedDeviceListSpec,
    query: bindListSpec(watchedDeviceListSpec, {
      idColumn: devices.id,
      // The compiler knows the links of db/schema, so it would leave `watchers.id` to the engine there; this
      // one is the test's own, so it is told.
      filters: { id: column(devices.id) } as never,
      search: { title: devices.title },
      sort: { createdAt: devices.createdAt },
    }),
  },
});

let database: TestDatabase;
let app: FastifyInstance;
let ada: string;
let ben: string;

const admin: Caller = {
  subject: randomUUID(),
  roles: ['admin'],
  claims: {},
  userId: null,
  localRoles: ['application_admin'],
  isAdmin: true,
};

beforeAll(async () => {
  database = await createTestDatabase();
  // The migration `npm run db:generate` writes for the declaration.
  const before = generateDrizzleJson({ ...schema }, undefined, undefined, 'snake_case');
  const after = generateDrizzleJson({ ...schema, deviceWatchers }, before.id, undefined, 'snake_case');
  for (const statement of await generateMigration(before, after)) await database.handle.rawQuery(statement);

  const made = await database.handle.db
    .insert(users)
    .values(
      ['ada', 'ben'].map((name) => ({
        username: `${name}@careplane.test`,
        usernameWithoutDomain: name,
        primaryDomain: 'careplane.test',
      })),
    )
    .returning({ id: users.id });
  [ada, ben] = made.map((row) => row.id) as [string, string];

  const store = createStore(database.handle.db, createChangeFeed());
  app = Fastify({ logger: false });
  app.setValidatorCompiler(validatorCompiler);
  // The product's serializer, checking every answer against its contract as the harness's apps do.
  app.setSerializerCompiler(createResponseSerializerCompiler({ check: true }));
  await app.register(errorsPlugin);
  await app.register(jsonBodyPlugin);
  app.decorateRequest('caller', null);
  app.addHook('onRequest', async (request) => {
    request.caller = admin;
  });
  registerResourceRoutes(app, createResourceService(store, watchedDevicesResource));
  await app.ready();
});

afterAll(async () => {
  await app?.close();
  await database?.drop();
});

const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
  app.inject({ method, url, ...(payload ? { payload } : {}) });
const ids = (records: { id: string }[]) => records.map((record) => record.id).sort();
const watchersOf = async (id: string) =>
  ids((await call('GET', `/api/watched-devices/${id}?relations=watchers`)).json().watchers);
const linkRows = (deviceId: string) =>
  database.handle.db.select().from(deviceWatchers).where(eq(deviceWatchers.deviceId, deviceId));

describe('a relation added by its declaration alone', () => {
  it('writes the list on create, embeds it when asked and replaces it only when sent', async () => {
    const created = await call('POST', '/api/watched-devices', {
      title: 'Ward terminal',
      watchers: [ada, ben, ada],
    });
    expect(created.statusCode, created.body).toBe(201);
    const { id } = created.json();
    expect(created.json()).not.toHaveProperty('watchers');
    expect(await watchersOf(id)).toEqual([ada, ben].sort());
    expect(await linkRows(id)).toHaveLength(2);

    expect((await call('PATCH', `/api/watched-devices/${id}`, { watchers: [ben] })).statusCode).toBe(200);
    expect(await watchersOf(id)).toEqual([ben]);
    expect((await call('PATCH', `/api/watched-devices/${id}`, { title: 'Renamed' })).statusCode).toBe(200);
    expect(await watchersOf(id)).toEqual([ben]);
    expect((await call('PATCH', `/api/watched-devices/${id}`, { watchers: [] })).statusCode).toBe(200);
    expect(await watchersOf(id)).toEqual([]);
  });

  it('filters by the linked ids, and by having none', async () => {
    const watched = (
      await call('POST', '/api/watched-devices', { title: 'Watched', watchers: [ada] })
    ).json();
    const alone = (await call('POST', '/api/watched-devices', { title: 'Alone' })).json();
    const list = async (filter: string) =>
      ids((await call('GET', `/api/watched-devices?filters=${filter}&limit=100`)).json().items);
    expect(await list(`watchers.id~${ada}`)).toEqual([watched.id]);
    expect(await list('watchers.id~null')).toContain(alone.id);
    expect(await list('watchers.id~null')).not.toContain(watched.id);
    const mistyped = await call('GET', '/api/watched-devices?filters=watchers.id~ada');
    expect(mistyped.statusCode).toBe(400);
  });

  it('refuses ids of users that do not exist with a 400 naming them, and writes nothing', async () => {
    const missing = randomUUID();
    const refused = await call('POST', '/api/watched-devices', {
      title: 'Refused',
      watchers: [ada, missing],
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({
      statusCode: 400,
      error: 'Bad Request',
      message: 'Unknown watchers',
      issues: [{ path: 'body.watchers', message: `No user with id ${missing}` }],
    });
    expect(await database.handle.db.$count(devices, eq(devices.title, 'Refused'))).toBe(0);

    const { id } = (await call('POST', '/api/watched-devices', { title: 'Kept', watchers: [ada] })).json();
    const patched = await call('PATCH', `/api/watched-devices/${id}`, { watchers: [missing] });
    expect(patched.json()).toMatchObject({
      message: 'Unknown watchers',
      issues: [{ path: 'body.watchers' }],
    });
    expect(await watchersOf(id)).toEqual([ada]);
  });

  it('embeds the other side too: a user’s watched devices', async () => {
    const { id } = (
      await call('POST', '/api/watched-devices', { title: 'Both ways', watchers: [ben] })
    ).json();
    const tree = parseRelations('users', ['watchedDevices']);
    const row = await database.handle.db.query.users.findFirst({
      ...(queryShape('users', tree) as object),
      where: eq(users.id, ben),
    });
    const shaped = shapeRow('users', row as Record<string, unknown>, tree);
    expect(
      (shaped.watchedDevices as { id: string; title: string }[]).map((device) => device.title),
    ).toContain('Both ways');
    expect(ids(shaped.watchedDevices as { id: string }[])).toContain(id);
  });

  it('lets the link rows go with the record', async () => {
    const { id } = (
      await call('POST', '/api/watched-devices', { title: 'Gone', watchers: [ada, ben] })
    ).json();
    expect((await call('DELETE', `/api/watched-devices/${id}`)).statusCode).toBe(204);
    expect(await linkRows(id)).toEqual([]);
  });
});
