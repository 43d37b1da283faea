import { act, cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { changeLanguage } from '@/lib/i18n/language.ts';
import { sessionStore } from '@/lib/session.ts';
import { fakeNetwork, json, type FakeNetwork } from '@/test/network.ts';
import { makeUser, renderApp, resetSession } from '@/test/app.tsx';
import { browserNetwork } from '@/test/online.ts';
import { resetDiscovery } from '../api/auth-client.ts';

// No canvas in happy-dom: the extraction check and the QR encoder are replaced; the browser layer checks both.
const canvas = vi.hoisted(() => ({ allowed: true }));
vi.mock('../api/canvas-check.ts', () => ({ canExtractCanvas: () => canvas.allowed }));
const qr = vi.hoisted(() => ({ toDataURL: vi.fn() }));
vi.mock('qrcode', () => ({ toDataURL: qr.toDataURL, default: { toDataURL: qr.toDataURL } }));

const AUTH = '/auth';
const TOKEN = `${AUTH}/token`;
const BACKCHANNEL = `${AUTH}/backchannel`;

/** A JWT whose payload says it expires at `exp` (the signature is not checked by the console). */
const jwt = (exp: number) =>
  `eyJhbGciOiJFUzI1NiJ9.${btoa(JSON.stringify({ exp, sub: 'ada' })).replace(/=+$/, '')}.sig`;

const oauthError =
  (error: string, status = 400) =>
  () =>
    json({ error, error_description: `${error} (test)` }, status);
const tokens = () =>
  json({
    access_token: jwt(4_000_000_000),
    id_token: 'id-token',
    refresh_token: 'refresh-1',
    expires_in: 1800,
  });

let network: FakeNetwork;

beforeEach(() => {
  vi.useFakeTimers({ shouldAdvanceTime: true });
  resetSession();
  resetDiscovery();
  canvas.allowed = true;
  qr.toDataURL.mockReset();
  qr.toDataURL.mockImplementation(async (text: string) => `data:image/png;base64,${btoa(text)}`);
  network = fakeNetwork()
    .on('GET', `${AUTH}/.well-known/openid-configuration`, () =>
      json({
        issuer: 'http://careplane.test/auth',
        token_endpoint: `http://careplane.test${TOKEN}`,
        backchannel_authentication_endpoint: `http://careplane.test${BACKCHANNEL}`,
      }),
    )
    .on('POST', `${AUTH}/qr/sessions`, () =>
      json({ sessionId: 'session-1', cbUrl: 'careplane://sign-in?s=secret-1', expIn: 120 }),
    )
    .on('POST', BACKCHANNEL, () => json({ auth_req_id: 'req-1', expires_in: 120, interval: 3 }))
    .on('POST', '/api/auth', () => json(makeUser({ roles: ['admin'] })))
    .on('GET', '/api/users/me', () => json(makeUser({ roles: ['admin'] })))
    .install();
});

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const user = () => userEvent.setup({ advanceTimers: (ms) => vi.advanceTimersByTime(ms) });
const rounds = async (count: number, seconds = 3) => {
  for (let round = 0; round < count; round += 1) {
    await act(() => vi.advanceTimersByTimeAsync(seconds * 1000));
  }
};

describe('QR login', () => {
  it('refuses to start when the browser blocks canvas extraction', async () => {
    canvas.allowed = false;
    renderApp('/login');
    await user().click(await screen.findByRole('button', { name: 'Show QR code' }));
    expect(
      await screen.findByText('Canvas data extraction is blocked. Please enable it and try again.'),
    ).toBeVisible();
    expect(network.callsTo('POST', `${AUTH}/qr/sessions`)).toHaveLength(0);
  });

  it('says so when the QR code cannot be drawn', async () => {
    qr.toDataURL.mockRejectedValue(new Error('no canvas'));
    renderApp('/login');
    await user().click(await screen.findByRole('button', { name: 'Show QR code' }));
    expect(await screen.findByText('Could not generate QR code. Please reload and try again.')).toBeVisible();
    expect(sessionStore.getState().loginStatus).toBe('error');
  });

  it('shows cbUrl in the dark and light colours, polls, switches to the token endpoint and signs an admin in', async () => {
    network
      .sequence('GET', `${AUTH}/qr/sessions/session-1`, [
        () => json({ status: 'pending', expIn: 117 }),
        () => json({ status: 'pending', expIn: 114, cbUrl: 'careplane://sign-in?s=secret-2' }),
        () => json({ status: 'claimed', authRequestId: 'req-qr' }),
      ])
      .sequence('POST', TOKEN, [oauthError('authorization_pending'), tokens]);
    const { router } = renderApp('/login');
    await user().click(await screen.findByRole('button', { name: 'Show QR code' }));

    const image = await screen.findByRole('img', { name: 'QR code to scan with the Careplane app' });
    expect(image.getAttribute('src')).toBe(`data:image/png;base64,${btoa('careplane://sign-in?s=secret-1')}`);
    expect(qr.toDataURL).toHaveBeenCalledWith(
      'careplane://sign-in?s=secret-1',
      expect.objectContaining({ color: { dark: '#0b3c49', light: '#ffffff' } }),
    );
    expect(sessionStore.getState()).toMatchObject({
      loginStatus: 'pending',
      loginMethod: 'qr',
      timeOut: 120,
    });
    expect(screen.getByTestId('binding-message').textContent).toMatch(/^[A-Z]{2} \d{2}$/);
    expect(screen.getByText('The request expires in 120 s.')).toBeVisible();

    await rounds(1);
    expect(network.callsTo('GET', `${AUTH}/qr/sessions/session-1`)).toHaveLength(1);
    expect(await screen.findByText('The request expires in 117 s.')).toBeVisible();

    await rounds(1); // a rotated secret: the new cbUrl is shown
    await waitFor(() =>
      expect(qr.toDataURL).toHaveBeenLastCalledWith('careplane://sign-in?s=secret-2', expect.anything()),
    );

    await rounds(1); // claimed: from here the token endpoint
    expect(await screen.findByText('Approve the sign-in on your phone.')).toBeVisible();
    await rounds(1); // authorization_pending is not an error
    expect(sessionStore.getState().loginStatus).toBe('pending');
    await rounds(1); // tokens

    await waitFor(() => expect(router.state.location.pathname).toBe('/admin'));
    const [poll] = network.callsTo('POST', TOKEN);
    expect(Object.fromEntries(new URLSearchParams(poll!.body!))).toEqual({
      client_id: 'careplane-console',
      grant_type: 'urn:openid:params:grant-type:ciba',
      auth_req_id: 'req-qr',
    });
    const register = network.callsTo('POST', '/api/auth')[0]!;
    expect(register.headers.authorization).toBe(`Bearer ${jwt(4_000_000_000)}`);
    expect(JSON.parse(register.body!)).toEqual({ idToken: 'id-token' });
    expect(sessionStore.getState()).toMatchObject({
      loginStatus: 'approved',
      loginMethod: 'qr',
      accessTokenExpiration: 4_000_000_000,
      accessTokenExpiresAt: 4_000_000_000,
      refreshToken: 'refresh-1',
      idToken: 'id-token',
      qrCodeDataUrl: null,
    });
  });

  it('times out when the remaining time reaches zero', async () => {
    network
      .on('POST', `${AUTH}/qr/sessions`, () =>
        json({ sessionId: 'session-1', cbUrl: 'careplane://x', expIn: 6 }),
      )
      .on('GET', `${AUTH}/qr/sessions/session-1`, () => json({ status: 'pending', expIn: 3 }));
    renderApp('/login');
    await user().click(await screen.findByRole('button', { name: 'Show QR code' }));
    await screen.findByRole('img', { name: /QR code/ });
    await rounds(1);
    expect(await screen.findByText('The request expires in 3 s.')).toBeVisible();
    await rounds(1);
    expect(await screen.findByText('Authentication request timed out.')).toBeVisible();
    expect(network.callsTo('GET', `${AUTH}/qr/sessions/session-1`)).toHaveLength(1);
    expect(sessionStore.getState()).toMatchObject({
      loginStatus: 'error',
      loginError: 'Authentication request timed out.',
    });
  });
});

describe('a refusal shown as it comes', () => {
  it('is in the language on screen: the QR session is asked for in it', async () => {
    await changeLanguage('th');
    network.on('POST', `${AUTH}/qr/sessions`, (call) =>
      json(
        {
          statusCode: 429,
          error: 'Too Many Requests',
          message:
            call.headers['accept-language'] === 'th'
              ? 'มีคำขอมากเกินไป โปรดลองอีกครั้งใน 1 นาที'
              : 'Rate limit exceeded, retry in 1 minute',
        },
        429,
      ),
    );
    renderApp('/login');
    await user().click(await screen.findByRole('button', { name: 'แสดงคิวอาร์โค้ด' }));
    expect(await screen.findByText('มีคำขอมากเกินไป โปรดลองอีกครั้งใน 1 นาที')).toBeVisible();
  });

  it('comes under a page that speaks the same language', async () => {
    await changeLanguage('th');
    renderApp('/login');
    expect(await screen.findByRole('heading', { level: 1, name: 'เข้าสู่ระบบ' })).toBeVisible();
    expect(screen.getByText('ด้วยแอป Careplane: สแกนคิวอาร์โค้ด หรือใช้รหัสผู้ใช้ของคุณ')).toBeVisible();
    expect(screen.queryByText(/Log in|scan the QR code/)).toBeNull();
  });
});

describe('login by user identifier', () => {
  const start = async (identifier = 'ada@careplane.test') => {
    const actor = user();
    await actor.click(await screen.findByRole('tab', { name: 'User ID' }));
    await actor.type(screen.getByRole('textbox', { name: /User ID/ }), identifier);
    await actor.click(screen.getByRole('button', { name: 'Sign in' }));
  };

  it('gives a phone the keyboard for a user ID: no capital, no corrections, with @', async () => {
    renderApp('/login');
    await user().click(await screen.findByRole('tab', { name: 'User ID' }));
    const field = screen.getByRole('textbox', { name: /User ID/ });
    expect(field).toHaveAttribute('autocapitalize', 'none');
    expect(field).toHaveAttribute('autocorrect', 'off');
    expect(field).toHaveAttribute('spellcheck', 'false');
    expect(field).toHaveAttribute('inputmode', 'email');
    expect(field).toHaveAttribute('autocomplete', 'username');
  });

  it('sends the identifier and a binding message, shows the message, and sends a non-admin to /account', async () => {
    network
      .on('GET', '/api/users/me', () => json(makeUser({ roles: ['public'], localRoles: ['nurse'] })))
      .sequence('POST', TOKEN, [
        oauthError('authorization_pending'),
        oauthError('authorization_pending'),
        tokens,
      ]);
    const { router } = renderApp('/');
    await start();

    const shown = (await screen.findByTestId('binding-message')).textContent;
    const request = Object.fromEntries(new URLSearchParams(network.callsTo('POST', BACKCHANNEL)[0]!.body!));
    expect(request).toEqual({
      client_id: 'careplane-console',
      scope: 'openid',
      login_hint: 'ada@careplane.test',
      binding_message: shown,
    });
    expect(sessionStore.getState()).toMatchObject({
      loginMethod: 'backchannel',
      userIdentifier: 'ada@careplane.test',
      loginStatus: 'pending',
    });

    await rounds(3);
    await waitFor(() => expect(router.state.location.pathname).toBe('/account'));
    expect(network.callsTo('POST', TOKEN)).toHaveLength(3);
  });

  it('uses the interval the server asks for, and slows down when told to', async () => {
    network
      .on('POST', BACKCHANNEL, () => json({ auth_req_id: 'req-1', expires_in: 120, interval: 2 }))
      .sequence('POST', TOKEN, [oauthError('slow_down'), oauthError('authorization_pending')]);
    renderApp('/');
    await start();
    await screen.findByTestId('binding-message');
    await rounds(1, 2);
    expect(network.callsTo('POST', TOKEN)).toHaveLength(1);
    expect(sessionStore.getState().authRequestInterval).toBe(7);
    await rounds(1, 6);
    expect(network.callsTo('POST', TOKEN)).toHaveLength(1);
    await rounds(1, 1);
    expect(network.callsTo('POST', TOKEN)).toHaveLength(2);
  });

  it('reports a request denied on the phone', async () => {
    network.on('POST', TOKEN, oauthError('access_denied'));
    renderApp('/');
    await start();
    await rounds(1);
    expect(await screen.findByText('The sign-in was denied on the phone.')).toBeVisible();
    // The console's own words follow the language on screen (the specification's quoted ones stay English).
    await act(() => changeLanguage('th'));
    expect(await screen.findByText('การเข้าสู่ระบบถูกปฏิเสธบนโทรศัพท์')).toBeVisible();
    expect(sessionStore.getState().loginError).toBe('The sign-in was denied on the phone.');
  });

  it('offline, says that signing in needs the network, not that it failed', async () => {
    const setOnline = browserNetwork();
    network.on('POST', BACKCHANNEL, () => {
      throw new TypeError('Failed to fetch');
    });
    renderApp('/');
    setOnline(false);
    await start();
    expect(await screen.findByText('Signing in needs the network: connect, then try again.')).toBeVisible();
    await act(() => changeLanguage('th'));
    expect(await screen.findByText('การเข้าสู่ระบบต้องใช้อินเทอร์เน็ต โปรดเชื่อมต่อแล้วลองอีกครั้ง')).toBeVisible();
    vi.restoreAllMocks();
  });

  it('reports an expired request as timed out', async () => {
    network.on('POST', TOKEN, oauthError('expired_token'));
    renderApp('/');
    await start();
    await rounds(1);
    expect(await screen.findByText('Authentication request timed out.')).toBeVisible();
  });

  it('says it could not get the profile when /api/users/me fails, and stays on the page', async () => {
    network
      .on('POST', TOKEN, tokens)
      .on('GET', '/api/users/me', () =>
        json({ statusCode: 500, error: 'Internal Server Error', message: 'x' }, 500),
      );
    const { router } = renderApp('/');
    await start();
    await rounds(1);
    expect(await screen.findByText('Could not get user profile.')).toBeVisible();
    expect(router.state.location.pathname).toBe('/');
    expect(sessionStore.getState().loginStatus).toBe('error');
  });

  it('stops polling when cancelled', async () => {
    network.on('POST', TOKEN, oauthError('authorization_pending'));
    renderApp('/');
    await start();
    await user().click(await screen.findByRole('button', { name: 'Cancel' }));
    await rounds(3);
    expect(network.callsTo('POST', TOKEN)).toHaveLength(0);
    expect(screen.getByRole('button', { name: 'Sign in' })).toBeEnabled();
    expect(sessionStore.getState().loginStatus).toBe('logged out');
  });
});
