// On a phone (390 px, below Mantine's xs) the top bar has no room for the language switch: a signed-in person
// still reaches it on /account, at every width, and in the admin menu's drawer; the Areas menu names both
// languages too (account-profile.test.tsx). Mantine's hiddenFrom/visibleFrom rules are media queries that
// happy-dom applies to the width its window is given.
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { makeUser, renderApp, resetSession, signIn } from '@/test/app.tsx';
import { fakeNetwork, json, type FakeNetwork } from '@/test/network.ts';

let network: FakeNetwork;

beforeEach(() => {
  resetSession();
  network = fakeNetwork()
    .on('GET', '/api/users/me/avatar', () =>
      json({ statusCode: 404, error: 'Not Found', message: 'No avatar' }, 404),
    )
    .on('GET', '/api/users/logs', () => json({ items: [], total: 0, limit: 1, offset: 0 }))
    .on('PATCH', '/api/users/me/preferences', (call) =>
      json(makeUser(JSON.parse(call.body ?? '{}') as object)),
    )
    .install();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  atWidth(1024);
});

/** The window as wide as a screen of `width` pixels. */
const atWidth = (width: number) =>
  (
    window as unknown as { happyDOM: { setViewport(viewport: { width: number }): void } }
  ).happyDOM.setViewport({
    width,
  });

/** An admin's console with its menu open: the menu. */
async function openAdminMenu() {
  const admin = makeUser({ roles: ['admin'] });
  signIn(admin);
  network.on('GET', '/api/users/me', () => json(admin));
  renderApp('/admin');
  await userEvent.click(await screen.findByRole('button', { name: 'Menu' }));
  return screen.getByRole('navigation', { name: 'Admin menu' });
}

describe('the language switch on a phone', () => {
  it('is on /account, and switches the console and the account', async () => {
    atWidth(390);
    signIn();
    network.on('GET', '/api/users/me', () => json(makeUser()));
    renderApp('/account');
    const section = await screen.findByRole('region', { name: 'Language' });
    // The top bar's own is hidden at this width.
    expect(within(screen.getByRole('banner')).queryByRole('radiogroup', { name: 'Language' })).toBeNull();
    const choice = within(section).getByRole('radiogroup', { name: 'Language' });
    expect(choice).toBeVisible();
    fireEvent.click(within(choice).getByRole('radio', { name: 'ไทย' }));
    await waitFor(() => expect(i18next.language).toBe('th'));
    expect(await screen.findByRole('region', { name: 'ภาษา' })).toBeVisible();
    await waitFor(() => expect(network.callsTo('PATCH', '/api/users/me/preferences')).toHaveLength(1));
  });

  it('is in the admin menu’s drawer, where the top bar has no room for it', async () => {
    atWidth(390);
    const menu = await openAdminMenu();
    expect(within(screen.getByRole('banner')).queryByRole('radiogroup', { name: 'Language' })).toBeNull();
    const choice = within(menu).getByRole('radiogroup', { name: 'Language' });
    expect(choice).toBeVisible();
    fireEvent.click(within(choice).getByRole('radio', { name: 'ไทย' }));
    await waitFor(() => expect(i18next.language).toBe('th'));
  });

  it('stays in the top bar alone on a wider screen', async () => {
    const menu = await openAdminMenu();
    expect(within(menu).queryByRole('radiogroup', { name: 'Language' })).toBeNull();
    expect(within(screen.getByRole('banner')).getByRole('radiogroup', { name: 'Language' })).toBeVisible();
  });
});
