// Records the fake server of console tests answers with, each parsed by the contract's schema so a fake can
// never drift from what the real server sends.
import { alertSchema, type Alert } from '@careplane/shared/alerts/alerts.contract';
import { listResponseSchema, type ListResponse } from '@careplane/shared/common/http';
import { deviceSchema, type Device } from '@careplane/shared/devices/devices.contract';
import {
  serviceProviderSchema,
  type ServiceProvider,
} from '@careplane/shared/service-providers/service-providers.contract';
import { userSchema, type User } from '@careplane/shared/users/users.contract';
import type { z } from 'zod';
import { makeUser, resetSession, signIn } from './app.tsx';
import { fakeNetwork, json, type FakeNetwork } from './network.ts';

export const fakeIds = {
  provider: '0195f3a2-7c41-7d2e-9a10-4b5c6d7e8f90',
  nurse: '0195f3a2-7c41-7d2e-9a10-4b5c6d7e8f91',
  admin: '0195f3a2-7c41-7d2e-9a10-4b5c6d7e8f92',
};

export function fakeServiceProvider(patch: Partial<ServiceProvider> = {}): ServiceProvider {
  return serviceProviderSchema.parse({
    id: fakeIds.provider,
    createdAt: '2026-01-05T08:00:00.000Z',
    updatedAt: '2026-01-05T08:00:00.000Z',
    title: 'Sukhumvit Care Pharmacy',
    type: 'pharmacy',
    address: {
      title: 'Shop',
      street: 'Rama IV Road',
      houseNumber: '314',
      city: 'Bangkok',
      postalCode: '10500',
      country: 'Thailand',
      geo: { lat: 13.733656, lng: 100.517054 },
    },
    isEnabled: true,
    createdByUserId: fakeIds.admin,
    employees: [],
    createdByUser: null,
    ...patch,
  });
}

/** An open alert for a patient, not yet acknowledged; `patch` sets the rest (id, data, user, …). */
export function fakeAlert(patch: Partial<Alert> & Pick<Alert, 'id' | 'data'>): Alert {
  return alertSchema.parse({
    createdAt: '2026-11-20T08:00:00.000Z',
    updatedAt: '2026-11-20T08:00:00.000Z',
    isActive: true,
    timestamp: Date.parse('2026-11-20T08:00:00.000Z'),
    closingData: null,
    iotDeviceId: null,
    userId: null,
    closedByUserId: null,
    severity: 'critical',
    acknowledgedAt: null,
    acknowledgedByUserId: null,
    closedAt: null,
    createdByUserId: null,
    ...patch,
  });
}

/** A patient terminal with no user, center or location, as an admin first registers one. */
export function fakeDevice(patch: Partial<Device> & Pick<Device, 'id'>): Device {
  return deviceSchema.parse({
    createdAt: '2030-01-01T08:00:00.000Z',
    updatedAt: '2030-01-01T08:00:00.000Z',
    title: 'Ward 7 tablet',
    location: null,
    isEnabled: true,
    role: 'patient_terminal',
    localRoles: ['none'],
    assignedUserId: null,
    commandCenterId: null,
    createdByUserId: null,
    ...patch,
  });
}

export function fakeUser(patch: Partial<User> = {}): User {
  return userSchema.parse(makeUser(patch));
}

/** A list answer holding the items, checked against the item schema. */
export function fakeList<T extends z.ZodType>(
  schema: T,
  items: unknown[],
  total = items.length,
): ListResponse<z.infer<T>> {
  return listResponseSchema(schema).parse({ items, total, limit: 20, offset: 0 });
}

export const emptyHistory = { items: [], total: 0, limit: 50, offset: 0 };

/**
 * A console test's start as a signed-in admin: the session reset and signed in, and a fake network that already
 * answers who the admin is and their (empty) sign-in history; the test adds its own calls and installs it.
 */
export function signedInAdmin(): FakeNetwork {
  resetSession();
  signIn(makeUser({ roles: ['admin'] }));
  return fakeNetwork()
    .on('GET', '/api/users/me', () => json(makeUser({ roles: ['admin'] })))
    .on('GET', '/api/users/logs', () => json(emptyHistory));
}
