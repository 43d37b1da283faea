// The care team reads its patients' vital signs (decision 102): a supervisor or nurse of a center lists the IoT
// devices of the center's users and those linked to its devices, their readings, and a chart's summary of them;
// another center's device is not listed and answers 404; someone outside every care team gets 403.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commandCenterEndpoints as endpoints } from '@careplane/shared/command-centers/command-centers.contract';
import type { IotDataRecord, IotDevice, ReadingsSummary } from '@careplane/shared/iot/iot.contract';
import {
  createCommandCenter,
  createDevice,
  createIotDevice,
  createUser,
  type TestUser,
} from '@/test/factories.js';
import { api, createTestContext, type TestContext } from '@/test/harness.js';

let context: TestContext;

const T0 = 1_730_000_000_000;

interface Center {
  id: string;
  supervisor: TestUser;
  nurse: TestUser;
  patient: TestUser;
  /** Assigned to the patient. */
  pulse: IotDevice;
  /** Assigned to nobody, linked to the center's tablet. */
  scale: IotDevice;
}

async function submit(iotDeviceId: string, dataType: string, data: unknown[]) {
  const response = await api(context).post('/api/iot-devices/data/submit', { iotDeviceId, dataType, data });
  expect(response.statusCode, response.body).toBe(201);
}

async function makeCenter(name: string): Promise<Center> {
  const supervisor = await createUser(context, {
    firstName: `${name} supervisor`,
    localRoles: ['supervisor'],
  });
  const nurse = await createUser(context, { firstName: `${name} nurse`, localRoles: ['nurse'] });
  const patient = await createUser(context, { firstName: `${name} patient`, localRoles: ['patient'] });
  const center = await createCommandCenter(context, {
    title: name,
    assignedUsers: [supervisor.id, nurse.id],
  });
  const tablet = await createDevice(context, {
    title: `${name} tablet`,
    commandCenter: center.id,
    assignedUser: patient.id,
  });
  const pulse = await createIotDevice(context, { model: `${name} pulse`, assignedUser: patient.id });
  const scale = await createIotDevice(context, { model: `${name} cuff`, devices: [tablet.id] });
  await submit(pulse.id, 'heart_rate', [
    { timestamp: T0, rate: 72 },
    { timestamp: T0 + 60_000, rate: 88 },
  ]);
  await submit(scale.id, 'blood_pressure', [{ timestamp: T0 + 30_000, sys: 128, dias: 84 }]);
  return { id: center.id, supervisor, nurse, patient, pulse, scale };
}

let north: Center;
let south: Center;

beforeAll(async () => {
  context = await createTestContext();
  north = await makeCenter('North');
  south = await makeCenter('South');
});
afterAll(async () => {
  await context?.close();
});

const items = <T>(response: { statusCode: number; body: string; json: () => { items: T[] } }) => {
  expect(response.statusCode, response.body).toBe(200);
  return response.json().items;
};

describe("the care team reads its patients' readings", () => {
  it("lists the center's IoT devices: the patient's and the one linked to its tablet, not another center's", async () => {
    for (const member of [north.supervisor, north.nurse]) {
      const listed = items<IotDevice>(await api(context, member.token).get(endpoints.iotDevices));
      expect(listed.map((device) => device.id).sort()).toEqual([north.pulse.id, north.scale.id].sort());
    }
    const mine = items<IotDevice>(
      await api(context, north.nurse.token).get(
        `${endpoints.iotDevices}?filters=assignedUser.id~${north.patient.id}`,
      ),
    );
    expect(mine.map((device) => device.model)).toEqual(['North pulse']);
  });

  it("lists a patient's readings by device and type, newest first, and nothing of another center", async () => {
    const nurse = api(context, north.nurse.token);
    const heart = items<IotDataRecord>(
      await nurse.get(
        `${endpoints.readings}?filters=iotDevice.id~${north.pulse.id}&filters=dataType~heart_rate&relations=iotDevice`,
      ),
    );
    expect(heart.map((reading) => reading.data.rate)).toEqual([88, 72]);
    expect(heart[0]!.iotDevice).toMatchObject({ id: north.pulse.id });

    const everything = items<IotDataRecord>(await nurse.get(endpoints.readings));
    expect(new Set(everything.map((reading) => reading.iotDeviceId))).toEqual(
      new Set([north.pulse.id, north.scale.id]),
    );
    // Asking for the other center's device by its id finds nothing, as if it had no readings.
    const theirs = await nurse.get(`${endpoints.readings}?filters=iotDevice.id~${south.pulse.id}`);
    expect(theirs.json()).toMatchObject({ items: [], total: 0 });
  });

  it("sums up a device's readings for a chart, and answers 404 for another center's device", async () => {
    const nurse = api(context, north.nurse.token);
    const query = `dataType=heart_rate&from=${T0}&to=${T0 + 120_000}&buckets=2`;
    const summary = await nurse.get(`${endpoints.readingsSummary(north.pulse.id)}?${query}`);
    expect(summary.statusCode, summary.body).toBe(200);
    expect(summary.json<ReadingsSummary>()).toMatchObject({ dataType: 'heart_rate', total: 2 });

    const theirs = await nurse.get(`${endpoints.readingsSummary(south.pulse.id)}?${query}`);
    expect(theirs.statusCode, theirs.body).toBe(404);
    expect(theirs.json().message).toBe('IoT device not found');
    const missing = await nurse.get(`${endpoints.readingsSummary(crypto.randomUUID())}?${query}`);
    expect(missing.statusCode).toBe(404);
    // A bad period is refused before anything is read.
    const backwards = await nurse.get(
      `${endpoints.readingsSummary(north.pulse.id)}?dataType=heart_rate&from=${T0}&to=${T0 - 1}`,
    );
    expect(backwards.statusCode, backwards.body).toBe(400);
  });

  it('refuses relations that could leave the center, and everyone outside a care team', async () => {
    const nurse = api(context, north.nurse.token);
    const embedded = await nurse.get(`${endpoints.iotDevices}?relations=assignedUser`);
    expect(embedded.statusCode, embedded.body).toBe(400);
    const creator = await nurse.get(`${endpoints.readings}?relations=createdByUser`);
    expect(creator.statusCode, creator.body).toBe(400);

    const courier = await createUser(context, { localRoles: ['courier'] });
    for (const path of [
      endpoints.iotDevices,
      endpoints.readings,
      `${endpoints.readingsSummary(north.pulse.id)}?dataType=heart_rate&from=${T0}&to=${T0 + 1}`,
    ]) {
      const patient = await api(context, north.patient.token).get(path);
      expect(patient.statusCode, `${path}: ${patient.body}`).toBe(403);
      expect((await api(context, courier.token).get(path)).statusCode).toBe(403);
      expect((await context.app.inject({ method: 'GET', url: path })).statusCode).toBe(401);
    }
  });

  it("lets an admin read every center's, or one center's when named", async () => {
    const admin = api(context);
    const named = items<IotDataRecord>(await admin.get(`${endpoints.readings}?commandCenter=${south.id}`));
    expect(new Set(named.map((reading) => reading.iotDeviceId))).toEqual(
      new Set([south.pulse.id, south.scale.id]),
    );
    const all = items<IotDevice>(await admin.get(`${endpoints.iotDevices}?limit=200`));
    expect(all.map((device) => device.id)).toEqual(
      expect.arrayContaining([north.pulse.id, south.pulse.id, north.scale.id, south.scale.id]),
    );
    // A supervisor may name only a center of their own.
    const foreign = await api(context, north.supervisor.token).get(
      `${endpoints.readings}?commandCenter=${south.id}`,
    );
    expect(foreign.statusCode).toBe(404);
  });

  it("keeps another center's patient's device out, though it is linked to this center's tablet", async () => {
    // A pulse oximeter of South's patient, paired with North's tablet (a visit, a loan): it measures South's
    // patient, so neither its readings, nor its alerts, nor the patient's name reach North.
    const northTablet = await createDevice(context, { title: 'North spare tablet', commandCenter: north.id });
    const theirs = await createIotDevice(context, {
      model: 'South visiting pulse',
      assignedUser: south.patient.id,
      devices: [northTablet.id],
    });
    await submit(theirs.id, 'heart_rate', [{ timestamp: T0 + 90_000, rate: 140 }]);
    const alert = await api(context).post('/api/alerts', {
      data: { message: 'Visiting pulse high' },
      user: south.patient.id,
      iotDevice: theirs.id,
    });
    expect(alert.statusCode, alert.body).toBe(201);

    const nurse = api(context, north.nurse.token);
    const devices = items<IotDevice>(await nurse.get(endpoints.iotDevices));
    expect(devices.map((device) => device.id)).not.toContain(theirs.id);
    const readings = items<IotDataRecord>(await nurse.get(`${endpoints.readings}?limit=200`));
    expect(readings.map((reading) => reading.iotDeviceId)).not.toContain(theirs.id);
    const summary = await nurse.get(
      `${endpoints.readingsSummary(theirs.id)}?dataType=heart_rate&from=${T0}&to=${T0 + 120_000}`,
    );
    expect(summary.statusCode).toBe(404);
    const alerts = items<{ id: string }>(await nurse.get(`${endpoints.alerts}?limit=200&relations=user`));
    expect(alerts.map((one) => one.id)).not.toContain(alert.json().id);
    // South's care team reads all of it.
    const theirTeam = api(context, south.nurse.token);
    expect(items<IotDevice>(await theirTeam.get(endpoints.iotDevices)).map((device) => device.id)).toContain(
      theirs.id,
    );
    expect(
      items<{ id: string }>(await theirTeam.get(`${endpoints.alerts}?limit=200`)).map((one) => one.id),
    ).toContain(alert.json().id);
  });
});
