// Shared set-up of the devices module's integration tests: records made directly and audit rows read back.
import { randomUUID } from 'node:crypto';
import { and, asc, eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { sampleStatSubmission } from '@careplane/shared/devices/devices.fixtures';
import { auditLog, commandCenters, iotDevices, users } from '../../db/schema/index.js';
import { api, type TestContext } from '../../test/harness.js';

export async function insertUser(context: TestContext, name: string, roles: string[] = ['public']) {
  const subject = randomUUID();
  const [row] = await context.database.db
    .insert(users)
    .values({
      username: `${name}@careplane.test`,
      usernameWithoutDomain: name,
      primaryDomain: 'careplane.test',
      masterId: subject,
      firstName: name,
      lastName: 'Tester',
      roles,
      localRoles: ['patient'],
    })
    .returning({ id: users.id });
  return { id: row!.id, token: await context.signer.sign({ roles }, { subject }) };
}

export async function insertCommandCenter(context: TestContext, title: string) {
  const [row] = await context.database.db
    .insert(commandCenters)
    .values({ title, address: { title, street: 'Main', city: 'Bangkok', country: 'TH' } })
    .returning({ id: commandCenters.id });
  return row!.id;
}

export async function insertIotDevice(context: TestContext, allowMultipleDeviceRelationships = false) {
  const [row] = await context.database.db
    .insert(iotDevices)
    .values({ hardwareIdentifier: randomUUID(), model: 'Pulse 2', allowMultipleDeviceRelationships })
    .returning({ id: iotDevices.id });
  return row!.id;
}

/** Creates a device through the API and returns its answer (with the one-time token). */
export async function createDevice(context: TestContext, body: Record<string, unknown>) {
  const response = await api(context).post('/api/devices', body);
  expect(response.statusCode, response.body).toBe(201);
  return response.json<{ id: string; token: string } & Record<string, unknown>>();
}

export async function createStat(
  context: TestContext,
  deviceId: string,
  timestamp: number,
  firmware?: string,
) {
  const response = await api(context).post('/api/devices/stats', {
    ...sampleStatSubmission(),
    ...(firmware ? { firmware } : {}),
    bootTime: timestamp - 60_000,
    timestamp,
    device: deviceId,
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<{ id: string } & Record<string, unknown>>();
}

export async function auditRows(context: TestContext, resource: string, recordId: string) {
  return context.database.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.resource, resource), eq(auditLog.recordId, recordId)))
    .orderBy(asc(auditLog.id));
}

export const ids = (body: { items: { id: string }[] }) => body.items.map((item) => item.id);
