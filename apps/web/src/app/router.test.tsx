import { notifications } from '@mantine/notifications';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { sessionStore } from '@/lib/session.ts';
import { fakeNetwork, json } from '@/test/network.ts';
import { makeUser, renderApp, resetSession, signIn } from '@/test/app.tsx';

beforeEach(() => {
  resetSession();
  fakeNetwork()
    .on('GET', '/api/users/me', () => json(makeUser()))
    .install();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the landing page', () => {
  it('shows the product, its statements, the way to log in and the footer', async () => {
    renderApp('/');
    expect(await screen.findByRole('heading', { level: 1 })).toBeVisible();
    expect(screen.getByText('The platform and its apps are free.')).toBeVisible();
    expect(screen.getByText('We never ask for your payment details.')).toBeVisible();
    expect(screen.getByText(/provided as is/)).toBeVisible();
    expect(screen.getByRole('heading', { name: 'Log in' })).toBeVisible();
    expect(screen.getByRole('tab', { name: 'QR code' })).toBeVisible();
    expect(screen.getByRole('tab', { name: 'User ID' })).toBeVisible();
    expect(within(screen.getByRole('contentinfo')).getByText('Careplane 0.3.0')).toBeVisible();
  });

  it('has the Documents box with getting started, how it works, fees and the configured store links', async () => {
    renderApp('/');
    const box = await screen.findByRole('region', { name: 'Documents' });
    expect(within(box).getByText('Download the mobile app.')).toBeVisible();
    expect(within(box).getByText(/^Register/)).toBeVisible();
    expect(within(box).getByText('Log in here with the QR code or with your user ID.')).toBeVisible();
    expect(within(box).getByRole('heading', { name: 'How it works' })).toBeVisible();
    expect(within(box).getByRole('heading', { name: 'Fees' })).toBeVisible();
    const play = within(box).getByRole('link', { name: /Google Play/ });
    expect(play.getAttribute('href')).toBe('https://play.google.com/store/apps/details?id=care.plane');
    // The App Store link is not configured: the badge is shown but leads nowhere.
    expect(within(box).queryByRole('link', { name: /App Store/ })).toBeNull();
    expect(within(box).getByText('App Store')).toBeVisible();
  });

  it('opens Support with the configured address', async () => {
    renderApp('/');
    await userEvent.click(await screen.findByRole('button', { name: 'Support' }));
    const dialog = await screen.findByRole('dialog', { name: 'Support' });
    const mail = within(dialog).getByRole('link', { name: 'help@careplane.test' });
    expect(mail.getAttribute('href')).toBe('mailto:help@careplane.test');
  });

  it('opens Privacy with the whole policy', async () => {
    renderApp('/');
    await userEvent.click(await screen.findByRole('button', { name: 'Privacy' }));
    const dialog = await screen.findByRole('dialog', { name: 'Privacy policy' });
    // The dialog fades in: its text is there before it can be seen.
    await waitFor(() => expect(dialog).toBeVisible());
    for (const text of [
      'your IP address;',
      /details of your browser/,
      'timestamps of your requests;',
      /referring page/,
    ]) {
      expect(within(dialog).getByText(text)).toBeVisible();
    }
    for (const heading of [
      'Cookies',
      'Links to third-party sites',
      'Security',
      'Changes to this policy',
      'Contact',
    ]) {
      expect(within(dialog).getByRole('heading', { name: heading })).toBeVisible();
    }
    expect(within(dialog).getByText(/effective as of 01\.12\.2020/)).toBeVisible();
  });
});

describe('errors and unknown addresses', () => {
  it('answers an unknown address with the 404 page and a way home', async () => {
    renderApp('/no/such/page');
    expect(await screen.findByText('This page could not be found')).toBeVisible();
    expect(screen.getByText('404')).toBeVisible();
    await userEvent.click(screen.getByRole('link', { name: 'Back to the home page' }));
    expect(await screen.findByRole('heading', { name: 'Log in' })).toBeVisible();
  });
});

describe('the guard', () => {
  it('sends a visitor without a token to the front page', async () => {
    const { router } = renderApp('/account');
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(await screen.findByRole('heading', { name: 'Log in' })).toBeVisible();
  });

  it('treats an empty token as none', async () => {
    sessionStore.set({ accessToken: '', loginStatus: 'approved', accessTokenExpiration: 4_000_000_000 });
    const { router } = renderApp('/admin/users');
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
  });

  it('logs out an expired session with a danger notification', async () => {
    signIn(makeUser(), -5);
    const { router } = renderApp('/account');
    expect(await screen.findByText('Your session has expired. You have been logged out.')).toBeVisible();
    expect(router.state.location.pathname).toBe('/');
    expect(sessionStore.getState().accessToken).toBeNull();
    expect(sessionStore.getState().loginStatus).toBe('logged out');
  });

  it('checks again on every navigation', async () => {
    signIn(makeUser({ roles: ['admin'] }), 1800);
    const { router } = renderApp('/admin');
    expect(await screen.findByRole('button', { name: 'Menu' })).toBeVisible();
    sessionStore.set({ accessTokenExpiration: 1 });
    await router.navigate('/admin/users');
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(await screen.findByText('Your session has expired. You have been logged out.')).toBeVisible();
  });
});

describe('the admin layout', () => {
  it('sends a signed-in non-admin to /account', async () => {
    signIn(makeUser({ roles: ['public'], localRoles: ['pharmacist'] }));
    const { router } = renderApp('/admin/users');
    await waitFor(() => expect(router.state.location.pathname).toBe('/account'));
  });

  it('opens the menu with every entry, closes it with Close Menu and on navigation', async () => {
    signIn(makeUser({ roles: ['admin'] }));
    const { router } = renderApp('/admin');
    const toggle = await screen.findByRole('button', { name: 'Menu' });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');

    await userEvent.click(toggle);
    expect(screen.getByRole('button', { name: 'Close Menu' }).getAttribute('aria-expanded')).toBe('true');
    const menu = screen.getByRole('navigation', { name: 'Admin menu' });
    const entries = [
      'Users',
      'Patients',
      'Devices',
      'Device Jobs',
      'Workstations',
      'IOT Devices',
      'Prescriptions',
      'Service Providers',
      'Command Centers',
      'Alerts',
    ];
    for (const entry of entries) expect(within(menu).getByRole('link', { name: entry })).toBeVisible();
    expect(within(menu).getByRole('link', { name: 'Settings' }).getAttribute('href')).toBe('/admin/settings');
    expect(within(menu).getByRole('link', { name: 'Home' }).getAttribute('href')).toBe('/account');
    expect(within(menu).getByRole('button', { name: 'Disconnect' })).toBeVisible();

    await userEvent.click(screen.getByRole('button', { name: 'Close Menu' }));
    expect(screen.getByRole('button', { name: 'Menu' }).getAttribute('aria-expanded')).toBe('false');

    await userEvent.click(screen.getByRole('button', { name: 'Menu' }));
    await userEvent.click(within(menu).getByRole('link', { name: 'Device Jobs' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/devices/jobs'));
    expect(await screen.findByRole('button', { name: 'Menu' })).toBeVisible();
    expect(await screen.findByRole('heading', { level: 1, name: 'Device Jobs' })).toBeVisible();
  });

  it('keeps the closed menu out of the tab order and moves the focus sensibly as it opens and closes', async () => {
    signIn(makeUser({ roles: ['admin'] }));
    const { router } = renderApp('/admin');
    const toggle = await screen.findByRole('button', { name: 'Menu' });
    const menu = screen.getByRole('navigation', { name: 'Admin menu', hidden: true });
    expect(menu.hasAttribute('inert')).toBe(true);

    await userEvent.click(toggle);
    expect(menu.hasAttribute('inert')).toBe(false);
    await waitFor(() => expect(within(menu).getByRole('link', { name: 'Users' })).toHaveFocus());
    await userEvent.keyboard('{Escape}');
    expect(menu.hasAttribute('inert')).toBe(true);
    expect(screen.getByRole('button', { name: 'Menu' })).toHaveFocus();

    await userEvent.click(screen.getByRole('button', { name: 'Menu' }));
    await waitFor(() => expect(within(menu).getByRole('link', { name: 'Users' })).toHaveFocus());
    await userEvent.keyboard('{ArrowDown}{Tab}{Enter}');
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/patients'));
    await waitFor(() => expect(screen.getByRole('main')).toHaveFocus());
    expect(menu.hasAttribute('inert')).toBe(true);
  });

  it('shows the top bar with the server, the name and Disconnect with its countdown', async () => {
    signIn(makeUser({ roles: ['master'] }), 1800);
    const { router } = renderApp('/admin');
    expect(await screen.findByText('http://careplane.test')).toBeVisible();
    expect(screen.getByTestId('top-bar-user').textContent).toBe('Ada Lovelace');
    // On a phone the bar has no room for them: the Areas menu names both first.
    // (The dropdown's opening transition keeps it out of the accessibility tree in happy-dom: found by its id.)
    await userEvent.click(screen.getByRole('button', { name: 'Areas' }));
    const named = await screen.findByTestId('menu-user');
    expect(named.textContent).toBe('Ada Lovelace');
    const areas = named.closest('[data-menu-dropdown]') as HTMLElement;
    expect(within(areas).getByText('http://careplane.test')).toBeInTheDocument();
    await userEvent.keyboard('{Escape}');
    const disconnect = await screen.findByRole('button', { name: /^Disconnect \(\d+ s\)$/ });
    await userEvent.click(disconnect);
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(sessionStore.getState().loginStatus).toBe('logged out');
  });

  it('answers Settings, which has no page, with 404 inside the layout', async () => {
    signIn(makeUser({ localRoles: ['application_admin'] }));
    renderApp('/admin/settings');
    expect(await screen.findByText('This page could not be found')).toBeVisible();
    expect(screen.getByRole('button', { name: 'Menu' })).toBeVisible();
  });
});

describe('the pharmacy and prescriptions layouts', () => {
  it('keeps the current route id in every pharmacy entry and offers Logout', async () => {
    signIn();
    renderApp('/pharmacy/ready/0190a0b0-0000-7000-8000-0000000007f1');
    const menu = await screen.findByRole('navigation', { name: 'Pharmacy menu' });
    expect(within(menu).getByRole('link', { name: 'Waiting' }).getAttribute('href')).toBe(
      '/pharmacy/0190a0b0-0000-7000-8000-0000000007f1',
    );
    expect(within(menu).getByRole('link', { name: 'Ready' }).getAttribute('href')).toBe(
      '/pharmacy/ready/0190a0b0-0000-7000-8000-0000000007f1',
    );
    expect(within(menu).getByRole('link', { name: 'Picked-up' }).getAttribute('href')).toBe(
      '/pharmacy/picked-up/0190a0b0-0000-7000-8000-0000000007f1',
    );
    expect(within(menu).getByRole('button', { name: 'Logout' })).toBeVisible();
    expect(await screen.findByRole('heading', { name: 'Ready prescriptions' })).toBeVisible();
  });

  it('offers Waiting, Picked-up and Logout in the prescriptions area', async () => {
    signIn();
    const { router } = renderApp('/prescriptions/picked-up');
    const menu = await screen.findByRole('navigation', { name: 'Prescriptions menu' });
    expect(within(menu).getByRole('link', { name: 'Waiting' }).getAttribute('href')).toBe('/prescriptions');
    expect(within(menu).getByRole('link', { name: 'Picked-up' }).getAttribute('href')).toBe(
      '/prescriptions/picked-up',
    );
    await userEvent.click(within(menu).getByRole('button', { name: 'Logout' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
  });
});

describe('the skip link', () => {
  // A notice an earlier test left open would sit before the skip link in the tab order.
  beforeEach(() => {
    notifications.clean();
    notifications.cleanQueue();
  });

  it.each([
    ['the landing page', '/', false],
    ['the 404 page', '/nowhere', false],
    ['the verifier', '/verify', false],
    ['the account', '/account', true],
    ['the documents', '/documents', true],
    ['the admin area', '/admin', true],
    ['the pharmacy', '/pharmacy', true],
    ['the prescriptions area', '/prescriptions', true],
  ])(
    'is the first stop of the keyboard on %s and moves the focus to the main content',
    async (_, path, signedIn) => {
      if (signedIn) signIn(makeUser({ roles: ['admin'] }));
      renderApp(path);
      const skip = await screen.findByRole('link', { name: 'Skip to content' });
      await userEvent.tab();
      expect(skip).toHaveFocus();
      await userEvent.keyboard('{Enter}');
      const main = screen.getByRole('main');
      expect(main).toHaveFocus();
      expect(main.id).toBe('main-content');
      expect(window.location.hash).toBe('');
    },
  );
});
