import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CommandCenterCreate } from '@careplane/shared/command-centers/command-centers.contract';
import { commandCenterUsers, commandCenters, devices } from '@/db/schema/index.js';
import { createCommandCenter, createDevice, createUser } from '@/test/factories.js';
import { api, createTestContext, type TestContext } from '@/test/harness.js';
import { auditRows as auditRowsOf } from '@/test/records.js';

let context: TestContext;
let admin: ReturnType<typeof api>;
const db = () => context.database.db;

const makeUser = async (firstName: string) =>
  (await createUser(context, { firstName, localRoles: ['supervisor'] })).id;
const makeDevice = async (title: string, commandCenter: string) =>
  (await createDevice(context, { title, commandCenter })).id;

const address = {
  title: 'North Operations',
  street: 'Huay Kaew Rd',
  houseNumber: '21/4',
  district: 'Suthep',
  city: 'Chiang Mai',
  county: 'Mueang Chiang Mai',
  postalCode: '50200',
  country: 'TH',
  geo: { lat: 18.8, lng: 98.95 },
};
const center = (overrides: Record<string, unknown> = {}) => ({
  title: 'North Command Center',
  address,
  ...overrides,
});

const createCenter = (overrides: Partial<CommandCenterCreate> = {}) =>
  createCommandCenter(context, { ...center(), ...overrides });

const count = async () => (await db().select({ id: commandCenters.id }).from(commandCenters)).length;
const auditRows = (recordId: string) => auditRowsOf(context, 'command-centers', recordId);

beforeAll(async () => {
  context = await createTestContext();
  admin = api(context);
});
afterAll(async () => {
  await context?.close();
});

describe('command centers: create, read, update, delete', () => {
  it('creates a center with assigned users, reads, patches and deletes it, auditing each write', async () => {
    const [sam, tia] = [await makeUser('Sam'), await makeUser('Tia')];
    const created = await admin.post('/api/command-centers', center({ assignedUsers: [sam, tia] }));
    expect(created.statusCode, created.body).toBe(201);
    const record = created.json();
    expect(record).toMatchObject({
      title: 'North Command Center',
      address,
      createdByUserId: context.adminUserId,
    });

    const device = await makeDevice('Front desk', record.id);
    const read = await admin.get(
      `/api/command-centers/${record.id}?relations=assignedUsers.commandCenters,devices,createdByUser`,
    );
    expect(read.statusCode, read.body).toBe(200);
    const body = read.json();
    expect(body.assignedUsers.map((user: { id: string }) => user.id).sort()).toEqual([sam, tia].sort());
    expect(body.assignedUsers[0].commandCenters).toEqual([expect.objectContaining({ id: record.id })]);
    expect(body.devices).toEqual([expect.objectContaining({ id: device, title: 'Front desk' })]);
    expect(body.devices[0]).not.toHaveProperty('tokenHash');
    expect(body.createdByUser).toMatchObject({ id: context.adminUserId });

    const moved = { ...address, city: 'Lamphun', geo: { lat: 18.57, lng: 99.0 } };
    const patched = await admin.patch(`/api/command-centers/${record.id}`, {
      address: moved,
      assignedUsers: [tia],
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json()).toMatchObject({ title: 'North Command Center', address: moved });
    const links = await db()
      .select()
      .from(commandCenterUsers)
      .where(eq(commandCenterUsers.commandCenterId, record.id));
    expect(links.map((link) => link.userId)).toEqual([tia]);

    expect((await admin.delete(`/api/command-centers/${record.id}`)).statusCode).toBe(204);
    expect((await admin.get(`/api/command-centers/${record.id}`)).statusCode).toBe(404);
    expect((await admin.patch(`/api/command-centers/${record.id}`, { title: 'Gone' })).statusCode).toBe(404);

    const rows = await auditRows(record.id);
    expect(rows.map((row) => row.action)).toEqual(['create', 'update', 'delete']);
    expect(rows.every((row) => row.actorUserId === context.adminUserId)).toBe(true);
    expect(rows[0]!.changes).toMatchObject({ title: 'North Command Center', assignedUsers: [sam, tia] });
    expect(rows[1]!.changes).toMatchObject({ assignedUsers: [tia] });
  });

  it('answers 400 for an id that is not a uuid', async () => {
    expect((await admin.get('/api/command-centers/north')).statusCode).toBe(400);
    expect((await admin.delete('/api/command-centers/north')).statusCode).toBe(400);
  });
});

describe('command centers: validation', () => {
  const refused = async (body: unknown, paths: string[], id?: string) => {
    const before = await count();
    const response = id
      ? await admin.patch(`/api/command-centers/${id}`, body)
      : await admin.post('/api/command-centers', body);
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json()).toMatchObject({ statusCode: 400, error: 'Bad Request' });
    expect(
      response
        .json()
        .issues.map((issue: { path: string }) => issue.path)
        .sort(),
    ).toEqual(paths.sort());
    expect(await count()).toBe(before);
  };

  it('requires a title and a full address', async () => {
    await refused({}, ['body.title', 'body.address']);
    await refused(center({ title: '' }), ['body.title']);
    await refused(center({ title: 'x'.repeat(256) }), ['body.title']);
    await refused(center({ address: undefined }), ['body.address']);
    await refused(center({ address: {} }), [
      'body.address.title',
      'body.address.street',
      'body.address.city',
      'body.address.country',
    ]);
    await refused(center({ address: { ...address, city: '  ' } }), ['body.address.city']);
    await refused(center({ address: { ...address, geo: { lat: 18.8 } } }), ['body.address.geo.lng']);
    await refused(center({ address: { ...address, geo: { lat: '18.8', lng: 98.9 } } }), [
      'body.address.geo.lat',
    ]);
    await refused(center({ address: { ...address, postalCode: '5'.repeat(21) } }), [
      'body.address.postalCode',
    ]);
    await refused(center({ address: { ...address, floor: 3 } }), ['body.address']);
    await refused(center({ devices: [] }), ['body']);
  });

  it('takes only known user ids as assigned users', async () => {
    await refused(center({ assignedUsers: ['sam'] }), ['body.assignedUsers.0']);
    await refused(center({ assignedUsers: ['0190a0b0-0000-7000-8000-00000000dead'] }), [
      'body.assignedUsers',
    ]);
    const { id } = await createCenter();
    await refused({ assignedUsers: ['0190a0b0-0000-7000-8000-00000000dead'] }, ['body.assignedUsers'], id);
    await refused(
      { address: { city: 'Lamphun' } },
      ['body.address.title', 'body.address.street', 'body.address.country'],
      id,
    );
    await refused({ title: null }, ['body.title'], id);
    expect((await auditRows(id)).map((row) => row.action)).toEqual(['create']);
  });
});

describe('command centers: lists', () => {
  let ids: { north: string; south: string; east: string };
  let supervisor: string;
  let device: string;
  const list = (query: string) => admin.get(`/api/command-centers?filtersLike=title~[list]&${query}`);
  const listIds = async (query: string) => {
    const response = await list(query);
    expect(response.statusCode, response.body).toBe(200);
    return (response.json().items as { id: string }[]).map((row) => row.id);
  };

  beforeAll(async () => {
    supervisor = await makeUser('Vera');
    ids = {
      north: (await createCenter({ title: '[list] North', assignedUsers: [supervisor] })).id,
      south: (
        await createCenter({
          title: '[list] South',
          address: { ...address, city: 'Hat Yai', postalCode: '90110' },
        })
      ).id,
      east: (await createCenter({ title: '[list] East', address: { ...address, city: 'Ubon Ratchathani' } }))
        .id,
    };
    device = await makeDevice('Ward tablet', ids.south);
  });

  it('pages with totals, newest first by default', async () => {
    const page = await list('limit=2');
    expect(page.json()).toMatchObject({ total: 3, limit: 2, offset: 0 });
    expect(page.json().items.map((row: { id: string }) => row.id)).toEqual([ids.east, ids.south]);
    const rest = await list('limit=2&offset=2');
    expect(rest.json()).toMatchObject({ total: 3, offset: 2 });
    expect(rest.json().items.map((row: { id: string }) => row.id)).toEqual([ids.north]);
  });

  it('filters by ids, assigned users, devices and creator', async () => {
    expect(await listIds(`filters=id~${ids.north}`)).toEqual([ids.north]);
    expect((await listIds(`filters=id~${ids.north},${ids.east}`)).sort()).toEqual(
      [ids.north, ids.east].sort(),
    );
    expect(await listIds(`filters=assignedUsers.id~${supervisor}`)).toEqual([ids.north]);
    expect((await listIds('filters=assignedUsers.id~null')).sort()).toEqual([ids.south, ids.east].sort());
    expect(await listIds(`filters=devices.id~${device}`)).toEqual([ids.south]);
    expect((await listIds(`filters=createdByUser.id~${context.adminUserId}`)).length).toBe(3);
    // The client-user list filters the other way round: users of a command center.
    const members = await admin.get(`/api/users?filters=commandCenters.id~${ids.north}`);
    expect(members.statusCode, members.body).toBe(200);
    expect(members.json().items.map((user: { id: string }) => user.id)).toEqual([supervisor]);
  });

  it('searches titles, address parts and ids case-insensitively', async () => {
    expect(await listIds('filtersLike=title~NORTH')).toEqual([ids.north]);
    expect(await listIds('filtersLike=address.city~hat y')).toEqual([ids.south]);
    expect(await listIds('filtersLike=address.postalCode~901')).toEqual([ids.south]);
    expect((await listIds('filtersLike=address.country~th')).length).toBe(3);
    expect(await listIds(`filtersLike=id~${ids.east.slice(-12)}`)).toEqual([ids.east]);
  });

  it('sorts by title', async () => {
    expect(await listIds('sort=title:asc')).toEqual([ids.east, ids.north, ids.south]);
    expect(await listIds('sort=title:desc')).toEqual([ids.south, ids.north, ids.east]);
    expect(await listIds('sort=createdAt:asc')).toEqual([ids.north, ids.south, ids.east]);
  });

  it('refuses unknown paths and mistyped values with 400', async () => {
    for (const query of [
      'filters=title~North',
      'filters=assignedUsers.id~vera',
      'filters=id~null,x',
      'filtersLike=address.geo~1',
      'filtersLike=title',
      'sort=address.city:asc',
      'sort=title:sideways',
      'relations=users',
      'relations=devices.tokenHash',
      'from=1&to=2',
      'limit=abc',
    ]) {
      const response = await admin.get(`/api/command-centers?${query}`);
      expect(response.statusCode, query).toBe(400);
      expect(response.json(), query).toMatchObject({ statusCode: 400, error: 'Bad Request' });
    }
  });
});

describe('command centers: delete', () => {
  it('keeps the assigned users and the devices, which lose their command center', async () => {
    const member = await makeUser('Will');
    const { id } = await createCenter({ assignedUsers: [member] });
    const device = await makeDevice('Nurse station', id);

    expect((await admin.delete(`/api/command-centers/${id}`)).statusCode).toBe(204);
    expect(
      await db().select().from(commandCenterUsers).where(eq(commandCenterUsers.commandCenterId, id)),
    ).toEqual([]);
    const user = await admin.get(`/api/users/${member}?relations=commandCenters`);
    expect(user.statusCode).toBe(200);
    expect(user.json().commandCenters).toEqual([]);
    const [row] = await db().select().from(devices).where(eq(devices.id, device));
    expect(row).toMatchObject({ title: 'Nurse station', commandCenterId: null });
    expect((await auditRows(id)).map((entry) => entry.action)).toEqual(['create', 'delete']);
  });
});

describe('command centers: access', () => {
  it('answers 401 without a token and 403 to a non-admin on every route', async () => {
    const { id } = await createCenter();
    const user = api(context, context.userToken);
    for (const response of await Promise.all([
      user.get('/api/command-centers'),
      user.get(`/api/command-centers/${id}`),
      user.post('/api/command-centers', center()),
      user.patch(`/api/command-centers/${id}`, { title: 'Mine now' }),
      user.delete(`/api/command-centers/${id}`),
    ])) {
      expect(response.statusCode).toBe(403);
      expect(response.json()).toMatchObject({ statusCode: 403, error: 'Forbidden' });
    }
    expect(
      (await context.app.inject({ method: 'DELETE', url: `/api/command-centers/${id}` })).statusCode,
    ).toBe(401);
    expect((await admin.get(`/api/command-centers/${id}`)).json().title).toBe('North Command Center');
    expect((await auditRows(id)).map((row) => row.action)).toEqual(['create']);
  });
});
