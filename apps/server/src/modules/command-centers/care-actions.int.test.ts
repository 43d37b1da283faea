// The care actions on a user (spec §7, decisions §7): an alert sent to the user with a notify job on each of the
// user's devices, and a reboot job on each of the user's devices.
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alerts, deviceRunnerJobs } from '@/db/schema/index.js';
import { createCommandCenter, createDevice, createUser } from '@/test/factories.js';
import { api, createTestContext, type TestContext } from '@/test/harness.js';
import { auditRows } from '@/test/records.js';
import { MAX_USER_ALERT_MESSAGE } from '@careplane/shared/command-centers/command-centers.contract';

let context: TestContext;
let admin: ReturnType<typeof api>;
const db = () => context.database.db;
const alertPath = (userId: string) => `/api/command-centers/users/${userId}/alert`;
const MESSAGE = 'Please call the nurse about your evening tablets.';
const message = { message: MESSAGE };
const rebootPath = (userId: string) => `/api/command-centers/users/${userId}/device/reboot`;

const jobsOf = (deviceId: string) =>
  db().select().from(deviceRunnerJobs).where(eq(deviceRunnerJobs.deviceId, deviceId));
const alertsOf = (userId: string) => db().select().from(alerts).where(eq(alerts.userId, userId));

beforeAll(async () => {
  context = await createTestContext();
  admin = api(context);
});
afterAll(async () => {
  await context?.close();
});

describe('send an alert to a user', () => {
  it("opens an active alert for the user and a notify job on each of the user's devices, audited", async () => {
    const patient = await createUser(context, { firstName: 'Malee' });
    const tablet = await createDevice(context, { title: 'Tablet', assignedUser: patient.id });
    const hub = await createDevice(context, { title: 'Hub', assignedUser: patient.id });
    const other = await createDevice(context, { title: 'Not hers' });

    const response = await admin.post(alertPath(patient.id), message);
    expect(response.statusCode, response.body).toBe(201);
    const { alert, jobs } = response.json();
    expect(alert).toMatchObject({
      isActive: true,
      userId: patient.id,
      iotDeviceId: null,
      createdByUserId: context.adminUserId,
      severity: 'warning',
      data: { kind: 'manual', message: MESSAGE },
    });
    expect(jobs.map((job: { deviceId: string }) => job.deviceId).sort()).toEqual([tablet.id, hub.id].sort());
    for (const job of jobs) {
      expect(job).toMatchObject({ status: 'NEW', commands: [`notify ${MESSAGE}`] });
    }
    expect(await jobsOf(other.id)).toEqual([]);
    expect(await alertsOf(patient.id)).toHaveLength(1);
    expect(await auditRows(context, 'alerts', alert.id)).toEqual([
      expect.objectContaining({ action: 'create' }),
    ]);
    expect(await auditRows(context, 'device-jobs', jobs[0].id)).toEqual([
      expect.objectContaining({ action: 'create' }),
    ]);
  });

  it('still opens the alert for a user without a device, with no job', async () => {
    const patient = await createUser(context);
    const response = await admin.post(alertPath(patient.id), message);
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json().jobs).toEqual([]);
    expect(await alertsOf(patient.id)).toHaveLength(1);
  });

  it('trims the message and accepts one of the longest length', async () => {
    const patient = await createUser(context);
    const device = await createDevice(context, { assignedUser: patient.id });
    const longest = 'a'.repeat(MAX_USER_ALERT_MESSAGE);
    const response = await admin.post(alertPath(patient.id), { message: `  ${longest}  ` });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json().alert.data.message).toBe(longest);
    expect((await jobsOf(device.id))[0]?.commands).toEqual([`notify ${longest}`]);
  });

  it('answers 400 with the error body for a missing, blank, too long or multi-line message, creating nothing', async () => {
    const patient = await createUser(context);
    const device = await createDevice(context, { assignedUser: patient.id });
    const cases: [unknown, string][] = [
      [undefined, ''],
      [{}, 'body.message'],
      [{ message: '' }, 'body.message'],
      [{ message: '   ' }, 'body.message'],
      [{ message: 'a'.repeat(MAX_USER_ALERT_MESSAGE + 1) }, 'body.message'],
      [{ message: 'first line\nreboot' }, 'body.message'],
      [{ message: 42 }, 'body.message'],
      [{ message: 'fine', extra: true }, ''],
    ];
    for (const [body, path] of cases) {
      const response = await admin.post(alertPath(patient.id), body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      const answer = response.json();
      expect(answer, JSON.stringify(body)).toMatchObject({ statusCode: 400, error: 'Bad Request' });
      expect(typeof answer.message).toBe('string');
      if (path) expect(answer.issues.map((issue: { path: string }) => issue.path)).toContain(path);
    }
    expect(await alertsOf(patient.id)).toEqual([]);
    expect(await jobsOf(device.id)).toEqual([]);
  });
});

describe("request a reboot of a user's devices", () => {
  it('creates one reboot job per device assigned to the user', async () => {
    const patient = await createUser(context);
    const tablet = await createDevice(context, { title: 'Tablet', assignedUser: patient.id });
    const response = await admin.post(rebootPath(patient.id));
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json().jobs).toEqual([
      expect.objectContaining({ deviceId: tablet.id, commands: ['reboot'], status: 'NEW' }),
    ]);
    expect(await jobsOf(tablet.id)).toHaveLength(1);
  });

  it('answers 409 saying why when the user has no device, and creates nothing', async () => {
    const patient = await createUser(context);
    const response = await admin.post(rebootPath(patient.id));
    expect(response.statusCode).toBe(409);
    expect(response.json().message).toBe('This user has no device assigned, so there is nothing to reboot.');
  });
});

describe("a care team acts on its own centers' devices only", () => {
  // A doctor who works in two centers has a lobby screen in each; a nurse of one reboots or messages the
  // doctor's screen of that center, never the other center's.
  async function doctorOfTwoCenters() {
    const doctor = await createUser(context, { firstName: 'Doctor of two', localRoles: ['doctor'] });
    const nurse = await createUser(context, { localRoles: ['nurse'] });
    const bangkok = await createCommandCenter(context, { title: 'Bangkok', assignedUsers: [nurse.id] });
    const phuket = await createCommandCenter(context, { title: 'Phuket' });
    const bangkokScreen = await createDevice(context, {
      title: 'Bangkok screen',
      commandCenter: bangkok.id,
      assignedUser: doctor.id,
    });
    const phuketScreen = await createDevice(context, {
      title: 'Phuket lobby screen',
      commandCenter: phuket.id,
      assignedUser: doctor.id,
    });
    return { doctor, nurse, bangkokScreen, phuketScreen };
  }

  it("reboots the user's device of the caller's center and not another center's", async () => {
    const { doctor, nurse, bangkokScreen, phuketScreen } = await doctorOfTwoCenters();
    const response = await api(context, nurse.token).post(rebootPath(doctor.id));
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json().jobs.map((job: { deviceId: string }) => job.deviceId)).toEqual([bangkokScreen.id]);
    expect(await jobsOf(phuketScreen.id)).toEqual([]);
  });

  it("sends the notify job to the user's device of the caller's center only", async () => {
    const { doctor, nurse, bangkokScreen, phuketScreen } = await doctorOfTwoCenters();
    const response = await api(context, nurse.token).post(alertPath(doctor.id), message);
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json().jobs.map((job: { deviceId: string }) => job.deviceId)).toEqual([bangkokScreen.id]);
    expect(await jobsOf(phuketScreen.id)).toEqual([]);
  });

  it("answers as for a user without a device when the user's only device is another center's", async () => {
    const doctor = await createUser(context, { localRoles: ['doctor'] });
    const nurse = await createUser(context, { localRoles: ['nurse'] });
    await createCommandCenter(context, { title: 'Bangkok', assignedUsers: [nurse.id, doctor.id] });
    const phuket = await createCommandCenter(context, { title: 'Phuket' });
    const phuketScreen = await createDevice(context, { commandCenter: phuket.id, assignedUser: doctor.id });

    const reboot = await api(context, nurse.token).post(rebootPath(doctor.id));
    expect(reboot.statusCode, reboot.body).toBe(409);
    expect(reboot.json().message).toBe('This user has no device assigned, so there is nothing to reboot.');
    const alert = await api(context, nurse.token).post(alertPath(doctor.id), message);
    expect(alert.statusCode, alert.body).toBe(201);
    expect(alert.json().jobs).toEqual([]);
    expect(await jobsOf(phuketScreen.id)).toEqual([]);
  });

  it("lets an admin act on every one of the user's devices", async () => {
    const { doctor, bangkokScreen, phuketScreen } = await doctorOfTwoCenters();
    const response = await admin.post(rebootPath(doctor.id));
    expect(response.statusCode, response.body).toBe(201);
    expect(
      response
        .json()
        .jobs.map((job: { deviceId: string }) => job.deviceId)
        .sort(),
    ).toEqual([bangkokScreen.id, phuketScreen.id].sort());
  });
});

describe('refusals', () => {
  it('answers 404 for an unknown user and 400 for an id that is not one, creating nothing', async () => {
    const before = await db().select({ id: alerts.id }).from(alerts);
    for (const path of [alertPath(randomUUID()), rebootPath(randomUUID())]) {
      const response = await admin.post(path, path.endsWith('/alert') ? message : undefined);
      expect(response.statusCode, path).toBe(404);
    }
    for (const path of [alertPath('not-a-uuid'), rebootPath('not-a-uuid')]) {
      expect((await admin.post(path, path.endsWith('/alert') ? message : undefined)).statusCode, path).toBe(
        400,
      );
    }
    expect(await db().select({ id: alerts.id }).from(alerts)).toHaveLength(before.length);
  });

  it('refuses callers who are not admins (403) and callers without a token (401)', async () => {
    const patient = await createUser(context);
    await createDevice(context, { assignedUser: patient.id });
    const nurse = await createUser(context, { localRoles: ['nurse'] });
    for (const path of [alertPath(patient.id), rebootPath(patient.id)]) {
      expect((await api(context, nurse.token).post(path, message)).statusCode, path).toBe(403);
      expect((await api(context, '').post(path)).statusCode, path).toBe(401);
    }
    expect(await alertsOf(patient.id)).toEqual([]);
  });
});
