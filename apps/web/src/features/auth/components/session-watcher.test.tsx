import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { actionOutbox } from '@/lib/offline/action-outbox.ts';
import { sessionStore } from '@/lib/session.ts';
import { fakeNetwork, json } from '@/test/network.ts';
import { makeUser, renderApp, resetSession, signIn } from '@/test/app.tsx';
import { resetDiscovery } from '../api/auth-client.ts';

const jwt = (exp: number) => `h.${btoa(JSON.stringify({ exp })).replace(/=+$/, '')}.s`;

// The pages load lazily: load them once up front, so the clock-sensitive tests do not wait on the transform.
beforeAll(async () => {
  await Promise.all([
    import('@/app/layouts/admin-layout.tsx'),
    import('@/app/routes/account.tsx'),
    import('@/app/routes/landing.tsx'),
    import('@/app/routes/not-yet-available.tsx'),
  ]);
});

beforeEach(() => {
  vi.useFakeTimers({ shouldAdvanceTime: true });
  resetSession();
  resetDiscovery();
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const tick = (seconds: number) => act(() => vi.advanceTimersByTimeAsync(seconds * 1000));
const user = () => userEvent.setup({ advanceTimers: (ms) => vi.advanceTimersByTime(ms) });

describe('the session expiry dialog', () => {
  beforeEach(() => {
    fakeNetwork()
      .on('GET', '/api/users/me', () => json(makeUser()))
      .on('GET', '/api/users/me/avatar', () =>
        json({ statusCode: 404, error: 'Not Found', message: 'No avatar' }, 404),
      )
      .install();
  });

  it('counts the session down on Disconnect, without a dialog while time is left', async () => {
    signIn(makeUser({ roles: ['admin'] }), 1800);
    renderApp('/admin');
    const disconnect = await screen.findByRole('button', { name: /^Disconnect \(1[78]\d\d s\)$/ });
    const before = Number(/\d+/.exec(disconnect.textContent ?? '')?.[0]);
    await tick(5);
    await waitFor(() => {
      const now = Number(
        /\d+/.exec(screen.getByRole('button', { name: /^Disconnect \(/ }).textContent ?? '')?.[0],
      );
      expect(now).toBeLessThanOrEqual(before - 5);
    });
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('opens the dialog below 100 seconds; Understood goes to the front page', async () => {
    signIn(makeUser({ roles: ['admin'] }), 99);
    const { router } = renderApp('/admin');
    const dialog = await screen.findByRole('dialog', { name: 'Your session has expired' });
    expect(dialog.textContent).toContain('You will be redirected to front page. Login again to continue.');
    await user().click(screen.getByRole('button', { name: 'Understood' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(sessionStore.getState().loginStatus).toBe('logged out');
  });

  it('on Cancel warns that about 100 seconds are left and keeps the session', async () => {
    signIn(makeUser(), 99);
    const { router } = renderApp('/account');
    await screen.findByRole('dialog', { name: 'Your session has expired' });
    await user().click(screen.getByRole('button', { name: 'Cancel' }));
    expect(await screen.findByText(/About 100 seconds of your session are left/)).toBeVisible();
    expect(router.state.location.pathname).toBe('/account');
    expect(sessionStore.getState().loginStatus).toBe('approved');
  });

  it('after Cancel still counts down, and at none signs out at the front page, saying so', async () => {
    signIn(makeUser(), 99);
    const { router } = renderApp('/account');
    await screen.findByRole('dialog', { name: 'Your session has expired' });
    await user().click(screen.getByRole('button', { name: 'Cancel' }));
    await tick(10);
    // Disconnect goes on counting the seconds left instead of stopping where the dialog opened.
    const left = () =>
      Number(/\d+/.exec(screen.getByRole('button', { name: /^Disconnect \(/ }).textContent ?? '')?.[0]);
    await waitFor(() => expect(left()).toBeLessThanOrEqual(90));
    expect(sessionStore.getState().loginStatus).toBe('approved');
    await tick(95);
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(sessionStore.getState().loginStatus).toBe('logged out');
    expect(await screen.findByText('Your session has expired. You have been logged out.')).toBeVisible();
  });

  it('speaks Thai on Cancel and in the notice after it; the spec’s words stay English', async () => {
    await act(() => i18next.changeLanguage('th'));
    signIn(makeUser(), 99);
    renderApp('/account');
    const dialog = await screen.findByRole('dialog', { name: 'Your session has expired' });
    expect(within(dialog).getByRole('button', { name: 'Understood' })).toBeVisible();
    await user().click(within(dialog).getByRole('button', { name: 'ยกเลิก' }));
    expect(await screen.findByText('เซสชันใกล้หมดเวลา')).toBeVisible();
    expect(
      screen.getByText('เซสชันของคุณเหลืออีกประมาณ 100 วินาที โปรดบันทึกงานของคุณ แล้วเข้าสู่ระบบอีกครั้ง'),
    ).toBeVisible();
    expect(screen.queryByText(/Session ending|seconds of your session/)).toBeNull();
  });
});

describe('a session that ends with actions kept on this device (decision 076)', () => {
  it('says on Understood that they are sent after the next sign-in here', async () => {
    fakeNetwork()
      .on('GET', '/api/users/me', () => json(makeUser()))
      .install();
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    const driver = makeUser({ id: '0190a0b0-0000-7000-8000-0000000000f1', localRoles: ['courier'] });
    await actionOutbox.enqueue({
      userId: driver.id,
      prescriptionId: '0190a0b0-0000-7000-8000-00000000b001',
      action: 'delivered',
      label: 'Delivered',
    });
    signIn(driver, 99);
    const { router } = renderApp('/account');
    await screen.findByRole('dialog', { name: 'Your session has expired' });
    await user().click(screen.getByRole('button', { name: 'Understood' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(
      await screen.findByText('1 action kept on this device is sent after you sign in again here.'),
    ).toBeVisible();
    vi.restoreAllMocks();
  });
});

describe('refreshing a QR session', () => {
  it('renews the tokens below 200 seconds with the refresh grant', async () => {
    const network = fakeNetwork()
      .on('GET', '/api/users/me', () => json(makeUser()))
      .on('GET', '/auth/.well-known/openid-configuration', () =>
        json({
          token_endpoint: 'http://careplane.test/auth/token',
          backchannel_authentication_endpoint: 'http://careplane.test/auth/backchannel',
        }),
      )
      .on('POST', '/auth/token', () =>
        json({ access_token: jwt(4_000_000_000), refresh_token: 'refresh-2', expires_in: 1800 }),
      )
      .install();
    signIn(makeUser(), 201, 'qr');
    renderApp('/account');
    await screen.findByRole('button', { name: /Disconnect/ });
    expect(network.callsTo('POST', '/auth/token')).toHaveLength(0);
    await tick(2);
    await waitFor(() => expect(sessionStore.getState().refreshToken).toBe('refresh-2'));
    const form = Object.fromEntries(new URLSearchParams(network.callsTo('POST', '/auth/token')[0]!.body!));
    expect(form).toEqual({
      client_id: 'careplane-console',
      grant_type: 'refresh_token',
      refresh_token: 'refresh-token',
    });
    expect(sessionStore.getState().accessTokenExpiration).toBe(4_000_000_000);
    expect(sessionStore.getState().idToken).toBe('id-token');
  });
});
