import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, devices, iotDeviceDevices } from '@/db/schema/index.js';
import {
  createCommandCenter,
  createDevice,
  createIotDevice,
  createStat,
  createUser,
} from '@/test/factories.js';
import { api, createTestContext, type TestContext } from '@/test/harness.js';
import { auditRows } from '@/test/records.js';

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
    const patient = await createUser(context, { firstName: 'paul' });
    const center = (await createCommandCenter(context, { title: 'North' })).id;
    const iot = (await createIotDevice(context)).id;
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
    const single = (await createIotDevice(context, { allowMultipleDeviceRelationships: false })).id;
    const shared = (await createIotDevice(context, { allowMultipleDeviceRelationships: true })).id;
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
    const owner = await createUser(context, { firstName: 'olga' });
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

describe('delete rules (spec §3)', () => {
  it('deleting a user clears assignedUser on devices', async () => {
    const user = await createUser(context, { firstName: 'ulla' });
    const device = await createDevice(context, { title: 'Assigned', assignedUser: user.id });
    expect((await api(context).delete(`/api/users/${user.id}`)).statusCode).toBe(204);
    const read = await api(context).get(`/api/devices/${device.id}`);
    expect(read.statusCode).toBe(200);
    expect(read.json().assignedUserId).toBeNull();
  });

  it('deleting a user clears createdByUser on the devices they created', async () => {
    const creator = await createUser(context, { firstName: 'carl', roles: ['admin'] });
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
