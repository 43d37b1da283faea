import { count, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '@/db/schema/index.js';
import { insertAuditEntry, redactChanges } from '@/lib/audit.js';
import { api, createTestContext, type TestContext } from '@/test/harness.js';

let context: TestContext;
let adminSubject: string;
beforeAll(async () => {
  // Behind a proxy on this machine, which names the client's address (X-Forwarded-For).
  context = await createTestContext({ TRUST_PROXY: '127.0.0.1' });
  adminSubject = JSON.parse(Buffer.from(context.adminToken.split('.')[1]!, 'base64url').toString('utf8')).sub;
});
afterAll(async () => {
  await context?.close();
});

const write = (method: 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object, ip = '203.0.113.7') =>
  context.app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${context.adminToken}`, 'x-forwarded-for': ip },
    ...(payload ? { payload } : {}),
  });

const auditRows = (recordId: string) =>
  context.database.db
    .select()
    .from(auditLog)
    .where(eq(auditLog.recordId, recordId))
    .orderBy(desc(auditLog.id));

describe('audit log of writes', () => {
  let userId: string;

  it('records a create with who, what, when, where and the fields sent', async () => {
    const before = Date.now();
    const created = await write('POST', '/api/users', {
      username: 'olga.audit@careplane.test',
      firstName: 'Olga',
      localRoles: ['caregiver'],
    });
    expect(created.statusCode, created.body).toBe(201);
    userId = created.json().id;

    const [row] = await auditRows(userId);
    expect(row).toMatchObject({
      actorUserId: context.adminUserId,
      actorSubject: adminSubject,
      action: 'create',
      resource: 'users',
      recordId: userId,
      ip: '203.0.113.7',
      changes: { username: 'olga.audit@careplane.test', firstName: 'Olga', localRoles: ['caregiver'] },
    });
    expect(row!.at.getTime()).toBeGreaterThanOrEqual(before - 1_000);
    expect(row!.at.getTime()).toBeLessThanOrEqual(Date.now() + 1_000);
  });

  it('records on an update only the fields the PATCH sent', async () => {
    const changed = await write('PATCH', `/api/users/${userId}`, { lastName: 'Auditova' }, '198.51.100.9');
    expect(changed.statusCode, changed.body).toBe(200);
    const [row] = await auditRows(userId);
    expect(row).toMatchObject({ action: 'update', resource: 'users', ip: '198.51.100.9' });
    expect(row!.changes).toEqual({ lastName: 'Auditova' });
  });

  it('records a delete', async () => {
    const target = await write('POST', '/api/patient-profiles', { status: 'enrolled' });
    expect(target.statusCode, target.body).toBe(201);
    const profileId = target.json().id;
    expect((await write('DELETE', `/api/patient-profiles/${profileId}`)).statusCode).toBe(204);
    const rows = await auditRows(profileId);
    expect(rows.map((row) => row.action)).toEqual(['delete', 'create']);
    expect(rows[0]).toMatchObject({
      resource: 'patient-profiles',
      actorUserId: context.adminUserId,
      changes: null,
    });
  });

  it('writes no entry for a refused write or a read', async () => {
    const [before] = await context.database.db.select({ n: count() }).from(auditLog);
    expect((await write('PATCH', `/api/users/${userId}`, { firstName: 42 })).statusCode).toBe(400);
    expect((await api(context).get(`/api/users/${userId}`)).statusCode).toBe(200);
    const [after] = await context.database.db.select({ n: count() }).from(auditLog);
    expect(after!.n).toBe(before!.n);
  });

  it('records nothing for a caller without a user record, whose token alone grants no rights', async () => {
    const subject = 'b7e3c1d0-0000-4000-8000-00000000a11c';
    const token = await context.signer.sign({ roles: ['admin'] }, { subject });
    const refused = await api(context, token).post('/api/patient-profiles', {
      status: 'enrollment',
      createdByUser: context.adminUserId,
    });
    expect(refused.statusCode).toBe(403);
    const rows = await context.database.db.select().from(auditLog).where(eq(auditLog.actorSubject, subject));
    expect(rows).toEqual([]);
  });

  it('names the actor by user id and token subject', async () => {
    const created = await api(context).post('/api/patient-profiles', {
      status: 'enrollment',
      createdByUser: context.adminUserId,
    });
    expect(created.statusCode, created.body).toBe(201);
    const [row] = await auditRows(created.json().id);
    expect(row).toMatchObject({
      actorUserId: context.adminUserId,
      actorSubject: adminSubject,
      action: 'create',
      ip: '127.0.0.1',
    });
  });

  it('replaces secret fields by a marker', () => {
    expect(redactChanges({ title: 'Tablet', connectionSecret: 's3cret', token: 't' })).toEqual({
      title: 'Tablet',
      connectionSecret: '[redacted]',
      token: '[redacted]',
    });
  });
});

describe('GET /api/users/logs', () => {
  let first: string;
  let second: string;

  beforeAll(async () => {
    const one = await write('POST', '/api/users', { username: 'first.log@careplane.test' });
    const two = await write('POST', '/api/users', { username: 'second.log@careplane.test' });
    first = one.json().id;
    second = two.json().id;
    expect((await write('PATCH', `/api/users/${first}`, { isBlocked: true })).statusCode).toBe(200);
  });

  it('answers the log newest first as a page', async () => {
    const response = await api(context).get('/api/users/logs');
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    const [total] = await context.database.db.select({ n: count() }).from(auditLog);
    expect(body).toMatchObject({ total: total!.n, limit: 20, offset: 0 });
    expect(body.items[0]).toMatchObject({ action: 'update', recordId: first, changes: { isBlocked: true } });
    expect(body.items[1]).toMatchObject({ action: 'create', recordId: second });
    expect(body.items[2]).toMatchObject({ action: 'create', recordId: first });
    const times = body.items.map((item: { at: string }) => Date.parse(item.at));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(body.items[0].at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(Object.keys(body.items[0]).sort()).toEqual(
      ['action', 'actorSubject', 'actorUserId', 'at', 'changes', 'id', 'ip', 'recordId', 'resource'].sort(),
    );
  });

  it('filters on whitelisted paths', async () => {
    const byRecord = (await api(context).get(`/api/users/logs?filters=recordId~${first}`)).json();
    expect(byRecord.total).toBe(2);
    expect(byRecord.items.map((item: { action: string }) => item.action)).toEqual(['update', 'create']);

    const updates = (
      await api(context).get(`/api/users/logs?filters=action~update&filters=resource~users`)
    ).json();
    expect(updates.items.every((item: { action: string }) => item.action === 'update')).toBe(true);
    expect(updates.items.map((item: { recordId: string }) => item.recordId)).toContain(first);

    const byActor = (
      await api(context).get(`/api/users/logs?filters=actorUserId~${context.adminUserId}`)
    ).json();
    const [own] = await context.database.db
      .select({ n: count() })
      .from(auditLog)
      .where(eq(auditLog.actorUserId, context.adminUserId));
    expect(byActor.total).toBe(own!.n);
    expect(byActor.total).toBeGreaterThanOrEqual(5);
    expect(
      byActor.items.every((item: { actorUserId: string }) => item.actorUserId === context.adminUserId),
    ).toBe(true);

    const anyOf = (await api(context).get(`/api/users/logs?filters=recordId~${first},${second}`)).json();
    expect(anyOf.total).toBe(3);

    const nobody = (await api(context).get(`/api/users/logs?filters=actor.id~${context.userId}`)).json();
    expect(nobody).toMatchObject({ total: 0, items: [] });
  });

  it('answers the latest entry of an actor first (the account page reads the first element)', async () => {
    const response = await api(context).get(
      `/api/users/logs?filtersLike=actor.id~${context.adminUserId.slice(0, 13)}&limit=1`,
    );
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.items).toHaveLength(1);
    expect(body.items[0]).toMatchObject({
      actorUserId: context.adminUserId,
      action: 'update',
      recordId: first,
    });
    expect(body.total).toBeGreaterThan(1);
  });

  it('searches case-insensitively with filtersLike', async () => {
    const body = (
      await api(context).get(
        `/api/users/logs?filtersLike=action~UPD&filtersLike=recordId~${first.slice(-12)}`,
      )
    ).json();
    expect(body.total).toBe(1);
    expect(body.items[0]).toMatchObject({ action: 'update', recordId: first });
  });

  it('pages with limit and offset and sorts on whitelisted paths', async () => {
    const page = (await api(context).get('/api/users/logs?limit=1&offset=1')).json();
    expect(page).toMatchObject({ limit: 1, offset: 1 });
    expect(page.items).toHaveLength(1);
    expect(page.items[0]).toMatchObject({ action: 'create', recordId: second });

    const oldest = (await api(context).get('/api/users/logs?sort=at:asc&limit=1')).json();
    const [firstRow] = await context.database.db.select().from(auditLog).orderBy(auditLog.id).limit(1);
    expect(oldest.items[0].id).toBe(firstRow!.id);
  });

  it('refuses unknown paths, mistyped values, relations and time ranges with 400', async () => {
    for (const query of [
      'filters=ip~127.0.0.1',
      'filters=changes~x',
      'filtersLike=ip~127',
      'filters=actorUserId~not-a-uuid',
      'filters=resource',
      'sort=ip:desc',
      'sort=at:sideways',
      'relations=actor',
      'from=0',
      'limit=0',
      'limit=201',
      'offset=-1',
      Array.from({ length: 51 }, () => 'filters=action~update').join('&'),
      `filtersLike=action~${'x'.repeat(5000)}`,
    ]) {
      const response = await api(context).get(`/api/users/logs?${query}`);
      expect(response.statusCode, query.slice(0, 80)).toBe(400);
      expect(response.json(), query).toMatchObject({ statusCode: 400, error: 'Bad Request' });
      expect(typeof response.json().message).toBe('string');
    }
  });

  it('answers 401 without a token and shows a non-admin only their own entries', async () => {
    const anonymous = await context.app.inject({ url: '/api/users/logs' });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toMatchObject({ statusCode: 401, error: 'Unauthorized' });

    await insertAuditEntry(
      context.database.db,
      {
        caller: {
          subject: 'nurse-subject',
          roles: ['public'],
          claims: {},
          userId: context.userId,
          localRoles: ['nurse'],
          isAdmin: false,
        },
        ip: null,
      },
      { action: 'sign-in', resource: 'users', recordId: context.userId },
    );
    const nurse = await api(context, context.userToken).get('/api/users/logs');
    expect(nurse.statusCode).toBe(200);
    const items = nurse.json().items as { actorUserId: string; action: string }[];
    expect(items.length).toBeGreaterThan(0);
    expect(items.every((item) => item.actorUserId === context.userId)).toBe(true);
    expect(nurse.json().total).toBe(items.length);

    // Filters cannot widen the view to someone else's entries.
    const other = await api(context, context.userToken).get(
      `/api/users/logs?filters=actorUserId~${context.adminUserId}`,
    );
    expect(other.statusCode).toBe(200);
    expect(other.json()).toMatchObject({ items: [], total: 0 });
  });
});
