// The records integration tests start from, made one way in every test file: through the API as the test's
// admin, so each is valid by the contract and written (and audited) the way the product writes it.
import { randomUUID } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type {
  CommandCenter,
  CommandCenterCreate,
} from '@careplane/shared/command-centers/command-centers.contract';
import type { DeviceCreate, DeviceCreated, DeviceStat } from '@careplane/shared/devices/devices.contract';
import { sampleStatSubmission } from '@careplane/shared/devices/devices.fixtures';
import type { IotDevice, IotDeviceCreate } from '@careplane/shared/iot/iot.contract';
import type {
  Prescription,
  PrescriptionSubmission,
} from '@careplane/shared/prescriptions/prescriptions.contract';
import type {
  ServiceProvider,
  ServiceProviderCreate,
} from '@careplane/shared/service-providers/service-providers.contract';
import type { PatientProfile, User, UserCreate } from '@careplane/shared/users/users.contract';
import {
  AuthenticatorClient,
  generateAuthenticatorKey,
  type AuthenticatorKey,
} from '@careplane/shared/authenticator/protocol';
import { injectFetch } from '@/dev/demo-sign-in.js';
import { api, TEST_ISSUER, type TestContext } from './harness.js';

let sequence = 0;
/** A name no other record of the run has: for usernames and hardware identifiers. */
export const uniqueName = (prefix: string) => `${prefix}-${++sequence}-${randomUUID().slice(0, 8)}`;

/** The answer of a create that has to succeed; a refusal fails the test with the error body. */
async function created<T>(response: LightMyRequestResponse): Promise<T> {
  expect(response.statusCode, response.body).toBe(201);
  return response.json<T>();
}

export interface TestUser extends User {
  /** An access token of the user's own, signed by the test's key: the user can call the API. */
  token: string;
}

/** A patient by default; `roles: ['admin']` makes an admin. */
export async function createUser(
  context: TestContext,
  overrides: Partial<UserCreate> = {},
): Promise<TestUser> {
  // The sign-in subject is given, so no identity is provisioned in the auth server.
  const subject = randomUUID();
  const user = await created<User>(
    await api(context).post('/api/users', {
      username: `${uniqueName('user')}@careplane.test`,
      masterId: subject,
      roles: ['public'],
      localRoles: ['patient'],
      ...overrides,
    }),
  );
  return { ...user, token: await context.signer.sign({ roles: user.roles }, { subject: user.masterId! }) };
}

export interface SigningUser extends TestUser {
  key: AuthenticatorKey;
  /** The phone: the authenticator protocol against the test's app. */
  authenticator: AuthenticatorClient;
}

/** A user with a sign-in identity and a phone key enrolled over the protocol, so their phone can sign. */
export async function createSigningUser(
  context: TestContext,
  firstName: string,
  overrides: Partial<UserCreate> = {},
): Promise<SigningUser> {
  const server = context.app.authServer!;
  const identity = await server.identities.create({
    username: `${uniqueName(firstName.toLowerCase())}@careplane.test`,
    firstName,
    lastName: 'Test',
    roles: overrides.roles ?? ['public'],
  });
  const authenticator = new AuthenticatorClient({ issuer: TEST_ISSUER, fetch: injectFetch(context.app) });
  const { code } = await server.identities.issueEnrollmentCode(identity.id);
  const keys = await generateAuthenticatorKey();
  const enrolled = await authenticator.enroll(code, keys);
  const user = await createUser(context, {
    username: identity.username,
    masterId: identity.id,
    firstName,
    lastName: 'Test',
    ...overrides,
  });
  return { ...user, key: { keyId: enrolled.keyId, privateKey: keys.privateKey }, authenticator };
}

/** The phone finds the request among its pending ones and answers it. */
export async function answerOnPhone(who: SigningUser, requestId: string, decision: 'approve' | 'deny') {
  const request = (await who.authenticator.pending(who.key)).find((pending) => pending.id === requestId);
  expect(request, 'the phone has the request').toBeDefined();
  expect(request!.kind).toBe('resource');
  await who.authenticator.decide(who.key, request!, decision);
}

/** A user with a patient profile (enrolled unless `profile` says otherwise). */
export async function createPatient(
  context: TestContext,
  overrides: Partial<UserCreate> = {},
  profile: Partial<PatientProfile> = {},
): Promise<TestUser> {
  const { id } = await created<PatientProfile>(
    await api(context).post('/api/patient-profiles', { status: 'enrolled', ...profile }),
  );
  return createUser(context, { localRoles: ['patient'], patientProfile: id, ...overrides });
}

export async function createCommandCenter(
  context: TestContext,
  overrides: Partial<CommandCenterCreate> = {},
): Promise<CommandCenter> {
  const title = overrides.title ?? 'Command center';
  return created(
    await api(context).post('/api/command-centers', {
      title,
      address: { title, street: 'Main', city: 'Bangkok', country: 'TH' },
      ...overrides,
    }),
  );
}

/** A pharmacy unless `type` says otherwise. */
export async function createServiceProvider(
  context: TestContext,
  overrides: Partial<ServiceProviderCreate> = {},
): Promise<ServiceProvider> {
  return created(
    await api(context).post('/api/service-providers', {
      title: 'Service provider',
      type: 'pharmacy',
      address: { city: 'Chiang Mai' },
      ...overrides,
    }),
  );
}

/** A client device; the answer carries its token, shown only here. */
export async function createDevice(
  context: TestContext,
  overrides: Partial<DeviceCreate> = {},
): Promise<DeviceCreated> {
  return created(await api(context).post('/api/devices', { title: 'Device', ...overrides }));
}

/** A device stat at `timestamp`, booted a minute before. */
export async function createStat(
  context: TestContext,
  deviceId: string,
  timestamp: number,
  firmware?: string,
): Promise<DeviceStat> {
  return created(
    await api(context).post('/api/devices/stats', {
      ...sampleStatSubmission(),
      ...(firmware ? { firmware } : {}),
      bootTime: timestamp - 60_000,
      timestamp,
      device: deviceId,
    }),
  );
}

export async function createIotDevice(
  context: TestContext,
  overrides: Partial<IotDeviceCreate> = {},
): Promise<IotDevice> {
  return created(
    await api(context).post('/api/iot-devices', {
      hardwareIdentifier: uniqueName('HW'),
      model: 'Pulse 2',
      connectionType: 'ble',
      ...overrides,
    }),
  );
}

/**
 * A prescription of one item, picked up by a courier. The parties the submission does not name are made
 * for it: a doctor as issuer, a pharmacy as supplier, a patient as recipient and a courier as shipper
 * (unless a nurse picks it up).
 */
export async function createPrescription(
  context: TestContext,
  submission: Partial<PrescriptionSubmission> = {},
): Promise<Prescription> {
  const body: Partial<PrescriptionSubmission> = {
    content: [{ name: 'Amoxicillin', quantity: 20 }],
    ...submission,
  };
  body.issuer ??= (await createUser(context, { localRoles: ['doctor'] })).id;
  body.supplier ??= (await createServiceProvider(context)).id;
  body.recipient ??= (await createPatient(context)).id;
  if (!('shipper' in submission) && submission.pickupByNurse !== true) {
    body.shipper = (await createServiceProvider(context, { type: 'courier' })).id;
  }
  return created(await api(context).post('/api/prescriptions', body));
}
