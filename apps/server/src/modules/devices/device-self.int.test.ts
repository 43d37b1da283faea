// A device's own calls with its device token (decisions §7): itself, its stats, the alerts it shows. It reaches
// only its own records; its token opens nothing else.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleStatSubmission } from '@careplane/shared/devices/devices.fixtures';
import { deviceStats } from '@/db/schema/index.js';
import { api, createTestContext, type TestContext } from '@/test/harness.js';
import { createDevice, createIotDevice, createPatient, createStat } from '@/test/factories.js';
import { auditRows } from '@/test/records.js';

let context: TestContext;
beforeAll(async () => {
  context = await createTestContext();
});
afterAll(async () => {
  await context?.close();
});

type Device = { id: string; token: string };
const call = (device: Device, method: 'GET' | 'POST', url: string, payload?: object) =>
  context.app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${device.token}` },
    ...(payload ? { payload } : {}),
  });

describe('GET /api/devices/me', () => {
  it('answers the calling device with its relations left out', async () => {
    const device = await createDevice(context, { title: 'Kitchen terminal', role: 'patient_terminal' });
    const me = await call(device, 'GET', '/api/devices/me');
    expect(me.statusCode, me.body).toBe(200);
    expect(me.json()).toMatchObject({ id: device.id, title: 'Kitchen terminal', role: 'patient_terminal' });
    expect(me.json()).not.toHaveProperty('tokenHash');
  });
});

describe('POST /api/devices/stats', () => {
  it('stores a device stat of the calling device with the server time, audited as the device', async () => {
    const device = await createDevice(context, { title: 'Reporter' });
    const before = Date.now();
    const posted = await call(device, 'POST', '/api/devices/stats', sampleStatSubmission());
    expect(posted.statusCode, posted.body).toBe(201);
    const stat = posted.json();
    expect(stat).toMatchObject({
      deviceId: device.id,
      firmware: 'careplane-os 2.4.1',
      bootTime: 1_700_000_000_000,
    });
    expect(stat.timestamp).toBeGreaterThanOrEqual(before);
    expect(stat.timestamp).toBeLessThanOrEqual(Date.now());
    expect(stat.system).toEqual(sampleStatSubmission().system);
    const [entry] = await auditRows(context, 'device-stats', stat.id);
    expect(entry).toMatchObject({ action: 'create', actorUserId: null, actorSubject: `device:${device.id}` });

    const latest = await api(context).get(`/api/devices/${device.id}/last-stats-submission`);
    expect(latest.json().id).toBe(stat.id);
  });

  it('accepts a stat without the optional boot time and software', async () => {
    const device = await createDevice(context, { title: 'Minimal' });
    const minimal: Record<string, unknown> = sampleStatSubmission();
    delete minimal.bootTime;
    delete minimal.software;
    const posted = await call(device, 'POST', '/api/devices/stats', minimal);
    expect(posted.statusCode, posted.body).toBe(201);
    expect(posted.json()).toMatchObject({ bootTime: null, software: null });
  });

  it('refuses bad stats with 400 and stores nothing; a device cannot set the time or another device', async () => {
    const device = await createDevice(context, { title: 'Sloppy' });
    const other = await createDevice(context, { title: 'Someone else' });
    const sample = sampleStatSubmission();
    const bad: [string, unknown][] = [
      ['empty', {}],
      ['no firmware', { ...sample, firmware: undefined }],
      ['no system', { ...sample, system: undefined }],
      ['usage above 100', { ...sample, system: { ...sample.system, cpu: { usage: 101, used: 1 } } }],
      ['unknown field', { ...sample, battery: 3 }],
      ['bootTime as text', { ...sample, bootTime: 'yesterday' }],
      ['its own timestamp', { ...sample, timestamp: 1 }],
      ['another device', { ...sample, device: other.id }],
      ['not an object', [sample]],
    ];
    const count = await context.database.db.$count(deviceStats);
    for (const [label, body] of bad) {
      const response = await call(device, 'POST', '/api/devices/stats', body as object);
      expect(response.statusCode, label).toBe(400);
      expect(response.json()).toMatchObject({ statusCode: 400, error: 'Bad Request' });
    }
    expect(await context.database.db.$count(deviceStats)).toBe(count);
  });

  it('still lets an admin create a full stat, and refuses a submission without time or device from one', async () => {
    const device = await createDevice(context, { title: 'Admin-made' });
    const made = await createStat(context, device.id, 1_800_000_000_000);
    expect(made).toMatchObject({ timestamp: 1_800_000_000_000, deviceId: device.id });
    expect((await api(context).post('/api/devices/stats', sampleStatSubmission())).statusCode).toBe(400);
    expect(
      (await api(context, context.userToken).post('/api/devices/stats', sampleStatSubmission())).statusCode,
    ).toBe(403);
  });
});

describe('GET /api/devices/alerts', () => {
  it("lists the open alerts of the device's assigned user and IoT devices, newest first, nobody else's", async () => {
    const patient = await createPatient(context);
    const stranger = await createPatient(context);
    const pulse = await createIotDevice(context);
    const otherSensor = await createIotDevice(context);
    const device = await createDevice(context, {
      title: 'Terminal',
      assignedUser: patient.id,
      iotDevices: [pulse.id],
    });
    const alert = async (body: object) => {
      const response = await api(context).post('/api/alerts', body);
      expect(response.statusCode, response.body).toBe(201);
      return response.json<{ id: string }>().id;
    };
    const forPatient = await alert({
      data: { text: 'Call the nurse' },
      user: patient.id,
      timestamp: Date.UTC(2024, 0, 1),
    });
    const fromSensor = await alert({
      data: { text: 'Heart rate 150' },
      iotDevice: pulse.id,
      timestamp: Date.UTC(2024, 0, 2),
    });
    await alert({ data: { text: 'Closed' }, user: patient.id, isActive: false, closingData: { note: 'ok' } });
    await alert({ data: { text: 'Not mine' }, user: stranger.id });
    await alert({ data: { text: 'Other sensor' }, iotDevice: otherSensor.id });

    const listed = await call(device, 'GET', '/api/devices/alerts');
    expect(listed.statusCode, listed.body).toBe(200);
    expect(listed.json().map((row: { id: string }) => row.id)).toEqual([fromSensor, forPatient]);
    expect(listed.json()[0]).toMatchObject({ isActive: true, data: { text: 'Heart rate 150' } });

    const bare = await createDevice(context, { title: 'Unassigned' });
    expect((await call(bare, 'GET', '/api/devices/alerts')).json()).toEqual([]);
  });
});

describe('a device token reaches only the device routes', () => {
  it('is refused with 401 on the admin routes, including its own records there', async () => {
    const device = await createDevice(context, { title: 'Contained' });
    const stat = await call(device, 'POST', '/api/devices/stats', sampleStatSubmission());
    for (const url of [
      '/api/devices/stats',
      `/api/devices/stats/${stat.json().id}`,
      `/api/devices/${device.id}/last-stats-submission`,
      '/api/devices/jobs',
      '/api/alerts',
      '/api/iot-devices',
      '/api/devices/workstations',
      '/api/users/me',
    ]) {
      const refused = await call(device, 'GET', url);
      expect(refused.statusCode, url).toBe(401);
    }
    expect(
      (
        await call(device, 'POST', '/api/devices/jobs', {
          purpose: 'x',
          commands: ['reboot'],
          device: device.id,
        })
      ).statusCode,
    ).toBe(401);
    expect((await call(device, 'POST', `/api/devices/${device.id}/token`)).statusCode).toBe(401);
  });

  it('is required on the device routes: people get 401', async () => {
    for (const token of [context.adminToken, context.userToken]) {
      const person = { id: '', token };
      expect((await call(person, 'GET', '/api/devices/me')).statusCode).toBe(401);
      expect((await call(person, 'GET', '/api/devices/alerts')).statusCode).toBe(401);
    }
    const none = await context.app.inject({
      method: 'POST',
      url: '/api/devices/stats',
      payload: sampleStatSubmission(),
    });
    expect(none.statusCode).toBe(401);
  });
});
