// The command-center scoped reads: a supervisor reads their own center's devices, workstations, users, stats
// and jobs; every record of another center answers 404; admins read every center or the one they name. The
// scoped lists are written by the database, as the generic lists are.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  commandCenterEndpoints as endpoints,
  commandCenterScopedListQuerySchema,
} from '@careplane/shared/command-centers/command-centers.contract';
import type { Caller } from '@/lib/caller.js';
import { createChangeFeed } from '@/lib/changes.js';
import { WrittenAnswer } from '@/lib/response-serializer.js';
import { createStore } from '@/lib/store.js';
import {
  createCommandCenter,
  createDevice,
  createStat,
  createUser,
  type TestUser,
} from '@/test/factories.js';
import { api, createTestContext, type TestContext } from '@/test/harness.js';
import { createCommandCenterScopeService } from './command-center-scope.service.js';

let context: TestContext;

interface Center {
  id: string;
  supervisor: TestUser;
  patient: TestUser;
  wardPatient: TestUser;
  device: string;
  workstation: string;
  job: string;
  alert: string;
}

const ids = (response: { json: () => { items: { id: string }[] } }) =>
  response
    .json()
    .items.map((item) => item.id)
    .sort();

async function makeCenter(name: string): Promise<Center> {
  const admin = api(context);
  const supervisor = await createUser(context, {
    firstName: `${name} supervisor`,
    localRoles: ['supervisor'],
  });
  const patient = await createUser(context, { firstName: `${name} patient` });
  const wardPatient = await createUser(context, { firstName: `${name} ward patient` });
  const center = await createCommandCenter(context, { title: name, assignedUsers: [supervisor.id] });
  const device = (
    await createDevice(context, {
      title: `${name} tablet`,
      commandCenter: center.id,
      assignedUser: patient.id,
    })
  ).id;
  const workstation = await admin.post('/api/devices/workstations', {
    title: `${name} ward`,
    device,
    assignedPatients: [wardPatient.id],
    assignedWorkstations: [],
  });
  expect(workstation.statusCode, workstation.body).toBe(201);
  await createStat(context, device, 1_700_000_000_000);
  const job = await admin.post('/api/devices/jobs', { purpose: 'Check', commands: ['reboot'], device });
  expect(job.statusCode, job.body).toBe(201);
  const alert = await admin.post('/api/alerts', { data: { message: `${name} fall` }, user: wardPatient.id });
  expect(alert.statusCode, alert.body).toBe(201);
  return {
    alert: alert.json().id,
    id: center.id,
    supervisor,
    patient,
    wardPatient,
    device,
    workstation: workstation.json().id,
    job: job.json().id,
  };
}

let north: Center;
let south: Center;
let loner: TestUser;
let lonePharmacist: TestUser;
let loneAdmin: TestUser;

beforeAll(async () => {
  context = await createTestContext();
  north = await makeCenter('North');
  south = await makeCenter('South');
  loner = await createUser(context, { firstName: 'Unassigned', localRoles: ['patient'] });
  lonePharmacist = await createUser(context, { firstName: 'Loose', localRoles: ['pharmacist'] });
  loneAdmin = await createUser(context, { firstName: 'Boss', roles: ['admin'], localRoles: ['patient'] });
});
afterAll(async () => {
  await context?.close();
});

describe('command-center scoped reads: a supervisor', () => {
  const as = (center: () => Center) => api(context, center().supervisor.token);

  it("lists only their own center's devices, workstations and users", async () => {
    const me = as(() => north);
    const devices = await me.get(endpoints.devices);
    expect(devices.statusCode, devices.body).toBe(200);
    expect(ids(devices)).toEqual([north.device]);
    expect(devices.json().total).toBe(1);

    const workstations = await me.get(endpoints.workstations);
    expect(workstations.statusCode, workstations.body).toBe(200);
    expect(ids(workstations)).toEqual([north.workstation]);

    const users = await me.get(endpoints.users);
    expect(users.statusCode, users.body).toBe(200);
    expect(ids(users)).toEqual([north.supervisor.id, north.patient.id, north.wardPatient.id].sort());
  });

  it("lists their center's jobs and alerts", async () => {
    const me = as(() => north);
    const jobs = await me.get(`${endpoints.jobs}?filters=status~NEW`);
    expect(jobs.statusCode, jobs.body).toBe(200);
    expect(ids(jobs)).toEqual([north.job]);
    const alerts = await me.get(`${endpoints.alerts}?filters=isActive~true&relations=user`);
    expect(alerts.statusCode, alerts.body).toBe(200);
    expect(ids(alerts)).toEqual([north.alert]);
    expect(alerts.json().items[0].user).toMatchObject({ id: north.wardPatient.id });
    expect(ids(await me.get(`${endpoints.alerts}?filters=id~${south.alert}`))).toEqual([]);
  });

  it("reads their center's user, device stats and job, with the relations that stay inside it", async () => {
    const me = as(() => north);
    const user = await me.get(`${endpoints.user(north.patient.id)}?relations=assignedDevices`);
    expect(user.statusCode, user.body).toBe(200);
    expect(user.json().assignedDevices.map((device: { id: string }) => device.id)).toEqual([north.device]);
    const stats = await me.get(endpoints.deviceStats(north.device));
    expect(stats.statusCode, stats.body).toBe(200);
    expect(stats.json().items).toHaveLength(1);
    expect(stats.json().items[0]).toMatchObject({ timestamp: 1_700_000_000_000 });
    const job = await me.get(`${endpoints.job(north.job)}?relations=device`);
    expect(job.statusCode, job.body).toBe(200);
    expect(job.json()).toMatchObject({ id: north.job, status: 'NEW', device: { id: north.device } });
  });

  it("answers 404 for every record of another center, and for another center's name", async () => {
    const me = as(() => north);
    for (const url of [
      endpoints.user(south.patient.id),
      endpoints.user(south.wardPatient.id),
      endpoints.user(south.supervisor.id),
      endpoints.deviceStats(south.device),
      endpoints.job(south.job),
      `${endpoints.devices}?commandCenter=${south.id}`,
      `${endpoints.workstations}?commandCenter=${south.id}`,
      `${endpoints.users}?commandCenter=${south.id}`,
      `${endpoints.user(north.patient.id)}?commandCenter=${south.id}`,
    ]) {
      const response = await me.get(url);
      expect(response.statusCode, url).toBe(404);
      expect(response.json(), url).toMatchObject({ statusCode: 404, error: 'Not Found' });
    }
    // Filters cannot reach past the scope either.
    const filtered = await me.get(`${endpoints.devices}?filters=id~${south.device}`);
    expect(filtered.json()).toMatchObject({ items: [], total: 0 });
    // And the other way round.
    expect((await as(() => south).get(endpoints.job(north.job))).statusCode).toBe(404);
    expect((await as(() => south).get(endpoints.user(north.patient.id))).statusCode).toBe(404);
  });

  it('sees users that belong to no center, and reads no relation that leaves the center', async () => {
    const me = as(() => north);
    const unassigned = await me.get(endpoints.unassignedUsers);
    expect(unassigned.statusCode, unassigned.body).toBe(200);
    const found = ids(unassigned);
    expect(found).toContain(loner.id);
    // Patients only: staff of no center, and admins, are not the care team's to read (their identity data).
    expect(found).not.toContain(lonePharmacist.id);
    expect(found).not.toContain(loneAdmin.id);
    for (const member of [north, south].flatMap((c) => [c.supervisor.id, c.patient.id, c.wardPatient.id])) {
      expect(found).not.toContain(member);
    }
    for (const url of [
      `${endpoints.devices}?relations=createdByUser`,
      `${endpoints.user(north.patient.id)}?relations=commandCenters`,
      `${endpoints.users}?relations=assignedDevices,employers`,
    ]) {
      const response = await me.get(url);
      expect(response.statusCode, url).toBe(400);
      expect(response.json().issues[0].path, url).toBe('relations');
    }
  });
});

describe('care actions by a supervisor', () => {
  it("sends an alert to and reboots the devices of their own center's users only", async () => {
    const me = api(context, north.supervisor.token);
    const alerted = await me.post(endpoints.alertUser(north.patient.id), { message: 'Please call us' });
    expect(alerted.statusCode, alerted.body).toBe(201);
    expect(alerted.json().alert).toMatchObject({ userId: north.patient.id, isActive: true });
    expect(alerted.json().jobs.map((job: { deviceId: string }) => job.deviceId)).toEqual([north.device]);
    const rebooted = await me.post(endpoints.rebootUserDevices(north.patient.id));
    expect(rebooted.statusCode, rebooted.body).toBe(201);
    expect(rebooted.json().jobs).toHaveLength(1);

    for (const url of [
      endpoints.alertUser(south.patient.id),
      endpoints.rebootUserDevices(south.patient.id),
      endpoints.alertUser(loner.id),
    ]) {
      const response = await me.post(url, url.endsWith('/alert') ? { message: 'Please call us' } : undefined);
      expect(response.statusCode, url).toBe(404);
    }
    // Nothing was made for the other center's user.
    const southJobs = await api(context).get(`/api/devices/jobs?filters=device.id~${south.device}`);
    expect(ids(southJobs)).toEqual([south.job]);
    // Someone who supervises no center may not use them at all.
    expect(
      (
        await api(context, context.userToken).post(endpoints.alertUser(north.patient.id), {
          message: 'Please call us',
        })
      ).statusCode,
    ).toBe(403);
  });
});

describe('command-center scoped reads: others', () => {
  it('refuses signed-in users who supervise no center with 403, and no token with 401', async () => {
    const nurse = api(context, context.userToken);
    for (const url of [
      endpoints.devices,
      endpoints.users,
      endpoints.unassignedUsers,
      endpoints.job(north.job),
    ]) {
      const response = await nurse.get(url);
      expect(response.statusCode, url).toBe(403);
    }
    expect((await context.app.inject({ method: 'GET', url: endpoints.devices })).statusCode).toBe(401);
  });

  it("refuses a patient who is a member of a center: members are not the center's care team", async () => {
    const member = await createUser(context, { firstName: 'Member', localRoles: ['patient'] });
    const admin = api(context);
    const patched = await admin.patch(`/api/command-centers/${north.id}`, {
      assignedUsers: [north.supervisor.id, member.id],
    });
    expect(patched.statusCode, patched.body).toBe(200);
    for (const url of [endpoints.devices, endpoints.users, endpoints.user(north.patient.id)]) {
      expect((await api(context, member.token).get(url)).statusCode, url).toBe(403);
    }
    // A member is among the center's users all the same.
    expect(ids(await api(context, north.supervisor.token).get(endpoints.users))).toContain(member.id);
  });

  it('lets admins read every center, or the one they name', async () => {
    const admin = api(context);
    expect(ids(await admin.get(endpoints.devices))).toEqual([north.device, south.device].sort());
    expect(ids(await admin.get(`${endpoints.devices}?commandCenter=${south.id}`))).toEqual([south.device]);
    // Both centers' alerts (and the one the care action above sent).
    expect(ids(await admin.get(endpoints.alerts))).toEqual(
      expect.arrayContaining([north.alert, south.alert]),
    );
    // The alerts page narrows to one center this way, embedding who acknowledged and closed each alert.
    const southAlerts = await admin.get(
      `${endpoints.alerts}?commandCenter=${south.id}&filters=isActive~true&relations=user,iotDevice,acknowledgedByUser,closedByUser`,
    );
    expect(southAlerts.statusCode, southAlerts.body).toBe(200);
    expect(ids(southAlerts)).toContain(south.alert);
    expect(ids(southAlerts)).not.toContain(north.alert);
    expect(ids(await admin.get(`${endpoints.users}?commandCenter=${south.id}`))).toEqual(
      [south.supervisor.id, south.patient.id, south.wardPatient.id].sort(),
    );
    expect((await admin.get(endpoints.job(south.job))).statusCode).toBe(200);
    expect((await admin.get(`${endpoints.user(south.patient.id)}?relations=commandCenters`)).statusCode).toBe(
      200,
    );
    const unknown = await admin.get(
      `${endpoints.devices}?commandCenter=0190a0b0-0000-7000-8000-00000000dead`,
    );
    expect(unknown.statusCode).toBe(404);
    expect((await admin.get(`${endpoints.devices}?commandCenter=north`)).statusCode).toBe(400);
  });
});

describe('command-center scoped lists: how they are written', () => {
  it('come as the JSON the database writes (decision 058), the same answers the route sends', async () => {
    const scope = createCommandCenterScopeService(createStore(context.database.db, createChangeFeed()));
    const supervisor: Caller = {
      subject: north.supervisor.masterId!,
      roles: [],
      claims: {},
      userId: north.supervisor.id,
      localRoles: ['supervisor'],
      isAdmin: false,
    };
    const query = (relations: string) => commandCenterScopedListQuerySchema.parse({ relations });
    // Each list's path, the relations it is asked for, and the scoped service's call.
    type Query = ReturnType<typeof query>;
    const lists: [string, string, (asked: Query) => Promise<unknown>][] = [
      [endpoints.devices, '', (asked) => scope.listDevices(supervisor, asked)],
      [endpoints.workstations, '', (asked) => scope.listWorkstations(supervisor, asked)],
      [endpoints.users, 'patientProfile', (asked) => scope.listUsers(supervisor, asked)],
      [endpoints.unassignedUsers, '', (asked) => scope.listUnassignedUsers(supervisor, asked)],
      [endpoints.jobs, '', (asked) => scope.listJobs(supervisor, asked)],
      [endpoints.alerts, 'user', (asked) => scope.listAlerts(supervisor, asked)],
      [
        `${endpoints.devices}/${north.device}/stats`,
        '',
        (asked) => scope.listDeviceStats(supervisor, north.device, asked),
      ],
    ];
    for (const [path, relations, list] of lists) {
      const answer = await list(query(relations));
      expect(answer, path).toBeInstanceOf(WrittenAnswer);
      const sent = await api(context, north.supervisor.token).get(`${path}?relations=${relations}`);
      expect(sent.statusCode, sent.body).toBe(200);
      expect(JSON.parse((answer as WrittenAnswer).text), path).toEqual(sent.json());
    }
  });
});

describe('a patient of two centers', () => {
  it("embeds for each care team only its own center's devices and workstations of that patient", async () => {
    // East and West made here, after the tests above counted North's and South's records.
    const east = await makeCenter('East');
    const west = await makeCenter('West');
    const admin = api(context);
    const patient = await createUser(context, { firstName: 'Two-center patient', localRoles: ['patient'] });
    const eastTablet = (
      await createDevice(context, { title: 'East bedside', commandCenter: east.id, assignedUser: patient.id })
    ).id;
    const westTablet = (
      await createDevice(context, { title: 'West bedside', commandCenter: west.id, assignedUser: patient.id })
    ).id;
    const westWard = await admin.patch(`/api/devices/workstations/${west.workstation}`, {
      assignedPatients: [west.wardPatient.id, patient.id],
    });
    expect(westWard.statusCode, westWard.body).toBe(200);
    const relations = 'relations=assignedDevices,assignedToWorkstations';
    interface Embedding {
      id: string;
      assignedDevices: { id: string }[];
      assignedToWorkstations: { id: string }[];
    }
    const embedded = (record: Embedding | undefined) => ({
      devices: record?.assignedDevices.map((device) => device.id).sort(),
      workstations: record?.assignedToWorkstations.map((workstation) => workstation.id),
    });
    const inList = (response: { json: () => { items: Embedding[] } }) =>
      response.json().items.find((item) => item.id === patient.id);

    const eastTeam = api(context, east.supervisor.token);
    const eastList = await eastTeam.get(`${endpoints.users}?${relations}&filters=id~${patient.id}`);
    expect(eastList.statusCode, eastList.body).toBe(200);
    expect(embedded(inList(eastList))).toEqual({ devices: [eastTablet], workstations: [] });
    const eastRead = await eastTeam.get(`${endpoints.user(patient.id)}?${relations}`);
    expect(eastRead.statusCode, eastRead.body).toBe(200);
    expect(embedded(eastRead.json())).toEqual({ devices: [eastTablet], workstations: [] });

    const westTeam = api(context, west.supervisor.token);
    const westRead = await westTeam.get(`${endpoints.user(patient.id)}?${relations}`);
    expect(embedded(westRead.json())).toEqual({ devices: [westTablet], workstations: [west.workstation] });
    const westList = await westTeam.get(`${endpoints.users}?${relations}`);
    expect(embedded(inList(westList))).toEqual({ devices: [westTablet], workstations: [west.workstation] });

    // The admin reads the patient whole.
    const whole = await admin.get(`${endpoints.user(patient.id)}?${relations}`);
    expect(embedded(whole.json())).toEqual({
      devices: [eastTablet, westTablet].sort(),
      workstations: [west.workstation],
    });
  });
});
