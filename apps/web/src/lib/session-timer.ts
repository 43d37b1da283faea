// Spec §4 "Session expiry": while approved, the remaining time is recomputed every second; below 200 seconds,
// and only for a QR sign-in, one token refresh is tried; below 100 seconds the timer stops and the caller
// opens the expiry dialog.
import { nowInSeconds, type SessionStore } from './session.ts';

export const SESSION_TICK_MS = 1000;
export const REFRESH_BELOW_SECONDS = 200;
export const EXPIRY_DIALOG_BELOW_SECONDS = 100;

export interface SessionTimerOptions {
  store: Pick<SessionStore, 'getState' | 'set'>;
  /** Tries to renew the tokens; it stores them itself. A failure is left to the expiry dialog. */
  refresh: () => Promise<void>;
  /** Called once, when fewer than 100 seconds are left; the timer has stopped by then. */
  onExpiring: () => void;
}

/** Starts the one-second timer; returns the function that stops it. */
export function startSessionTimer({ store, refresh, onExpiring }: SessionTimerOptions): () => void {
  // One refresh attempt per access token: a failed or still-short renewal never turns into a retry storm.
  let refreshedToken: string | null = null;
  let timer: ReturnType<typeof setInterval> | undefined;

  const stop = () => {
    if (timer !== undefined) clearInterval(timer);
    timer = undefined;
  };

  const tick = () => {
    const state = store.getState();
    if (state.loginStatus !== 'approved' || state.accessTokenExpiration === null) return stop();
    const left = state.accessTokenExpiration - nowInSeconds();
    store.set({ timeOutIn: Math.max(0, left) });
    if (left < EXPIRY_DIALOG_BELOW_SECONDS) {
      stop();
      onExpiring();
      return;
    }
    if (left < REFRESH_BELOW_SECONDS && state.loginMethod === 'qr' && refreshedToken !== state.accessToken) {
      refreshedToken = state.accessToken;
      refresh().catch(() => undefined);
    }
  };

  timer = setInterval(tick, SESSION_TICK_MS);
  tick();
  return stop;
}
