import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { initialSessionState, type SessionState } from './session.ts';
import { startSessionTimer } from './session-timer.ts';

const START = Date.UTC(2024, 0, 1, 12, 0, 0);
const startSeconds = START / 1000;

function fakeStore(patch: Partial<SessionState>) {
  let state: SessionState = {
    ...initialSessionState,
    loginStatus: 'approved',
    accessToken: 'token-1',
    ...patch,
  };
  return {
    getState: () => state,
    set: (next: Partial<SessionState>) => {
      state = { ...state, ...next };
    },
  };
}

describe('the session timer', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(START);
  });
  afterEach(() => vi.useRealTimers());

  it('recomputes the remaining time every second while approved', () => {
    const store = fakeStore({ loginMethod: 'backchannel', accessTokenExpiration: startSeconds + 600 });
    const stop = startSessionTimer({ store, refresh: vi.fn(), onExpiring: vi.fn() });
    expect(store.getState().timeOutIn).toBe(600);
    vi.advanceTimersByTime(1000);
    expect(store.getState().timeOutIn).toBe(599);
    vi.advanceTimersByTime(10_000);
    expect(store.getState().timeOutIn).toBe(589);
    stop();
    vi.advanceTimersByTime(5000);
    expect(store.getState().timeOutIn).toBe(589);
  });

  it('refreshes a QR session once when fewer than 200 seconds are left', async () => {
    const store = fakeStore({ loginMethod: 'qr', accessTokenExpiration: startSeconds + 203 });
    const refresh = vi.fn(async () => undefined);
    startSessionTimer({ store, refresh, onExpiring: vi.fn() });

    await vi.advanceTimersByTimeAsync(3000); // 200 left: not yet below
    expect(refresh).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1000); // 199 left
    expect(refresh).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(20_000); // the same token: no second attempt
    expect(refresh).toHaveBeenCalledTimes(1);
  });

  it('tries again once the refresh brought a new token that is short again', async () => {
    const store = fakeStore({ loginMethod: 'qr', accessTokenExpiration: startSeconds + 150 });
    const refresh = vi.fn(async () => {
      store.set({ accessToken: 'token-2', accessTokenExpiration: Date.now() / 1000 + 1800 });
    });
    startSessionTimer({ store, refresh, onExpiring: vi.fn() });
    await vi.advanceTimersByTimeAsync(0);
    expect(refresh).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1000);
    expect(store.getState().timeOutIn).toBe(1799);
  });

  it('never refreshes a backchannel session', async () => {
    const store = fakeStore({ loginMethod: 'backchannel', accessTokenExpiration: startSeconds + 150 });
    const refresh = vi.fn(async () => undefined);
    startSessionTimer({ store, refresh, onExpiring: vi.fn() });
    await vi.advanceTimersByTimeAsync(45_000);
    expect(refresh).not.toHaveBeenCalled();
  });

  it('stops and asks for the dialog once fewer than 100 seconds are left', async () => {
    const store = fakeStore({ loginMethod: 'backchannel', accessTokenExpiration: startSeconds + 102 });
    const onExpiring = vi.fn();
    startSessionTimer({ store, refresh: vi.fn(), onExpiring });
    await vi.advanceTimersByTimeAsync(2000); // 100 left
    expect(onExpiring).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1000); // 99 left
    expect(onExpiring).toHaveBeenCalledTimes(1);
    expect(store.getState().timeOutIn).toBe(99);
    await vi.advanceTimersByTimeAsync(10_000); // stopped: no more ticks, no second dialog
    expect(onExpiring).toHaveBeenCalledTimes(1);
    expect(store.getState().timeOutIn).toBe(99);
  });

  it('opens the dialog rather than refreshing when a QR session is already below 100 seconds', async () => {
    const store = fakeStore({ loginMethod: 'qr', accessTokenExpiration: startSeconds + 50 });
    const refresh = vi.fn(async () => undefined);
    const onExpiring = vi.fn();
    startSessionTimer({ store, refresh, onExpiring });
    expect(onExpiring).toHaveBeenCalledTimes(1);
    expect(refresh).not.toHaveBeenCalled();
  });

  it('keeps the dialog away when a failed refresh is followed by time passing, until 100 seconds', async () => {
    const store = fakeStore({ loginMethod: 'qr', accessTokenExpiration: startSeconds + 199 });
    const refresh = vi.fn(async () => {
      throw new Error('refresh refused');
    });
    const onExpiring = vi.fn();
    startSessionTimer({ store, refresh, onExpiring });
    await vi.advanceTimersByTimeAsync(99_000); // 100 left
    expect(refresh).toHaveBeenCalledTimes(1);
    expect(onExpiring).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1000);
    expect(onExpiring).toHaveBeenCalledTimes(1);
  });

  it('stops by itself when the session is no longer approved', async () => {
    const store = fakeStore({ loginMethod: 'qr', accessTokenExpiration: startSeconds + 600 });
    const onExpiring = vi.fn();
    startSessionTimer({ store, refresh: vi.fn(), onExpiring });
    store.set({ loginStatus: 'logged out', timeOutIn: null });
    await vi.advanceTimersByTimeAsync(600_000);
    expect(store.getState().timeOutIn).toBeNull();
    expect(onExpiring).not.toHaveBeenCalled();
  });
});
