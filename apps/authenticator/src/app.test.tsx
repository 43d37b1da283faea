// The requests screen: every waiting request shows the code to compare with the screen that asked, and the
// list across the phone's identities is newest first, so the request the person just started is on top of any
// a stranger started earlier with their identifier. The auth server is faked at the network edge. The same
// screen in Thai, chosen with the header's switch and remembered on the device.
import { MantineProvider } from '@mantine/core';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { generateAuthenticatorKey, type PendingRequest } from '@careplane/shared/authenticator/protocol';
import { App } from './app.tsx';
import { chooseLanguage, missingKeys } from './i18n/i18n.ts';
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

afterEach(async () => {
  // Unmounted first: the polling app would otherwise call the real network once the fake is gone.
  cleanup();
  vi.unstubAllGlobals();
  await chooseLanguage('en');
  localStorage.clear();
  missingKeys.length = 0;
});

const showApp = () =>
  render(
    <MantineProvider>
      <App launch={{ kind: 'none' }} />
    </MantineProvider>,
  );

describe('the requests waiting on this phone', () => {
  it('shows each request with its code, newest first across identities', async () => {
    showApp();
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

describe('the authenticator in Thai', () => {
  it('shows every text of the requests screen in Thai, with <html lang> following', async () => {
    await chooseLanguage('th');
    showApp();
    const requests = within(await screen.findByRole('region', { name: 'คำขอ' }));
    const cards = await requests.findAllByRole('article');
    expect(cards).toHaveLength(3);
    expect(cards[0]).toHaveAccessibleName('เข้าสู่ระบบ Careplane console');
    expect(cards[0]).toHaveTextContent('รหัสบนหน้าจอที่คุณกำลังเข้าสู่ระบบ');
    expect(cards[0]).toHaveTextContent('อนุมัติเฉพาะเมื่อหน้าจอนั้นแสดงรหัสเดียวกัน');
    expect(cards[1]).toHaveAccessibleName('Careplane console ขอการอนุมัติจากคุณ');
    expect(within(cards[0]!).getByRole('button', { name: 'อนุมัติ' })).toBeVisible();
    expect(screen.getByRole('heading', { name: 'ตัวตนบนโทรศัพท์เครื่องนี้' })).toBeVisible();
    expect(screen.queryByText(/Approve|Requests|Identities on this phone|Expires in/)).toBeNull();
    expect(document.documentElement.lang).toBe('th');
    expect(missingKeys).toEqual([]);
  });

  it('switches from the header and remembers the choice on this device', async () => {
    showApp();
    expect(await screen.findByRole('region', { name: 'Requests' })).toBeVisible();
    expect(document.documentElement.lang).toBe('en');
    const switcher = screen.getByRole('radiogroup', { name: 'Language' });
    fireEvent.click(within(switcher).getByLabelText('ไทย'));
    expect(await screen.findByRole('region', { name: 'คำขอ' })).toBeVisible();
    expect(screen.getByRole('radiogroup', { name: 'ภาษา' })).toBeVisible();
    expect(localStorage.getItem('careplane.authenticator.language')).toBe('th');
    expect(document.documentElement.lang).toBe('th');
  });
});
