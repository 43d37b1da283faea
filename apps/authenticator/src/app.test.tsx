// The requests screen: every waiting request shows the code to compare with the screen that asked, and the
// list across the phone's identities is newest first, so the request the person just started is on top of any
// a stranger started earlier with their identifier. The auth server is faked at the network edge.
import { MantineProvider } from '@mantine/core';
import { render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { generateAuthenticatorKey, type PendingRequest } from '@careplane/shared/authenticator/protocol';
import { App } from './app.tsx';
import type * as vaultModule from './lib/vault.ts';
import type { StoredIdentity } from './lib/vault.ts';

const ISSUER = 'http://careplane.test/auth';

const phone = vi.hoisted(() => ({ identities: [] as StoredIdentity[] }));
vi.mock('./lib/vault.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof vaultModule>()),
  vault: {
    list: async () => phone.identities,
    put: async () => undefined,
    remove: async () => undefined,
  },
}));

async function identity(username: string, firstName: string, keyId: string): Promise<StoredIdentity> {
  const { privateKey } = await generateAuthenticatorKey(false);
  return {
    keyId,
    issuer: ISSUER,
    username,
    firstName,
    lastName: 'Test',
    privateKey: privateKey as CryptoKey,
    enrolledAt: '2026-11-20T08:00:00.000Z',
  };
}

const at = (secondsFromNow: number) => new Date(Date.now() + secondsFromNow * 1000).toISOString();

function request(
  id: string,
  bindingMessage: string,
  askedSecondsAgo: number,
  expiresInSeconds: number,
  patch: Partial<PendingRequest> = {},
): PendingRequest {
  return {
    id,
    kind: 'login',
    clientId: 'careplane-console',
    clientName: 'Careplane console',
    bindingMessage,
    details: { scope: 'openid' },
    nonce: `nonce-${id}`,
    createdAt: at(-askedSecondsAgo),
    expiresAt: at(expiresInSeconds),
    ...patch,
  };
}

/** What the auth server lists for each key: newest first, as requests.ts orders it. */
let pendingByKey: Record<string, PendingRequest[]>;

beforeEach(async () => {
  phone.identities = [
    await identity('ada@careplane.test', 'Ada', 'a'.repeat(43)),
    await identity('bob@careplane.test', 'Bob', 'b'.repeat(43)),
  ];
  pendingByKey = {
    // Ada's own sign-in (30 s ago) and one a stranger started with her identifier a minute ago, with a
    // shorter life left: ordered by when they ended, the stranger's would come first.
    ['a'.repeat(43)]: [
      request('0190a0b0-0000-7000-8000-000000000003', 'AB 12', 30, 110),
      request('0190a0b0-0000-7000-8000-000000000001', 'ZQ 93', 60, 60),
    ],
    // Bob is asked to approve an action, between the two.
    ['b'.repeat(43)]: [
      request('0190a0b0-0000-7000-8000-000000000002', 'KX 42', 45, 255, {
        kind: 'resource',
        details: { action: 'care-plan.approve', resource: 'care-plans/42' },
      }),
    ],
  };
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: { body?: string }) => {
      const answer = (body: unknown) =>
        new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } });
      if (url === '/config.json') {
        return answer({
          apiUrl: 'http://careplane.test',
          appServerUrl: 'http://careplane.test',
          authUrl: ISSUER,
          supportEmail: 'help@careplane.test',
          googlePlayUrl: null,
          appStoreUrl: null,
          mapsKey: null,
          mapsRegion: 'TH',
          mapsLanguage: 'th',
          sentryDsn: null,
        });
      }
      if (url === `${ISSUER}/authenticator/pending`) {
        const { keyId } = JSON.parse(init?.body ?? '{}') as { keyId: string };
        return answer({ requests: pendingByKey[keyId] ?? [] });
      }
      return new Response('{}', { status: 404 });
    }),
  );
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the requests waiting on this phone', () => {
  it('shows each request with its code, newest first across identities', async () => {
    render(
      <MantineProvider>
        <App launch={{ kind: 'none' }} />
      </MantineProvider>,
    );
    const requests = within(await screen.findByRole('region', { name: 'Requests' }));
    const cards = await requests.findAllByRole('article');
    expect(cards).toHaveLength(3);
    const codes = cards.map((card) => within(card).getByTestId('binding-message'));
    expect(codes.map((code) => code.textContent)).toEqual(['AB 12', 'KX 42', 'ZQ 93']);
    codes.forEach((code) => expect(code).toBeVisible());
    expect(cards[0]).toHaveAccessibleName('Sign in to Careplane console');
    expect(cards[0]).toHaveTextContent('Ada Test');
    expect(cards[0]).toHaveTextContent('Code on the screen where you sign in');
    expect(cards[0]).toHaveTextContent('Approve only if that screen shows the same code.');
    expect(cards[1]).toHaveTextContent('Bob Test');
    expect(cards[1]).toHaveTextContent('Code on the screen that asks');
    expect(cards[2]).toHaveTextContent('Ada Test');
  });
});
