import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workstationPatients, workstations } from '@/db/schema/index.js';
import { api, createTestContext, type TestContext } from '@/test/harness.js';
import { createDevice, createUser } from '@/test/factories.js';
import { auditRows, ids } from '@/test/records.js';

let context: TestContext;
beforeAll(async () => {
  context = await createTestContext();
});
afterAll(async () => {
  await context?.close();
});

const MISSING = '0190f6a2-6d3b-7c8e-9f00-00000000dead';
const relationIds = (list: { id: string }[]) => list.map((item) => item.id).sort();

async function createWorkstation(body: Record<string, unknown>) {
  const response = await api(context).post('/api/devices/workstations', {
    assignedPatients: [],
    assignedWorkstations: [],
    ...body,
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<{ id: string } & Record<string, unknown>>();
}

describe('workstations: create, read, update, delete (spec §3, §5)', () => {
  it('creates a workstation with its device, patients and grouped devices', async () => {
    const { get } = api(context);
    const device = await createDevice(context, { title: 'Nurse station', role: 'workstation' });
    const screen = await createDevice(context, { title: 'Ward screen', role: 'screen_workstation' });
    const anna = await createUser(context, { firstName: 'anna' });
    const bert = await createUser(context, { firstName: 'bert' });
    const workstation = await createWorkstation({
      title: 'Ward 3',
      device: device.id,
      assignedPatients: [anna.id, bert.id, anna.id],
      assignedWorkstations: [device.id, screen.id],
    });
    expect(workstation).toMatchObject({
      title: 'Ward 3',
      deviceId: device.id,
      createdByUserId: context.adminUserId,
    });
    const read = await get(
      `/api/devices/workstations/${workstation.id}?relations=device,assignedPatients,assignedWorkstations,createdByUser`,
    );
    expect(read.statusCode, read.body).toBe(200);
    const body = read.json();
    expect(body.device).toMatchObject({ id: device.id, title: 'Nurse station' });
    expect(relationIds(body.assignedPatients)).toEqual([anna.id, bert.id].sort());
    expect(relationIds(body.assignedWorkstations)).toEqual([device.id, screen.id].sort());
    expect(body.createdByUser.id).toBe(context.adminUserId);
    // The other side of the relations.
    const fromDevice = await get(`/api/devices/${device.id}?relations=workstation`);
    expect(fromDevice.json().workstation.id).toBe(workstation.id);
    const fromUser = await get(`/api/users/${anna.id}?relations=assignedToWorkstations`);
    expect(relationIds(fromUser.json().assignedToWorkstations)).toEqual([workstation.id]);
    expect((await auditRows(context, 'workstations', workstation.id))[0]).toMatchObject({
      action: 'create',
      changes: expect.objectContaining({ title: 'Ward 3' }),
    });
  });

  it('updates only what is sent: both lists are optional (spec §5)', async () => {
    const { get, patch, delete: del } = api(context);
    const device = await createDevice(context, { title: 'Desk' });
    const carla = await createUser(context, { firstName: 'carla' });
    const dora = await createUser(context, { firstName: 'dora' });
    const workstation = await createWorkstation({
      device: device.id,
      assignedPatients: [carla.id],
      assignedWorkstations: [device.id],
    });
    const path = `/api/devices/workstations/${workstation.id}`;
    const read = async () => (await get(`${path}?relations=assignedPatients,assignedWorkstations`)).json();

    const renamed = await patch(path, { title: 'Desk 2' });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json()).toMatchObject({ title: 'Desk 2', deviceId: device.id });
    expect(relationIds((await read()).assignedPatients)).toEqual([carla.id]);

    expect((await patch(path, { assignedPatients: [dora.id] })).statusCode).toBe(200);
    let state = await read();
    expect(relationIds(state.assignedPatients)).toEqual([dora.id]);
    expect(relationIds(state.assignedWorkstations)).toEqual([device.id]);

    expect((await patch(path, { assignedWorkstations: [], device: null })).statusCode).toBe(200);
    state = await read();
    expect(state).toMatchObject({ deviceId: null, assignedWorkstations: [] });
    expect(relationIds(state.assignedPatients)).toEqual([dora.id]);

    expect((await patch(path, {})).statusCode).toBe(200);
    expect((await del(path)).statusCode).toBe(204);
    expect((await get(path)).statusCode).toBe(404);
    const links = await context.database.db
      .select()
      .from(workstationPatients)
      .where(eq(workstationPatients.workstationId, workstation.id));
    expect(links).toEqual([]);
    const actions = (await auditRows(context, 'workstations', workstation.id)).map((row) => row.action);
    expect(actions).toEqual(['create', 'update', 'update', 'update', 'update', 'delete']);
  });

  it('keeps a device with one workstation at most (409)', async () => {
    const device = await createDevice(context, { title: 'Shared?' });
    await createWorkstation({ device: device.id });
    const second = await api(context).post('/api/devices/workstations', {
      device: device.id,
      assignedPatients: [],
      assignedWorkstations: [],
    });
    expect(second.statusCode).toBe(409);
    const other = await createWorkstation({});
    expect(
      (await api(context).patch(`/api/devices/workstations/${other.id}`, { device: device.id })).statusCode,
    ).toBe(409);
  });

  it('refuses invalid bodies with 400 and writes nothing', async () => {
    const device = await createDevice(context, { title: 'Valid device' });
    const valid = { assignedPatients: [], assignedWorkstations: [] };
    const bad: [string, unknown][] = [
      ['no lists', {}],
      ['no assignedWorkstations', { assignedPatients: [] }],
      ['no assignedPatients', { assignedWorkstations: [] }],
      ['patients not a list', { ...valid, assignedPatients: context.userId }],
      ['patient id not a uuid', { ...valid, assignedPatients: ['x'] }],
      ['unknown patient', { ...valid, assignedPatients: [MISSING] }],
      ['unknown grouped device', { ...valid, assignedWorkstations: [MISSING] }],
      ['unknown device', { ...valid, device: MISSING }],
      ['device not a uuid', { ...valid, device: 42 }],
      ['too many patients', { ...valid, assignedPatients: Array(501).fill(context.userId) }],
      ['huge title', { ...valid, title: 'x'.repeat(121) }],
      ['unknown field', { ...valid, createdByUser: context.userId }],
    ];
    const before = await context.database.db.$count(workstations);
    for (const [label, body] of bad) {
      const response = await api(context).post('/api/devices/workstations', body);
      expect(response.statusCode, label).toBe(400);
    }
    expect(await context.database.db.$count(workstations)).toBe(before);
    const existing = await createWorkstation({ assignedWorkstations: [device.id] });
    for (const body of [{ assignedPatients: [MISSING] }, { device: 'x' }, { extra: 1 }]) {
      const response = await api(context).patch(`/api/devices/workstations/${existing.id}`, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
    }
    const state = await api(context).get(
      `/api/devices/workstations/${existing.id}?relations=assignedPatients,assignedWorkstations`,
    );
    expect(state.json()).toMatchObject({ assignedPatients: [], assignedWorkstations: [{ id: device.id }] });
  });
});

describe('assigned patients: add and remove', () => {
  it('adds a patient once however often it is asked, and removes it', async () => {
    const workstation = await createWorkstation({ title: 'Bedside' });
    const emil = await createUser(context, { firstName: 'emil' });
    const base = `/api/devices/workstations/${workstation.id}/assigned-patient`;

    const added = await api(context).post(`${base}/add`, { id: emil.id });
    expect(added.statusCode, added.body).toBe(200);
    expect(added.json()).toMatchObject({ id: workstation.id, title: 'Bedside' });
    expect(relationIds(added.json().assignedPatients)).toEqual([emil.id]);
    const again = await api(context).post(`${base}/add`, { id: emil.id });
    expect(again.statusCode).toBe(200);
    expect(relationIds(again.json().assignedPatients)).toEqual([emil.id]);

    const other = await createUser(context, { firstName: 'fritz' });
    await api(context).post(`${base}/add`, { id: other.id });
    const removed = await api(context).post(`${base}/remove`, { id: emil.id });
    expect(removed.statusCode).toBe(200);
    expect(relationIds(removed.json().assignedPatients)).toEqual([other.id]);
    const removedAgain = await api(context).post(`${base}/remove`, { id: emil.id });
    expect(removedAgain.statusCode).toBe(200);
    expect(relationIds(removedAgain.json().assignedPatients)).toEqual([other.id]);

    // Only the calls that changed something are in the audit log.
    const changes = (await auditRows(context, 'workstations', workstation.id))
      .filter((row) => row.action === 'update')
      .map((row) => row.changes);
    expect(changes).toEqual([
      { assignedPatients: { add: emil.id } },
      { assignedPatients: { add: other.id } },
      { assignedPatients: { remove: emil.id } },
    ]);
  });

  it('answers 404 for an unknown workstation or user and 400 for a bad body', async () => {
    const workstation = await createWorkstation({});
    for (const change of ['add', 'remove']) {
      const unknownWorkstation = await api(context).post(
        `/api/devices/workstations/${MISSING}/assigned-patient/${change}`,
        { id: context.userId },
      );
      expect(unknownWorkstation.statusCode, change).toBe(404);
      const base = `/api/devices/workstations/${workstation.id}/assigned-patient/${change}`;
      expect((await api(context).post(base, { id: MISSING })).statusCode, change).toBe(404);
      for (const body of [{}, { id: 'x' }, { id: context.userId, extra: true }, { userId: context.userId }]) {
        expect((await api(context).post(base, body)).statusCode, `${change} ${JSON.stringify(body)}`).toBe(
          400,
        );
      }
      expect(
        (
          await api(context).post(`/api/devices/workstations/x/assigned-patient/${change}`, {
            id: context.userId,
          })
        ).statusCode,
      ).toBe(400);
    }
    const state = await api(context).get(
      `/api/devices/workstations/${workstation.id}?relations=assignedPatients`,
    );
    expect(state.json().assignedPatients).toEqual([]);
  });
});

describe('workstations list', () => {
  let scope: string;
  let device: string;
  let grouped: string;
  let patient: { id: string };
  let creator: { id: string; token: string };
  const found: Record<string, string> = {};

  beforeAll(async () => {
    scope = `W${Date.now().toString(36)}`;
    device = (await createDevice(context, { title: 'Main desk' })).id;
    grouped = (await createDevice(context, { title: 'Side screen' })).id;
    patient = await createUser(context, { firstName: 'gina' });
    creator = await createUser(context, { firstName: 'hugo', roles: ['admin'] });
    found.alpha = (
      await createWorkstation({
        title: `${scope} alpha`,
        device,
        assignedPatients: [patient.id],
        assignedWorkstations: [grouped],
      })
    ).id;
    found.beta = (await createWorkstation({ title: `${scope} beta`, assignedWorkstations: [grouped] })).id;
    const gamma = await api(context, creator.token).post('/api/devices/workstations', {
      title: `${scope} gamma`,
      assignedPatients: [],
      assignedWorkstations: [],
    });
    found.gamma = gamma.json().id;
  });

  const list = async (query: string) => {
    const response = await api(context).get(`/api/devices/workstations?filtersLike=title~${scope}&${query}`);
    expect(response.statusCode, `${query}: ${response.body}`).toBe(200);
    return response.json();
  };

  it('filters by id, device, patients, grouped devices and creator', async () => {
    expect(ids(await list(`filters=id~${found.beta}`))).toEqual([found.beta]);
    expect(ids(await list(`filters=device.id~${device}`))).toEqual([found.alpha]);
    expect((await list('filters=device.id~null')).total).toBe(2);
    expect(ids(await list(`filters=assignedPatients.id~${patient.id}`))).toEqual([found.alpha]);
    expect((await list('filters=assignedPatients.id~null')).total).toBe(2);
    expect((await list(`filters=assignedWorkstations.id~${grouped}`)).total).toBe(2);
    expect(ids(await list(`filters=createdByUser.id~${creator.id}`))).toEqual([found.gamma]);
    expect((await list(`filters=createdByUser.id~${creator.id},${context.adminUserId}`)).total).toBe(3);
    expect(ids(await list(`filters=title~${scope} gamma`))).toEqual([found.gamma]);
  });

  it('searches, sorts, pages and embeds', async () => {
    expect(ids(await list('filtersLike=title~ALPH'))).toEqual([found.alpha]);
    expect(ids(await list(`filtersLike=id~${found.gamma!.slice(-12)}`))).toEqual([found.gamma]);
    expect(ids(await list(`filtersLike=device.id~${device.slice(-12)}`))).toEqual([found.alpha]);
    expect(ids(await list('sort=title:desc'))).toEqual([found.gamma, found.beta, found.alpha]);
    const page = await list('sort=title:asc&limit=1&offset=2');
    expect(page).toMatchObject({ total: 3, limit: 1, offset: 2 });
    expect(ids(page)).toEqual([found.gamma]);
    const [item] = (
      await list(`filters=id~${found.alpha}&relations=device,assignedPatients,assignedWorkstations`)
    ).items;
    expect(item).toMatchObject({
      device: { id: device },
      assignedPatients: [{ id: patient.id }],
      assignedWorkstations: [{ id: grouped }],
    });
  });

  it('refuses unknown paths and mistyped values with 400', async () => {
    for (const query of [
      'filters=patients.id~x',
      'filters=device.id~x',
      'filters=assignedPatients.id~x',
      'filtersLike=assignedPatients~x',
      'sort=device:asc',
      'relations=patients',
      'from=1',
    ]) {
      expect((await api(context).get(`/api/devices/workstations?${query}`)).statusCode, query).toBe(400);
    }
  });

  it('drops a deleted user from assigned patients and a deleted device from the group (spec §3)', async () => {
    expect((await api(context).delete(`/api/users/${patient.id}`)).statusCode).toBe(204);
    expect((await api(context).delete(`/api/devices/${grouped}`)).statusCode).toBe(204);
    expect((await api(context).delete(`/api/users/${creator.id}`)).statusCode).toBe(204);
    const alpha = await api(context).get(
      `/api/devices/workstations/${found.alpha}?relations=assignedPatients,assignedWorkstations`,
    );
    expect(alpha.json()).toMatchObject({ deviceId: device, assignedPatients: [], assignedWorkstations: [] });
    expect(
      (await api(context).get(`/api/devices/workstations/${found.gamma}`)).json().createdByUserId,
    ).toBeNull();
  });
});
