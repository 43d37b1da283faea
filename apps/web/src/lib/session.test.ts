import { afterEach, describe, expect, it, vi } from 'vitest';
import { initialSessionState, SESSION_STORAGE_KEY } from './session.ts';

async function freshStore() {
  vi.resetModules();
  return import('./session.ts');
}

afterEach(() => localStorage.clear());

describe('the session store', () => {
  it('starts logged out with a poll interval of 3 seconds', async () => {
    const { sessionStore } = await freshStore();
    expect(sessionStore.getState()).toEqual(initialSessionState);
    expect(sessionStore.getState().loginStatus).toBe('logged out');
    expect(sessionStore.getState().authRequestInterval).toBe(3);
  });

  it('holds exactly the fields of the spec', async () => {
    const { sessionStore } = await freshStore();
    expect(Object.keys(sessionStore.getState()).sort()).toEqual(
      [
        'user',
        'loginMethod',
        'userIdentifier',
        'authRequestInterval',
        'accessToken',
        'accessTokenExpiration',
        'accessTokenExpiresAt',
        'refreshToken',
        'idToken',
        'timeOut',
        'timeOutIn',
        'loginStatus',
        'loginError',
        'qrCodeDataUrl',
        'appServerUrl',
      ].sort(),
    );
  });

  it('throws the spec message when asked for an absent access token', async () => {
    const { getAccessToken, sessionStore } = await freshStore();
    expect(() => getAccessToken()).toThrow('State does not contain a access token.');
    sessionStore.set({ accessToken: '' });
    expect(() => getAccessToken()).toThrow('State does not contain a access token.');
    sessionStore.set({ accessToken: 'abc' });
    expect(getAccessToken()).toBe('abc');
  });

  it('persists in localStorage and is read back after a reload', async () => {
    const first = await freshStore();
    first.sessionStore.setTokens({
      accessToken: 'a',
      accessTokenExpiration: 1_900_000_000,
      refreshToken: 'r',
      idToken: 'i',
    });
    first.sessionStore.set({ loginMethod: 'qr', appServerUrl: 'https://care.example.org' });
    expect(JSON.parse(localStorage.getItem(SESSION_STORAGE_KEY)!)).toMatchObject({ accessToken: 'a' });

    const second = await freshStore();
    expect(second.sessionStore.getState()).toMatchObject({
      accessToken: 'a',
      accessTokenExpiration: 1_900_000_000,
      accessTokenExpiresAt: 1_900_000_000,
      refreshToken: 'r',
      idToken: 'i',
      loginMethod: 'qr',
      appServerUrl: 'https://care.example.org',
    });
  });

  it('keeps both names of the expiry in step', async () => {
    const { sessionStore } = await freshStore();
    sessionStore.set({ accessTokenExpiresAt: 42 });
    expect(sessionStore.getState().accessTokenExpiration).toBe(42);
    sessionStore.set({ accessTokenExpiration: 43 });
    expect(sessionStore.getState().accessTokenExpiresAt).toBe(43);
  });

  it('ignores unreadable or tampered storage', async () => {
    localStorage.setItem(SESSION_STORAGE_KEY, '{not json');
    expect((await freshStore()).sessionStore.getState()).toEqual(initialSessionState);
    localStorage.setItem(
      SESSION_STORAGE_KEY,
      JSON.stringify({ loginStatus: 'root', accessToken: 7, authRequestInterval: 'x', loginMethod: 'magic' }),
    );
    expect((await freshStore()).sessionStore.getState()).toEqual(initialSessionState);
  });

  it('logs out to the initial state but keeps the server address', async () => {
    const { sessionStore } = await freshStore();
    sessionStore.set({ appServerUrl: 'https://care.example.org', accessToken: 'a', loginStatus: 'approved' });
    sessionStore.logout();
    expect(sessionStore.getState()).toEqual({
      ...initialSessionState,
      appServerUrl: 'https://care.example.org',
    });
  });
});
