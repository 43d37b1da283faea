// The live events place an alert with the centers of the person it is about (decisions 102 and 109): an IoT
// device given to a patient of another center does not carry its earlier patient's alert to the new center.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCommandCenter, createDevice, createIotDevice, createUser } from '@/test/factories.js';
import { api, createTestContext, type TestContext } from '@/test/harness.js';
import { findCentersOfRecord } from './events.repository.js';

let context: TestContext;
beforeAll(async () => {
  context = await createTestContext();
});
afterAll(async () => {
  await context?.close();
});

async function centerWithPatient(title: string) {
  const patient = await createUser(context, { localRoles: ['patient'] });
  const center = await createCommandCenter(context, { title });
  await createDevice(context, { commandCenter: center.id, assignedUser: patient.id });
  return { id: center.id, patient };
}

async function sos(iotDeviceId: string, timestamp: number, id: string) {
  const response = await api(context).post('/api/iot-devices/data/submit', {
    iotDeviceId,
    dataType: 'alert',
    data: [{ timestamp, id, type: 'sos' }],
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<{ alertIds: string[] }>().alertIds[0]!;
}

describe('the centers of an alert', () => {
  it("are its own patient's, whoever its IoT device is assigned to now", async () => {
    const earlier = await centerWithPatient('Chiang Mai');
    const later = await centerWithPatient('Hat Yai');
    const button = await createIotDevice(context, { model: 'SOS button', assignedUser: earlier.patient.id });
    const earlierAlert = await sos(button.id, 1_730_000_000_000, 'e-1');
    const moved = await api(context).patch(`/api/iot-devices/${button.id}`, {
      assignedUser: later.patient.id,
    });
    expect(moved.statusCode, moved.body).toBe(200);
    const laterAlert = await sos(button.id, 1_730_000_060_000, 'l-1');

    const db = context.database.db;
    expect(await findCentersOfRecord(db, 'alerts', earlierAlert)).toEqual([earlier.id]);
    expect(await findCentersOfRecord(db, 'alerts', laterAlert)).toEqual([later.id]);
  });
});
