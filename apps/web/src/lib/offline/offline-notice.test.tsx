// Every page says that the device is offline as soon as it is, before any request fails, in the reader's
// language; the areas that work offline show their own banner instead, never both.
import { act, cleanup, screen } from '@testing-library/react';
import i18next from 'i18next';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { makeUser, renderApp, resetSession, signIn } from '@/test/app.tsx';
import { fakeNetwork, json } from '@/test/network.ts';
import { browserNetwork } from '@/test/online.ts';

const NOTICE =
  'You are offline: what you see may be out of date, and nothing reaches the server until you are back online.';

let setOnline: (online: boolean) => void;

beforeEach(() => {
  resetSession();
  setOnline = browserNetwork();
  fakeNetwork()
    .on('GET', '/api/users/me', () => json(makeUser()))
    .install();
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('the offline notice', () => {
  it.each(['/account', '/documents', '/command-center'])(
    'shows on %s once the device goes offline, and goes once it is back',
    async (path) => {
      signIn(makeUser({ roles: ['public'], localRoles: ['patient'] }));
      renderApp(path);
      expect(await screen.findByRole('button', { name: /Disconnect/ })).toBeVisible();
      expect(screen.queryByTestId('offline-notice')).toBeNull();
      setOnline(false);
      expect(screen.getByTestId('offline-notice')).toHaveTextContent(NOTICE);
      expect(screen.getByTestId('offline-notice')).toHaveAttribute('role', 'status');
      setOnline(true);
      expect(screen.queryByTestId('offline-notice')).toBeNull();
    },
  );

  it('shows on the front page too, for a visitor who is not signed in', async () => {
    setOnline(false);
    renderApp('/');
    expect(await screen.findByTestId('offline-notice')).toHaveTextContent(NOTICE);
  });

  it('shows in the admin area', async () => {
    signIn(makeUser({ roles: ['admin'], localRoles: [] }));
    renderApp('/admin/users');
    expect(await screen.findByRole('button', { name: 'Menu' })).toBeVisible();
    setOnline(false);
    expect(screen.getByTestId('offline-notice')).toHaveTextContent(NOTICE);
  });

  it.each(['/pharmacy', '/prescriptions'])(
    'leaves %s to its own banner: one notice, not two',
    async (path) => {
      signIn(makeUser({ roles: ['public'], localRoles: ['pharmacist', 'courier'] }));
      renderApp(path);
      expect(await screen.findByRole('button', { name: 'Logout' })).toBeVisible();
      setOnline(false);
      expect(screen.getByTestId('offline-banner')).toHaveTextContent('You are offline.');
      expect(screen.queryByTestId('offline-notice')).toBeNull();
      expect(screen.getAllByText(/You are offline/)).toHaveLength(1);
    },
  );

  it('speaks Thai', async () => {
    await act(() => i18next.changeLanguage('th'));
    setOnline(false);
    renderApp('/');
    expect(await screen.findByTestId('offline-notice')).toHaveTextContent(
      'คุณออฟไลน์อยู่ ข้อมูลที่เห็นอาจไม่เป็นปัจจุบัน และจะยังไม่มีข้อมูลใดถึงเซิร์ฟเวอร์จนกว่าจะกลับมาออนไลน์',
    );
  });
});
