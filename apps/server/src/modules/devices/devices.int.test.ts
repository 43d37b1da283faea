import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, devices, iotDeviceDevices } from '../../db/schema/index.js';
import { api, createTestContext, type TestContext } from '../../test/harness.js';
import {
  auditRows,
  createDevice,
  createStat,
  ids,
  insertCommandCenter,
  insertIotDevice,
  insertUser,
} from './devices.test-helpers.js';

let context: TestContext;
beforeAll(async () => {
  context = await createTestContext();
});
afterAll(async () => {
  await context?.close();
});

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const TOKEN = /^cpd_[A-Za-z0-9_-]{43}$/;
const MISSING = '0190f6a2-6d3b-7c8e-9f00-00000000dead';

async function storedHash(id: string) {
  const [row] = await context.database.db
    .select({ tokenHash: devices.tokenHash })
    .from(devices)
    .where(eq(devices.id, id));
  return row?.tokenHash;
}

describe('client devices: create, read, update, delete', () => {
  it('creates a device with defaults and answers its token once, storing only its hash', async () => {
    const { get } = api(context);
    const device = await createDevice(context, { title: 'Ward 3 tablet' });
    expect(device).toMatchObject({
      title: 'Ward 3 tablet',
      isEnabled: true,
      role: 'none',
      localRoles: ['none'],
      location: null,
      assignedUserId: null,
      commandCenterId: null,
      createdByUserId: context.adminUserId,
    });
    expect(device.token).toMatch(TOKEN);
    expect(device).not.toHaveProperty('tokenHash');
    expect(await storedHash(device.id)).toBe(sha256(device.token));

    const read = await get(`/api/devices/${device.id}`);
    expect(read.statusCode).toBe(200);
    expect(read.json()).not.toHaveProperty('token');
    expect(read.json()).not.toHaveProperty('tokenHash');

    const [entry] = await auditRows(context, 'devices', device.id);
    expect(entry).toMatchObject({ action: 'create', actorUserId: context.adminUserId });
    expect(entry!.changes).toMatchObject({ title: 'Ward 3 tablet', tokenHash: '[redacted]' });
    expect(JSON.stringify(entry)).not.toContain(device.token);
    expect(JSON.stringify(entry)).not.toContain(sha256(device.token));
  });

  it('gives every device its own token', async () => {
    const first = await createDevice(context, { title: 'A' });
    const second = await createDevice(context, { title: 'B' });
    expect(first.token).not.toBe(second.token);
  });

  it('stores every field of the create, reads them back and changes only what PATCH sends', async () => {
    const { get, patch, delete: del } = api(context);
    const patient = await insertUser(context, 'paul');
    const center = await insertCommandCenter(context, 'North');
    const iot = await insertIotDevice(context);
    const device = await createDevice(context, {
      title: 'Home hub',
      location: { title: 'Living room', geo: { lat: 13.75, lng: 100.5 } },
      isEnabled: false,
      role: 'patient_terminal',
      localRoles: ['patient_terminal', 'screen_workstation'],
      assignedUser: patient.id,
      commandCenter: center,
      iotDevices: [iot, iot],
    });
    expect(device).toMatchObject({
      location: { title: 'Living room', geo: { lat: 13.75, lng: 100.5 } },
      isEnabled: false,
      role: 'patient_terminal',
      localRoles: ['patient_terminal', 'screen_workstation'],
      assignedUserId: patient.id,
      commandCenterId: center,
    });
    const withRelations = await get(
      `/api/devices/${device.id}?relations=assignedUser,commandCenter,iotDevices,createdByUser`,
    );
    expect(withRelations.json()).toMatchObject({
      assignedUser: { id: patient.id },
      commandCenter: { id: center, title: 'North' },
      iotDevices: [{ id: iot }],
      createdByUser: { id: context.adminUserId },
    });
    expect(withRelations.json().iotDevices[0]).not.toHaveProperty('connectionSecret');

    // Promotion: localRoles replaced by a single role; the rest stays.
    const promoted = await patch(`/api/devices/${device.id}`, { localRoles: ['supervisor_workstation'] });
    expect(promoted.statusCode, promoted.body).toBe(200);
    expect(promoted.json()).toMatchObject({
      localRoles: ['supervisor_workstation'],
      title: 'Home hub',
      role: 'patient_terminal',
      assignedUserId: patient.id,
    });
    expect(promoted.json()).not.toHaveProperty('token');

    const cleared = await patch(`/api/devices/${device.id}`, {
      assignedUser: null,
      commandCenter: null,
      iotDevices: [],
      location: null,
      isEnabled: true,
    });
    expect(cleared.json()).toMatchObject({
      assignedUserId: null,
      commandCenterId: null,
      location: null,
      isEnabled: true,
    });
    expect((await get(`/api/devices/${device.id}?relations=iotDevices`)).json().iotDevices).toEqual([]);
    // Updates leave the token alone.
    expect(await storedHash(device.id)).toBe(sha256(device.token));

    expect((await del(`/api/devices/${device.id}`)).statusCode).toBe(204);
    expect((await get(`/api/devices/${device.id}`)).statusCode).toBe(404);
    expect((await del(`/api/devices/${device.id}`)).statusCode).toBe(404);
    expect((await patch(`/api/devices/${device.id}`, { title: 'x' })).statusCode).toBe(404);

    const actions = (await auditRows(context, 'devices', device.id)).map((row) => row.action);
    expect(actions).toEqual(['create', 'update', 'update', 'delete']);
  });

  it('refuses invalid bodies with 400 and writes nothing', async () => {
    const { post, patch } = api(context);
    const device = await createDevice(context, { title: 'Valid' });
    const before = await context.database.db.$count(devices);
    const auditBefore = await context.database.db.$count(auditLog);
    const bad: unknown[] = [
      {},
      { title: '' },
      { title: '   ' },
      { title: 'x'.repeat(121) },
      { title: 'a\u0000b' },
      { title: 'x', role: 'admin' },
      { title: 'x', localRoles: ['nurse'] },
      { title: 'x', localRoles: [] },
      { title: 'x', isEnabled: 'yes' },
      { title: 'x', assignedUser: 'not-a-uuid' },
      { title: 'x', assignedUser: MISSING },
      { title: 'x', commandCenter: MISSING },
      { title: 'x', iotDevices: [MISSING] },
      { title: 'x', iotDevices: Array(501).fill(MISSING) },
      { title: 'x', tokenHash: 'a' },
      { title: 'x', token: 'cpd_x' },
      { title: 'x', location: { title: 'x', unknown: 1 } },
      { title: 'x', location: { geo: { lat: 91, lng: 0 } } },
      [],
    ];
    for (const body of bad) {
      const response = await post('/api/devices', body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json()).toMatchObject({ statusCode: 400, error: 'Bad Request' });
    }
    for (const body of [{ title: '' }, { tokenHash: 'x' }, { role: 'nope' }, { assignedUser: MISSING }]) {
      expect((await patch(`/api/devices/${device.id}`, body)).statusCode, JSON.stringify(body)).toBe(400);
    }
    const wrongType = await context.app.inject({
      method: 'POST',
      url: '/api/devices',
      headers: { authorization: `Bearer ${context.adminToken}`, 'content-type': 'text/plain' },
      payload: 'title=x',
    });
    expect(wrongType.statusCode).toBe(415);
    expect(await context.database.db.$count(devices)).toBe(before);
    expect(await context.database.db.$count(auditLog)).toBe(auditBefore);
  });

  it('keeps an IoT device that allows one relationship with its device (409), others may be shared', async () => {
    const single = await insertIotDevice(context, false);
    const shared = await insertIotDevice(context, true);
    const first = await createDevice(context, { title: 'First', iotDevices: [single, shared] });
    const refused = await api(context).post('/api/devices', { title: 'Second', iotDevices: [single] });
    expect(refused.statusCode).toBe(409);
    const second = await createDevice(context, { title: 'Second', iotDevices: [shared] });
    const moved = await api(context).patch(`/api/devices/${second.id}`, { iotDevices: [shared, single] });
    expect(moved.statusCode).toBe(409);
    // Saving the first device with the same link again is fine.
    expect(
      (await api(context).patch(`/api/devices/${first.id}`, { iotDevices: [single, shared] })).statusCode,
    ).toBe(200);
    const links = await context.database.db
      .select()
      .from(iotDeviceDevices)
      .where(eq(iotDeviceDevices.iotDeviceId, shared));
    expect(links).toHaveLength(2);
  });
});

describe('device tokens', () => {
  it('re-keys a device: a new token shown once, the old hash replaced, the change audited', async () => {
    const device = await createDevice(context, { title: 'Re-key me' });
    const response = await api(context).post(`/api/devices/${device.id}/token`);
    expect(response.statusCode, response.body).toBe(200);
    const { id, token } = response.json();
    expect(id).toBe(device.id);
    expect(token).toMatch(TOKEN);
    expect(token).not.toBe(device.token);
    expect(await storedHash(device.id)).toBe(sha256(token));
    const rows = await auditRows(context, 'devices', device.id);
    expect(rows.map((row) => row.action)).toEqual(['create', 'rekey']);
    expect(rows[1]!.changes).toEqual({ tokenHash: '[redacted]' });
    expect(JSON.stringify(rows)).not.toContain(token);
  });

  it('answers 404 for an unknown device, 400 for a bad id, 403 for a non-admin', async () => {
    expect((await api(context).post(`/api/devices/${MISSING}/token`)).statusCode).toBe(404);
    expect((await api(context).post('/api/devices/nope/token')).statusCode).toBe(400);
    const device = await createDevice(context, { title: 'Mine' });
    expect((await api(context, context.userToken).post(`/api/devices/${device.id}/token`)).statusCode).toBe(
      403,
    );
    expect(await storedHash(device.id)).toBe(sha256(device.token));
  });

  it('never shows a token or its hash in any read, list or embedded relation', async () => {
    const owner = await insertUser(context, 'olga');
    const device = await createDevice(context, { title: 'Secret keeper', assignedUser: owner.id });
    const rekeyed = (await api(context).post(`/api/devices/${device.id}/token`)).json().token as string;
    await createStat(context, device.id, 1_700_000_000_000);
    const job = await api(context).post('/api/devices/jobs', {
      purpose: 'p',
      commands: ['reboot'],
      device: device.id,
    });
    expect(job.statusCode).toBe(201);
    const workstation = await api(context).post('/api/devices/workstations', {
      device: device.id,
      assignedPatients: [owner.id],
      assignedWorkstations: [device.id],
    });
    expect(workstation.statusCode).toBe(201);

    const urls = [
      '/api/devices?limit=200',
      `/api/devices/${device.id}?relations=workstation.device,assignedUser.assignedDevices,stats.device`,
      `/api/devices?relations=iotDevices,commandCenter,createdByUser,stats,workstation&filters=id~${device.id}`,
      `/api/users/${owner.id}?relations=assignedDevices,assignedToWorkstations.device`,
      '/api/devices/stats?relations=device',
      `/api/devices/${device.id}/last-stats-submission`,
      '/api/devices/jobs?relations=device.workstation',
      `/api/devices/jobs/${job.json().id}?relations=device`,
      '/api/devices/workstations?relations=device,assignedWorkstations',
      `/api/devices/workstations/${workstation.json().id}?relations=device.assignedUser.assignedDevices`,
    ];
    const hash = sha256(rekeyed);
    for (const url of urls) {
      const response = await api(context).get(url);
      expect(response.statusCode, `${url}: ${response.body}`).toBe(200);
      expect(response.body, url).toContain(device.id);
      for (const secret of ['tokenHash', 'token_hash', '"token"', rekeyed, device.token, hash]) {
        expect(response.body, url).not.toContain(secret);
      }
    }
  });
});

describe('client devices: list filters, sorts, relations and paging', () => {
  let scope: string;
  let names: { a: string; b: string; c: string };
  let center: string;
  let patient: { id: string };
  let iot: string;
  let other: { id: string; token: string };
  let workstationId: string;

  beforeAll(async () => {
    scope = `L${Date.now().toString(36)}`;
    center = await insertCommandCenter(context, 'South');
    patient = await insertUser(context, 'petra');
    other = await insertUser(context, 'oscar', ['admin']);
    iot = await insertIotDevice(context);
    const a = await createDevice(context, {
      title: `${scope} alpha`,
      role: 'workstation',
      localRoles: ['workstation', 'monitoring_workstation'],
      assignedUser: patient.id,
      commandCenter: center,
      location: { title: 'Room 12' },
    });
    const b = await createDevice(context, {
      title: `${scope} bravo`,
      role: 'patient_terminal',
      isEnabled: false,
      iotDevices: [iot],
    });
    const created = await api(context, other.token).post('/api/devices', {
      title: `${scope} charlie`,
      role: 'patient_terminal',
      localRoles: ['patient_terminal'],
    });
    expect(created.statusCode, created.body).toBe(201);
    const c = created.json<{ id: string }>();
    names = { a: a.id, b: b.id, c: c.id };
    const workstation = await api(context).post('/api/devices/workstations', {
      device: a.id,
      assignedPatients: [],
      assignedWorkstations: [],
    });
    workstationId = workstation.json().id;
  });

  const list = async (query: string) => {
    const response = await api(context).get(`/api/devices?filtersLike=title~${scope}&${query}`);
    expect(response.statusCode, `${query}: ${response.body}`).toBe(200);
    return response.json();
  };

  it('filters by uuid ids, one or several', async () => {
    expect(ids(await list(`filters=id~${names.a}`))).toEqual([names.a]);
    expect(ids(await list(`filters=id~${names.a},${names.c}&sort=title:asc`))).toEqual([names.a, names.c]);
    expect(ids(await list(`filters=id~${names.a.toUpperCase()}`))).toEqual([names.a]);
  });

  it('filters by booleans, role, localRoles, references and links', async () => {
    expect(ids(await list('filters=isEnabled~false'))).toEqual([names.b]);
    expect((await list('filters=isEnabled~true')).total).toBe(2);
    expect(ids(await list('filters=role~workstation'))).toEqual([names.a]);
    expect(ids(await list('filters=role~workstation,patient_terminal&sort=title:asc'))).toEqual([
      names.a,
      names.b,
      names.c,
    ]);
    expect(ids(await list('filters=localRoles~monitoring_workstation'))).toEqual([names.a]);
    expect(ids(await list('filters=localRoles~none'))).toEqual([names.b]);
    expect(ids(await list(`filters=assignedUser.id~${patient.id}`))).toEqual([names.a]);
    expect((await list('filters=assignedUser.id~null')).total).toBe(2);
    expect(ids(await list(`filters=commandCenter.id~${center}`))).toEqual([names.a]);
    expect(ids(await list(`filters=createdByUser.id~${other.id}`))).toEqual([names.c]);
    expect((await list(`filters=createdByUser.id~${other.id},${context.adminUserId}`)).total).toBe(3);
    expect(ids(await list(`filters=workstation.id~${workstationId}`))).toEqual([names.a]);
    expect((await list('filters=workstation.id~null')).total).toBe(2);
    expect(ids(await list(`filters=iotDevices.id~${iot}`))).toEqual([names.b]);
    expect(ids(await list(`filters=title~${scope} bravo`))).toEqual([names.b]);
    // Several filters: all must hold.
    expect(ids(await list('filters=role~patient_terminal&filters=isEnabled~true'))).toEqual([names.c]);
  });

  it('searches partial text, ids included, case-insensitively', async () => {
    expect(ids(await list(`filtersLike=id~${names.b.slice(-12).toUpperCase()}`))).toEqual([names.b]);
    expect(ids(await list('filtersLike=title~BRAV'))).toEqual([names.b]);
    expect(ids(await list('filtersLike=location.title~room 1'))).toEqual([names.a]);
    expect(ids(await list(`filtersLike=assignedUser.id~${patient.id.slice(-12)}`))).toEqual([names.a]);
    expect((await list('filtersLike=title~%')).total).toBe(0);
  });

  it('sorts, pages and counts', async () => {
    expect(ids(await list('sort=title:desc'))).toEqual([names.c, names.b, names.a]);
    expect(ids(await list('sort=role:asc&sort=title:desc'))).toEqual([names.c, names.b, names.a]);
    expect(ids(await list('sort=isEnabled:asc&sort=title:asc'))).toEqual([names.b, names.a, names.c]);
    const page = await list('sort=title:asc&limit=2&offset=1');
    expect(page).toMatchObject({ total: 3, limit: 2, offset: 1 });
    expect(ids(page)).toEqual([names.b, names.c]);
    // Default: newest first, 20 a page.
    const all = await list('');
    expect(all).toMatchObject({ total: 3, limit: 20, offset: 0 });
    expect(ids(all)).toEqual([names.c, names.b, names.a]);
  });

  it('embeds the relations of the graph, nested ones too', async () => {
    const [item] = (
      await list(
        `filters=id~${names.a}&relations=workstation,assignedUser,commandCenter,iotDevices,stats,createdByUser`,
      )
    ).items;
    expect(item).toMatchObject({
      workstation: { id: workstationId },
      assignedUser: { id: patient.id },
      commandCenter: { id: center },
      iotDevices: [],
      stats: [],
      createdByUser: { id: context.adminUserId },
    });
    const nested = await list(
      `filters=id~${names.a}&relations=workstation.device,assignedUser.assignedDevices`,
    );
    expect(nested.items[0].workstation.device.id).toBe(names.a);
    expect(nested.items[0].assignedUser.assignedDevices.map((d: { id: string }) => d.id)).toEqual([names.a]);
    // Without relations nothing is embedded.
    expect((await list(`filters=id~${names.a}`)).items[0]).not.toHaveProperty('assignedUser');
  });

  it('refuses unknown paths, relations and mistyped values with 400', async () => {
    const queries = [
      'filters=tokenHash~x',
      'filters=token~x',
      'filters=id~not-a-uuid',
      'filters=id~',
      'filters=role~admin',
      'filters=localRoles~nurse',
      'filters=isEnabled~maybe',
      'filters=assignedUser.id~42',
      'filters=createdByUser.id~' + `${patient.id},oops`,
      'filters=noseparator',
      'filtersLike=tokenHash~a',
      'filtersLike=role~x',
      'sort=tokenHash:asc',
      'sort=title:sideways',
      'sort=location:asc',
      'relations=owner',
      'relations=workstation.owner',
      'relations=stats.device.workstation.device',
      'from=1',
      'limit=0',
      'limit=201',
      'offset=-1',
    ];
    for (const query of queries) {
      const response = await api(context).get(`/api/devices?${query}`);
      expect(response.statusCode, query).toBe(400);
      expect(response.json()).toMatchObject({ statusCode: 400, error: 'Bad Request' });
    }
    expect((await api(context).get('/api/devices/not-a-uuid')).statusCode).toBe(400);
    expect((await api(context).get(`/api/devices/${MISSING}`)).statusCode).toBe(404);
    expect((await api(context).get(`/api/devices/${names.a}?relations=nope`)).statusCode).toBe(400);
  });
});

describe('delete rules (spec §3)', () => {
  it('deleting a user clears assignedUser on devices', async () => {
    const user = await insertUser(context, 'ulla');
    const device = await createDevice(context, { title: 'Assigned', assignedUser: user.id });
    expect((await api(context).delete(`/api/users/${user.id}`)).statusCode).toBe(204);
    const read = await api(context).get(`/api/devices/${device.id}`);
    expect(read.statusCode).toBe(200);
    expect(read.json().assignedUserId).toBeNull();
  });

  it('deleting a user clears createdByUser on the devices they created', async () => {
    const creator = await insertUser(context, 'carl', ['admin']);
    const created = await api(context, creator.token).post('/api/devices', { title: 'By Carl' });
    expect(created.json().createdByUserId).toBe(creator.id);
    expect((await api(context).delete(`/api/users/${creator.id}`)).statusCode).toBe(204);
    expect((await api(context).get(`/api/devices/${created.json().id}`)).json().createdByUserId).toBeNull();
  });

  it('deleting a device deletes its stats and jobs and clears workstation.device', async () => {
    const { get, post, delete: del } = api(context);
    const device = await createDevice(context, { title: 'Doomed' });
    const keeper = await createDevice(context, { title: 'Keeper' });
    const stat = await createStat(context, device.id, 1_700_000_000_000);
    const job = (
      await post('/api/devices/jobs', { purpose: '', commands: ['reboot'], device: device.id })
    ).json();
    const workstation = (
      await post('/api/devices/workstations', {
        device: device.id,
        assignedPatients: [],
        assignedWorkstations: [device.id, keeper.id],
      })
    ).json();

    expect((await del(`/api/devices/${device.id}`)).statusCode).toBe(204);
    expect((await get(`/api/devices/stats/${stat.id}`)).statusCode).toBe(404);
    expect((await get(`/api/devices/jobs/${job.id}`)).statusCode).toBe(404);
    const after = await get(`/api/devices/workstations/${workstation.id}?relations=assignedWorkstations`);
    expect(after.statusCode).toBe(200);
    expect(after.json().deviceId).toBeNull();
    expect(after.json().assignedWorkstations.map((d: { id: string }) => d.id)).toEqual([keeper.id]);
    expect((await get(`/api/devices/${device.id}/last-stats-submission`)).statusCode).toBe(404);
  });
});

describe('access', () => {
  it('answers 401 without a token and 403 for a non-admin on every devices call', async () => {
    const device = await createDevice(context, { title: 'Guarded' });
    const workstation = (
      await api(context).post('/api/devices/workstations', { assignedPatients: [], assignedWorkstations: [] })
    ).json();
    const stat = await createStat(context, device.id, 1_700_000_000_000);
    const job = (
      await api(context).post('/api/devices/jobs', { purpose: 'x', commands: ['reboot'], device: device.id })
    ).json();
    const calls: [string, string, object?][] = [
      ['GET', '/api/devices'],
      ['GET', `/api/devices/${device.id}`],
      ['POST', '/api/devices', { title: 'x' }],
      ['PATCH', `/api/devices/${device.id}`, { title: 'x' }],
      ['DELETE', `/api/devices/${device.id}`],
      ['POST', `/api/devices/${device.id}/token`],
      ['GET', `/api/devices/${device.id}/last-stats-submission`],
      ['GET', '/api/devices/stats'],
      ['GET', `/api/devices/stats/${stat.id}`],
      ['PATCH', `/api/devices/stats/${stat.id}`, { firmware: 'x' }],
      ['DELETE', `/api/devices/stats/${stat.id}`],
      ['GET', '/api/devices/workstations'],
      ['GET', `/api/devices/workstations/${workstation.id}`],
      ['POST', '/api/devices/workstations', { assignedPatients: [], assignedWorkstations: [] }],
      ['PATCH', `/api/devices/workstations/${workstation.id}`, { title: 'x' }],
      ['DELETE', `/api/devices/workstations/${workstation.id}`],
      ['POST', `/api/devices/workstations/${workstation.id}/assigned-patient/add`, { id: context.userId }],
      ['POST', `/api/devices/workstations/${workstation.id}/assigned-patient/remove`, { id: context.userId }],
      ['GET', '/api/devices/jobs'],
      ['GET', `/api/devices/jobs/${job.id}`],
      ['POST', '/api/devices/jobs', { purpose: 'x', commands: ['reboot'], device: device.id }],
      ['PATCH', `/api/devices/jobs/${job.id}`, { status: 'CANCELLED' }],
      ['DELETE', `/api/devices/jobs/${job.id}`],
    ];
    for (const [method, url, payload] of calls) {
      const options = { method: method as 'GET', url, ...(payload ? { payload } : {}) };
      const anonymous = await context.app.inject(options);
      expect(anonymous.statusCode, `${method} ${url}`).toBe(401);
      const nurse = await context.app.inject({
        ...options,
        headers: { authorization: `Bearer ${context.userToken}` },
      });
      expect(nurse.statusCode, `${method} ${url}`).toBe(403);
    }
    // Nothing changed.
    expect((await api(context).get(`/api/devices/${device.id}`)).json().title).toBe('Guarded');
    expect((await api(context).get(`/api/devices/jobs/${job.id}`)).json().status).toBe('NEW');
  });

  it('describes the devices calls in the OpenAPI document', async () => {
    const response = await context.app.inject({ url: '/api/openapi.json' });
    expect(response.statusCode).toBe(200);
    const paths = Object.keys(response.json().paths);
    for (const path of [
      '/api/devices',
      '/api/devices/{id}/token',
      '/api/devices/{id}/last-stats-submission',
      '/api/devices/stats',
      '/api/devices/workstations/{id}/assigned-patient/add',
      '/api/devices/jobs/{id}',
    ]) {
      expect(paths).toContain(path);
    }
  });
});
