// An IoT device given to a patient of another center does not take its earlier patient's records there
// (decision 109): the readings and alerts stay with the person they were about. A nurse of the new center reads
// the new patient's readings and alerts of the device, not the earlier patient's (not in the list, not in a
// chart, not embedded, not acted on); the earlier center keeps reading and acting on them; an admin reads all.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Alert } from '@careplane/shared/alerts/alerts.contract';
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

/** Before the device changes hands (the earlier patient's), and after (the new patient's). */
const BEFORE = 1_730_000_000_000;
const AFTER = BEFORE + 3_600_000;

interface Center {
  id: string;
  nurse: TestUser;
  patient: TestUser;
}

async function makeCenter(name: string): Promise<Center> {
  const nurse = await createUser(context, { firstName: `${name} nurse`, localRoles: ['nurse'] });
  const patient = await createUser(context, { firstName: `${name} patient`, localRoles: ['patient'] });
  const center = await createCommandCenter(context, { title: name, assignedUsers: [nurse.id] });
  await createDevice(context, {
    title: `${name} tablet`,
    commandCenter: center.id,
    assignedUser: patient.id,
  });
  return { id: center.id, nurse, patient };
}

async function submit(iotDeviceId: string, dataType: string, data: unknown[]) {
  const response = await api(context).post('/api/iot-devices/data/submit', { iotDeviceId, dataType, data });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<{ alertIds: string[] }>().alertIds;
}

const items = <T>(response: { statusCode: number; body: string; json: () => { items: T[] } }) => {
  expect(response.statusCode, response.body).toBe(200);
  return response.json().items;
};

let earlier: Center;
let later: Center;
let button: IotDevice;
/** The earlier patient's SOS alert, opened before the device changed hands. */
let earlierAlert: string;
/** The new patient's SOS alert, opened after. */
let laterAlert: string | undefined;

beforeAll(async () => {
  context = await createTestContext();
  earlier = await makeCenter('Chiang Mai');
  later = await makeCenter('Hat Yai');
  button = await createIotDevice(context, { model: 'SOS button', assignedUser: earlier.patient.id });
  await submit(button.id, 'heart_rate', [
    { timestamp: BEFORE, rate: 71 },
    { timestamp: BEFORE + 60_000, rate: 73 },
  ]);
  earlierAlert = (
    await submit(button.id, 'alert', [{ timestamp: BEFORE + 120_000, id: 'e-1', type: 'sos' }])
  )[0]!;

  const moved = await api(context).patch(`/api/iot-devices/${button.id}`, { assignedUser: later.patient.id });
  expect(moved.statusCode, moved.body).toBe(200);

  await submit(button.id, 'heart_rate', [{ timestamp: AFTER, rate: 95 }]);
  laterAlert = (await submit(button.id, 'alert', [{ timestamp: AFTER + 60_000, id: 'l-1', type: 'sos' }]))[0];
  expect(earlierAlert).toEqual(expect.any(String));
});
afterAll(async () => {
  await context?.close();
});

const heartRates = async (token: string) =>
  items<IotDataRecord>(
    await api(context, token).get(
      `${endpoints.readings}?filters=iotDevice.id~${button.id}&filters=dataType~heart_rate&sort=timestamp:asc`,
    ),
  ).map((reading) => reading.data.rate);

const summaryTotal = async (token: string) => {
  const query = `dataType=heart_rate&from=${BEFORE}&to=${AFTER + 60_000}&buckets=4`;
  const response = await api(context, token).get(`${endpoints.readingsSummary(button.id)}?${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<ReadingsSummary>().total;
};

const alertsOfButton = async (token: string) =>
  items<Alert & { user?: { id: string } }>(
    await api(context, token).get(`${endpoints.alerts}?filters=iotDevice.id~${button.id}&relations=user`),
  );

describe('an IoT device given to a patient of another center', () => {
  it("the new patient's SOS opens an alert of its own, though the earlier patient's is still open and unseen", () => {
    expect(laterAlert).toEqual(expect.any(String));
  });

  it("the new center reads the new patient's readings of the device, not the earlier patient's", async () => {
    expect(await heartRates(later.nurse.token)).toEqual([95]);
    expect(await summaryTotal(later.nurse.token)).toBe(1);
  });

  it("the earlier center keeps reading its patient's readings of the device, but no longer charts the device", async () => {
    expect(await heartRates(earlier.nurse.token)).toEqual([71, 73]);
    // The chart is a device's: the device is the new center's now, as it is in the IoT devices list.
    const query = `dataType=heart_rate&from=${BEFORE}&to=${AFTER}&buckets=4`;
    const chart = await api(context, earlier.nurse.token).get(
      `${endpoints.readingsSummary(button.id)}?${query}`,
    );
    expect(chart.statusCode, chart.body).toBe(404);
  });

  it('an admin reads every reading of the device', async () => {
    expect(await heartRates(context.adminToken)).toEqual([71, 73, 95]);
    expect(await summaryTotal(context.adminToken)).toBe(3);
  });

  it("the new center lists the new patient's alert of the device, and neither lists nor embeds the earlier patient", async () => {
    const listed = await alertsOfButton(later.nurse.token);
    expect(listed.map((alert) => alert.id)).toEqual([laterAlert]);
    expect(listed[0]!.user).toMatchObject({ id: later.patient.id });
    expect(JSON.stringify(listed)).not.toContain(earlier.patient.id);
  });

  it("the new center cannot act on the earlier patient's alert; the earlier center can", async () => {
    const refused = await api(context, later.nurse.token).post(endpoints.acknowledgeAlert(earlierAlert));
    expect(refused.statusCode, refused.body).toBe(404);
    const closeRefused = await api(context, later.nurse.token).post(endpoints.closeAlert(earlierAlert), {
      closingData: { note: 'not ours' },
    });
    expect(closeRefused.statusCode, closeRefused.body).toBe(404);

    expect((await alertsOfButton(earlier.nurse.token)).map((alert) => alert.id)).toEqual([earlierAlert]);
    const acknowledged = await api(context, earlier.nurse.token).post(
      endpoints.acknowledgeAlert(earlierAlert),
    );
    expect(acknowledged.statusCode, acknowledged.body).toBe(200);
  });

  it("the device itself is the new center's to list", async () => {
    const listed = items<IotDevice>(await api(context, later.nurse.token).get(endpoints.iotDevices));
    expect(listed.map((device) => device.id)).toContain(button.id);
  });
});
