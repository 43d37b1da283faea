// The generic engine on its own: per-operation access rules checked before validation, record scopes that
// answer 404, rules inside the write's transaction, and changes told only after a commit.
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import Fastify, { type FastifyInstance } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  commandCenterCreateSchema,
  commandCenterListSpec,
  commandCenterSchema,
  commandCenterUpdateSchema,
} from '@careplane/shared/command-centers/command-centers.contract';
import { auditLog, commandCenters, users } from '@/db/schema/index.js';
import { errorsPlugin } from '@/plugins/errors.js';
import { jsonBodyPlugin } from '@/plugins/json-body.js';
import { createResponseSerializerCompiler } from '@/lib/response-serializer.js';
import { createTestDatabase, type TestDatabase } from './harness.js';
import type { ActionContext } from '@/lib/audit.js';
import { accessRules, type Caller } from '@/lib/caller.js';
import { createChangeFeed, type Change } from '@/lib/changes.js';
import { badRequest } from '@/lib/errors.js';
import { createStore, type Store } from '@/lib/store.js';
import { defineResource } from '@/lib/resources/definition.js';
import { bindListSpec, column } from '@/lib/resources/filters.js';
import { registerResourceRoutes } from '@/lib/resources/routes.js';
import { createResourceService } from '@/lib/resources/service.js';

const commandCentersResource = defineResource({
  name: 'command-centers',
  label: 'Command center',
  entity: 'commandCenters',
  table: commandCenters,
  idColumn: commandCenters.id,
  path: '/api/command-centers',
  schemas: {
    create: commandCenterCreateSchema,
    update: commandCenterUpdateSchema,
    item: commandCenterSchema,
  },
  createdByColumn: 'createdByUserId',
  list: {
    spec: commandCenterListSpec,
    query: bindListSpec(commandCenterListSpec, {
      idColumn: commandCenters.id,
      filters: {
        id: column(commandCenters.id),
        'assignedUsers.id': column(commandCenters.id),
        'devices.id': column(commandCenters.id),
        'createdByUser.id': column(commandCenters.createdByUserId),
      },
      search: Object.fromEntries(
        commandCenterListSpec.search.map((path) => [path, commandCenters.title]),
      ) as Record<(typeof commandCenterListSpec.search)[number], typeof commandCenters.title>,
      sort: {
        createdAt: commandCenters.createdAt,
        updatedAt: commandCenters.updatedAt,
        title: commandCenters.title,
      },
    }),
  },
});

let database: TestDatabase;
let store: Store;
let app: FastifyInstance;
const published: Change[][] = [];
const callers = new Map<string, Caller>();

const caller = (userId: string, isAdmin: boolean): Caller => ({
  subject: randomUUID(),
  roles: isAdmin ? ['admin'] : ['public'],
  claims: {},
  userId,
  localRoles: [isAdmin ? 'application_admin' : 'supervisor'],
  isAdmin,
});

let adminId: string;
let ownerId: string;
let strangerId: string;
const address = { title: 'North', street: 'Huay Kaew Rd', city: 'Chiang Mai', country: 'TH' };

beforeAll(async () => {
  database = await createTestDatabase();
  const db = database.handle.db;
  const made = await db
    .insert(users)
    .values(
      ['ada', 'olga', 'sam'].map((name) => ({
        username: `${name}@careplane.test`,
        usernameWithoutDomain: name,
        primaryDomain: 'careplane.test',
      })),
    )
    .returning({ id: users.id });
  [adminId, ownerId, strangerId] = made.map((row) => row.id) as [string, string, string];
  callers.set('admin', caller(adminId, true));
  callers.set('owner', caller(ownerId, false));
  callers.set('stranger', caller(strangerId, false));

  const feed = createChangeFeed();
  feed.subscribe((changes) => {
    published.push([...changes]);
  });
  store = createStore(db, feed);
  // Anyone signed in may list, read and change command centers they created; only admins may delete.
  const service = createResourceService(store, commandCentersResource, {
    access: {
      list: accessRules.signedIn,
      read: accessRules.signedIn,
      create: accessRules.signedIn,
      update: accessRules.signedIn,
    },
    scope: (who) => (who?.isAdmin ? undefined : eq(commandCenters.createdByUserId, who?.userId ?? '')),
    check: async (_executor, plan) => {
      if (plan.values.title === 'Refused') throw badRequest({ en: 'Refused by the rule', th: 'กฎไม่อนุญาต' });
    },
  });

  app = Fastify({ logger: false });
  app.setValidatorCompiler(validatorCompiler);
  // The product's serializer, checking every answer against its contract as the harness's apps do.
  app.setSerializerCompiler(createResponseSerializerCompiler({ check: true }));
  await app.register(errorsPlugin);
  await app.register(jsonBodyPlugin);
  app.decorateRequest('caller', null);
  app.addHook('onRequest', async (request) => {
    request.caller = callers.get(String(request.headers['x-test-caller'])) ?? null;
  });
  registerResourceRoutes(app, service);
  await app.ready();
});

afterAll(async () => {
  await app?.close();
  await database?.drop();
});

beforeEach(() => {
  published.length = 0;
});

const call = (who: string, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
  app.inject({ method, url, headers: { 'x-test-caller': who }, ...(payload ? { payload } : {}) });

describe('the generic engine', () => {
  it('lets a non-admin use the operations its rules open, on the records in its scope only', async () => {
    const created = await call('owner', 'POST', '/api/command-centers', { title: 'Olga center', address });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id as string;
    expect(created.json().createdByUserId).toBe(ownerId);
    const admins = await call('admin', 'POST', '/api/command-centers', { title: 'Admin center', address });
    expect(admins.statusCode).toBe(201);

    const own = await call('owner', 'GET', '/api/command-centers');
    expect(own.json().items.map((item: { id: string }) => item.id)).toEqual([id]);
    expect(own.json().total).toBe(1);
    expect((await call('admin', 'GET', '/api/command-centers')).json().total).toBe(2);
    // count=false answers the same rows without counting them; anything else than true/false is refused.
    const uncounted = (await call('admin', 'GET', '/api/command-centers?count=false')).json();
    expect(uncounted.total).toBeNull();
    expect(uncounted.items).toHaveLength(2);
    const wrong = await call('admin', 'GET', '/api/command-centers?count=maybe');
    expect(wrong.statusCode).toBe(400);
    expect(wrong.body).toContain('Must be true or false');

    // Outside the scope, a record answers 404 as if it did not exist, for reads and writes alike.
    expect((await call('stranger', 'GET', `/api/command-centers/${id}`)).statusCode).toBe(404);
    expect(
      (await call('stranger', 'PATCH', `/api/command-centers/${id}`, { title: 'Taken' })).statusCode,
    ).toBe(404);
    const [row] = await database.handle.db
      .select({ title: commandCenters.title })
      .from(commandCenters)
      .where(eq(commandCenters.id, id));
    expect(row?.title).toBe('Olga center');
    const renamed = await call('owner', 'PATCH', `/api/command-centers/${id}`, { title: 'Olga north' });
    expect(renamed.json().title).toBe('Olga north');
  });

  it('refuses an operation its rules keep closed with 403, before reading or validating the request', async () => {
    const list = await call('owner', 'GET', '/api/command-centers');
    const id = list.json().items[0].id as string;
    const refused = await call('owner', 'DELETE', `/api/command-centers/${id}`);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ statusCode: 403, error: 'Forbidden' });
    // A malformed id would be a 400 for someone allowed; a caller who is not allowed learns nothing.
    expect((await call('owner', 'DELETE', '/api/command-centers/not-a-uuid')).statusCode).toBe(403);
    expect((await call('admin', 'DELETE', '/api/command-centers/not-a-uuid')).statusCode).toBe(400);
    expect((await call('nobody', 'GET', '/api/command-centers')).statusCode).toBe(401);
  });

  it('tells the change feed about a write once it has committed, with its audit row', async () => {
    const created = await call('owner', 'POST', '/api/command-centers', { title: 'Fed center', address });
    const id = created.json().id as string;
    expect(published).toHaveLength(1);
    expect(published[0]).toEqual([
      {
        resource: 'command-centers',
        action: 'create',
        recordId: id,
        actorUserId: ownerId,
        at: expect.any(Number) as number,
      },
    ]);
    const audited = await database.handle.db.select().from(auditLog).where(eq(auditLog.recordId, id));
    expect(audited.map((entry) => entry.action)).toEqual(['create']);
  });

  it('tells nothing and writes nothing when the write is refused inside its transaction', async () => {
    const before = await database.handle.db.select({ id: commandCenters.id }).from(commandCenters);
    const refused = await call('owner', 'POST', '/api/command-centers', { title: 'Refused', address });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe('Refused by the rule');
    const after = await database.handle.db.select({ id: commandCenters.id }).from(commandCenters);
    expect(after).toHaveLength(before.length);
    expect(published).toEqual([]);
  });

  it('publishes every change of one write together, after its transaction, even when a listener fails', async () => {
    const context: ActionContext = { caller: callers.get('admin')!, ip: '192.0.2.1' };
    const failing = store.changes.subscribe(() => {
      throw new Error('listener broke');
    });
    try {
      const ids = await store.write(context, async (scope) => {
        const [first] = await scope.tx
          .insert(commandCenters)
          .values({ title: 'One', address })
          .returning({ id: commandCenters.id });
        await scope.audit({ action: 'create', resource: 'command-centers', recordId: first!.id });
        await scope.audit({ action: 'note', resource: 'command-centers', recordId: first!.id });
        // Nothing is told while the transaction is open.
        expect(published).toEqual([]);
        return [first!.id];
      });
      expect(published).toHaveLength(1);
      expect(published[0]!.map((change) => [change.action, change.recordId])).toEqual([
        ['create', ids[0]],
        ['note', ids[0]],
      ]);
    } finally {
      failing();
    }
  });
});
