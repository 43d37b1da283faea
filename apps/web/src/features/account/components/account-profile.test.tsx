import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import i18next from 'i18next';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeNetwork, json, type FakeNetwork } from '@/test/network.ts';
import { makeUser, renderApp, resetSession, signIn } from '@/test/app.tsx';
import { sessionStore } from '@/lib/session.ts';

let network: FakeNetwork;

const signInAt = (id: number, at: string) => ({
  id,
  at,
  actorUserId: makeUser().id,
  actorSubject: 'ada',
  action: 'sign-in',
  resource: 'users',
  recordId: makeUser().id,
  changes: null,
  ip: '203.0.113.7',
});

beforeEach(() => {
  resetSession();
  network = fakeNetwork()
    .on('GET', '/api/users/me/avatar', () =>
      json({ statusCode: 404, error: 'Not Found', message: 'No avatar' }, 404),
    )
    .on('GET', '/api/users/logs', () =>
      json({
        // Newest first: this session's sign-in, then the one before it.
        items: [signInAt(2, '2026-11-29T07:40:00.000Z'), signInAt(1, '2024-03-01T07:05:00.000Z')],
        total: 2,
        limit: 2,
        offset: 0,
      }),
    )
    .install();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the account page', () => {
  it("shows the signed-in user's profile from /api/users/me", async () => {
    network.on('GET', '/api/users/me', () =>
      json(
        makeUser({
          title: 'Dr',
          roles: ['public'],
          localRoles: ['doctor'],
          identityAssuranceLevel: 'substantial',
        }),
      ),
    );
    signIn();
    renderApp('/account');
    expect(await screen.findByRole('heading', { name: 'Dr Ada Lovelace' })).toBeVisible();
    const card = screen
      .getByRole('heading', { name: 'Dr Ada Lovelace' })
      .closest('.mantine-Card-root') as HTMLElement;
    expect(within(card).getAllByText('ada@careplane.test').length).toBeGreaterThan(0);
    expect(within(card).getByText('+66 2 000 0000')).toBeVisible();
    expect(within(card).getByText('substantial')).toBeVisible();
    expect(within(card).getByText('doctor')).toBeVisible();
    // The sign-in before this one: the newest is the one that opened the page.
    expect(await within(card).findByText(/^01\.03\.2024 \d\d:05 GMT/)).toBeVisible();
    expect(within(card).getByText('Previous sign-in')).toBeVisible();
    const me = network.callsTo('GET', '/api/users/me')[0]!;
    expect(me.headers.authorization).toBe('Bearer access-token');
    const logs = network.callsTo('GET', '/api/users/logs')[0]!;
    expect(logs.url.searchParams.getAll('filters')).toEqual([
      `actorUserId~${makeUser().id}`,
      'action~sign-in',
    ]);
  });

  it('says so on a first sign-in, when there is none before it', async () => {
    network
      .on('GET', '/api/users/me', () => json(makeUser()))
      .on('GET', '/api/users/logs', () =>
        json({ items: [signInAt(1, '2026-11-29T07:40:00.000Z')], total: 1, limit: 2, offset: 0 }),
      );
    signIn();
    renderApp('/account');
    expect(await screen.findByText('None before this one')).toBeVisible();
  });

  it('reads in Thai: labels, the assurance level, roles and the areas heading', async () => {
    network.on('GET', '/api/users/me', () =>
      json(makeUser({ roles: ['public'], localRoles: ['doctor'], identityAssuranceLevel: 'substantial' })),
    );
    signIn();
    await act(() => i18next.changeLanguage('th'));
    renderApp('/account');
    expect(await screen.findByRole('heading', { name: 'Ada Lovelace' })).toBeVisible();
    const card = screen
      .getByRole('heading', { name: 'Ada Lovelace' })
      .closest('.mantine-Card-root') as HTMLElement;
    for (const label of ['ชื่อ', 'นามสกุล', 'ชื่อผู้ใช้', 'โทรศัพท์', 'บทบาท', 'เข้าสู่ระบบครั้งก่อน']) {
      expect(within(card).getByText(label)).toBeVisible();
    }
    expect(within(card).getByText('ปานกลาง')).toBeVisible();
    expect(within(card).getByText('แพทย์')).toBeVisible();
    expect(screen.getByRole('navigation', { name: 'ส่วนงานของคุณ' })).toBeVisible();
    expect(card.textContent).not.toMatch(/First name|Previous sign-in|Roles/);
  });

  it('says it could not get the profile when the call fails', async () => {
    network.on('GET', '/api/users/me', () =>
      json({ statusCode: 503, error: 'Service Unavailable', message: 'Try later' }, 503),
    );
    signIn();
    renderApp('/account');
    expect(await screen.findByText('Could not get user profile.', {}, { timeout: 3000 })).toBeVisible();
    expect(screen.getByText('Try later')).toBeVisible();
  });
});

describe('the areas of a signed-in person', () => {
  it('links a driver from the account page and from the top bar to the pickups and deliveries', async () => {
    const driver = makeUser({ roles: ['public'], localRoles: ['courier'] });
    network.on('GET', '/api/users/me', () => json(driver));
    signIn(driver);
    renderApp('/account');
    const areas = await screen.findByRole('navigation', { name: 'Where you work' });
    expect(within(areas).getByRole('link', { name: 'Go to your pickups and deliveries' })).toHaveAttribute(
      'href',
      '/prescriptions',
    );
    expect(within(areas).queryByRole('link', { name: /admin area/ })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Areas' }));
    // The dropdown's opening transition keeps it out of the accessibility tree in happy-dom: find it by text.
    const item = await screen.findByText('Pickups and deliveries');
    expect(item.closest('a')).toHaveAttribute('href', '/prescriptions');
    const menu = item.closest('[data-menu-dropdown]')!;
    expect([...menu.querySelectorAll('[data-menu-item]')].map((entry) => entry.textContent)).toEqual([
      'Pickups and deliveries',
      'Documents',
      'Your account',
      // The language choice, shown there on a phone only, where the top bar has no room for the switch.
      'English',
      'ไทย',
    ]);
  });
});

describe("a person's own phones", () => {
  it('lists them, and revokes a lost one after saying that this sign-in ends too', async () => {
    const user = makeUser({ masterId: '0195f3a2-7c41-7d2e-9a10-4b5c6d7e8f00' });
    const lost = {
      id: 'pQ2v0nJ7d0r1mS9x4kWc8y5tB3aE6fH2gL1iZ0uV9oA',
      label: 'Old phone',
      enrolledAt: '2026-01-01T08:00:00.000Z',
      lastUsedAt: '2026-11-20T08:00:00.000Z',
      revokedAt: null as string | null,
    };
    const spare = { ...lost, id: 'Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2Ji1Hg0Fe9Dc8Ba7Zy6X', label: 'New phone' };
    network
      .on('GET', '/api/users/me', () => json(user))
      .on('GET', '/api/users/me/phones', () => json({ items: [spare, lost] }))
      .on('POST', `/api/users/me/phones/${lost.id}/revoke`, () =>
        json({ ...lost, revokedAt: '2026-11-25T09:00:00.000Z' }),
      );
    signIn(user);
    const { router } = renderApp('/account');
    const phones = await screen.findByRole('list', { name: 'Phones' });
    expect(await within(phones).findByText('Old phone')).toBeVisible();
    // No enrollment here: a new phone is enrolled by an admin.
    expect(screen.queryByRole('button', { name: 'Enroll a new phone' })).toBeNull();

    fireEvent.click(within(phones).getByRole('button', { name: 'Revoke Old phone' }));
    const dialog = await screen.findByRole('dialog', { name: 'Revoke Old phone?' });
    // The dialog fades in: visible once its transition has run.
    await waitFor(() =>
      expect(within(dialog).getByText(/All your sign-ins end now, this one too/)).toBeVisible(),
    );
    expect(within(dialog).queryByText(/It is your only phone/)).toBeNull();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Revoke phone' }));
    // This sign-in ended with it: signed out here, at the front page, told why.
    expect(
      await screen.findByText(
        'Old phone was revoked, and your sign-ins ended with it: sign in again with your other phone.',
      ),
    ).toBeVisible();
    expect(network.callsTo('POST', `/api/users/me/phones/${lost.id}/revoke`)).toHaveLength(1);
    await waitFor(() => expect(sessionStore.getState().user).toBeNull());
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
  });
});
