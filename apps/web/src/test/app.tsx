// Renders the console at an address, with a known runtime configuration and a fresh session, as in a browser.
import { render } from '@testing-library/react';
import { RouterProvider } from 'react-router';
import { userSchema, type User } from '@careplane/shared/users/users.contract';
import { AppProvider } from '@/app/provider.tsx';
import { createTestRouter } from '@/app/router.tsx';
import { parseRuntimeConfig, setRuntimeConfig, type RuntimeConfig } from '@/lib/config.ts';
import { createQueryClient } from '@/lib/query-client.ts';
import { nowInSeconds, sessionStore } from '@/lib/session.ts';

/** The runtime configuration of these tests, read by the console's own parser of /config.json. */
export const testConfig: RuntimeConfig = parseRuntimeConfig({
  apiUrl: 'http://careplane.test',
  appServerUrl: 'http://careplane.test',
  authUrl: 'http://careplane.test/auth',
  supportEmail: 'help@careplane.test',
  googlePlayUrl: 'https://play.google.com/store/apps/details?id=care.plane',
  appStoreUrl: null,
  mapsKey: null,
  mapsRegion: 'TH',
  mapsLanguage: 'th',
  sentryDsn: null,
});

/** A user as GET /api/users/me answers it: the contract's schema checks every fixture. */
export function makeUser(patch: Partial<User> = {}): User {
  return userSchema.parse({
    id: '8b3c7a52-3f0e-4b59-9a77-0b1f1f5f2a10',
    createdAt: '2024-01-01T00:00:00.000Z',
    updatedAt: '2024-01-01T00:00:00.000Z',
    username: 'ada@careplane.test',
    usernameWithoutDomain: 'ada',
    primaryDomain: 'careplane.test',
    masterId: null,
    email: 'ada@careplane.test',
    phoneNumber: '+66 2 000 0000',
    title: null,
    firstName: 'Ada',
    lastName: 'Lovelace',
    identityAssuranceLevel: 'high',
    isVerified: true,
    isBlocked: false,
    registrationCompleted: true,
    registrationStatus: 'registered',
    address: [],
    roles: ['public'],
    localRoles: ['nurse'],
    matrixIdentity: null,
    additionalInfo: {},
    language: null,
    patientProfileId: null,
    createdByUserId: null,
    ...patch,
  });
}

/** A signed-in session: a token valid for `secondsLeft` more seconds, the given user. */
export function signIn(
  user: User = makeUser(),
  secondsLeft = 1800,
  loginMethod: 'qr' | 'backchannel' = 'backchannel',
) {
  sessionStore.set({
    user,
    loginMethod,
    loginStatus: 'approved',
    accessToken: 'access-token',
    refreshToken: 'refresh-token',
    idToken: 'id-token',
    accessTokenExpiration: nowInSeconds() + secondsLeft,
  });
}

export function resetSession() {
  localStorage.clear();
  sessionStorage.clear();
  setRuntimeConfig(testConfig);
  sessionStore.logout();
  sessionStore.set({ appServerUrl: testConfig.appServerUrl });
}

export function renderApp(path: string, { env }: { env?: 'default' | 'test' } = {}) {
  const router = createTestRouter([path]);
  const view = render(
    <AppProvider queryClient={createQueryClient()} env={env}>
      <RouterProvider router={router} />
    </AppProvider>,
  );
  return { ...view, router };
}
