// The session state of spec §3, kept in one store and persisted in the browser (localStorage), so a reload
// keeps the user signed in. Components read it with useSession; everything else with sessionStore.
import { useSyncExternalStore } from 'react';
import type { QueryClient } from '@tanstack/react-query';
import type { User } from '@careplane/shared/users/users.contract';

export type LoginStatus = 'logged out' | 'pending' | 'approved' | 'error';
/** How the user signs in: by scanning a QR code, or by a backchannel request for a user identifier. */
export type LoginMethod = 'qr' | 'backchannel';

export const DEFAULT_AUTH_REQUEST_INTERVAL = 3;
export const MISSING_ACCESS_TOKEN = 'State does not contain a access token.';

export interface SessionState {
  user: User | null;
  loginMethod: LoginMethod | null;
  userIdentifier: string | null;
  /** Seconds between two polls of a pending sign-in. */
  authRequestInterval: number;
  accessToken: string | null;
  /** When the access token expires, in seconds since the epoch. */
  accessTokenExpiration: number | null;
  /** The same moment as accessTokenExpiration (the spec holds it under both names). */
  accessTokenExpiresAt: number | null;
  refreshToken: string | null;
  idToken: string | null;
  /** Seconds left for the pending sign-in request; shrinks by authRequestInterval each poll. */
  timeOut: number | null;
  /** Seconds left in the signed-in session, recomputed every second while approved. */
  timeOutIn: number | null;
  loginStatus: LoginStatus;
  loginError: string | null;
  qrCodeDataUrl: string | null;
  /** The application server's address, from the runtime configuration at start. */
  appServerUrl: string | null;
}

export const initialSessionState: SessionState = {
  user: null,
  loginMethod: null,
  userIdentifier: null,
  authRequestInterval: DEFAULT_AUTH_REQUEST_INTERVAL,
  accessToken: null,
  accessTokenExpiration: null,
  accessTokenExpiresAt: null,
  refreshToken: null,
  idToken: null,
  timeOut: null,
  timeOutIn: null,
  loginStatus: 'logged out',
  loginError: null,
  qrCodeDataUrl: null,
  appServerUrl: null,
};

export const SESSION_STORAGE_KEY = 'careplane.session';

const loginStatuses: readonly LoginStatus[] = ['logged out', 'pending', 'approved', 'error'];

/** The stored state, field by field; anything unreadable falls back to the initial value. */
function readStored(): SessionState {
  let stored: unknown;
  try {
    stored = JSON.parse(localStorage.getItem(SESSION_STORAGE_KEY) ?? 'null');
  } catch {
    return { ...initialSessionState };
  }
  if (typeof stored !== 'object' || stored === null) return { ...initialSessionState };
  const record = stored as Partial<Record<keyof SessionState, unknown>>;
  const text = (value: unknown) => (typeof value === 'string' ? value : null);
  const number = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : null);
  const expiration = number(record.accessTokenExpiration) ?? number(record.accessTokenExpiresAt);
  return {
    user: typeof record.user === 'object' && record.user !== null ? (record.user as User) : null,
    loginMethod:
      record.loginMethod === 'qr' || record.loginMethod === 'backchannel' ? record.loginMethod : null,
    userIdentifier: text(record.userIdentifier),
    authRequestInterval: number(record.authRequestInterval) ?? DEFAULT_AUTH_REQUEST_INTERVAL,
    accessToken: text(record.accessToken),
    accessTokenExpiration: expiration,
    accessTokenExpiresAt: expiration,
    refreshToken: text(record.refreshToken),
    idToken: text(record.idToken),
    timeOut: number(record.timeOut),
    timeOutIn: number(record.timeOutIn),
    loginStatus: loginStatuses.includes(record.loginStatus as LoginStatus)
      ? (record.loginStatus as LoginStatus)
      : 'logged out',
    loginError: text(record.loginError),
    qrCodeDataUrl: text(record.qrCodeDataUrl),
    appServerUrl: text(record.appServerUrl),
  };
}

function writeStored(state: SessionState) {
  try {
    localStorage.setItem(SESSION_STORAGE_KEY, JSON.stringify(state));
  } catch {
    // Storage full or disabled (private mode): the session still works until the page is closed.
  }
}

type Listener = () => void;

export interface TokenSet {
  accessToken: string;
  /** Seconds since the epoch. */
  accessTokenExpiration: number;
  refreshToken: string | null;
  idToken: string | null;
}

function createSessionStore() {
  let state = readStored();
  const listeners = new Set<Listener>();

  const set = (patch: Partial<SessionState>) => {
    const next = { ...state, ...patch };
    // The two names of the expiry always hold the same moment.
    if ('accessTokenExpiration' in patch) next.accessTokenExpiresAt = next.accessTokenExpiration;
    else if ('accessTokenExpiresAt' in patch) next.accessTokenExpiration = next.accessTokenExpiresAt;
    state = next;
    writeStored(state);
    listeners.forEach((listener) => listener());
  };

  return {
    getState: () => state,
    subscribe: (listener: Listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    set,
    /** The access token to send; throws when the state holds none (spec §8). */
    getAccessToken(): string {
      if (!state.accessToken) throw new Error(MISSING_ACCESS_TOKEN);
      return state.accessToken;
    },
    /** A new sign-in attempt: pending, with the method and identifier it uses. */
    startLogin(loginMethod: LoginMethod, userIdentifier: string | null = null) {
      set({
        ...initialSessionState,
        appServerUrl: state.appServerUrl,
        loginMethod,
        userIdentifier,
        loginStatus: 'pending',
      });
    },
    setTokens(tokens: TokenSet) {
      set({
        accessToken: tokens.accessToken,
        accessTokenExpiration: tokens.accessTokenExpiration,
        // A refresh answer may omit a token it does not rotate: keep the one held.
        refreshToken: tokens.refreshToken ?? state.refreshToken,
        idToken: tokens.idToken ?? state.idToken,
      });
    },
    approve(user: User) {
      set({ user, loginStatus: 'approved', loginError: null, timeOut: null, qrCodeDataUrl: null });
    },
    /** A fresh copy of the signed-in user (roles an admin changed since the sign-in); ignored when signed out. */
    refreshUser(user: User) {
      if (state.loginStatus === 'approved' && state.user?.id === user.id) set({ user });
    },
    fail(loginError: string) {
      set({ loginStatus: 'error', loginError, timeOut: null });
    },
    /** Logout: everything back to the initial state except the server address. */
    logout() {
      set({ ...initialSessionState, appServerUrl: state.appServerUrl });
    },
    /** Re-reads the browser's storage (another tab signed in or out). */
    reload() {
      state = readStored();
      listeners.forEach((listener) => listener());
    },
  };
}

export const sessionStore = createSessionStore();
export type SessionStore = typeof sessionStore;

export const getAccessToken = () => sessionStore.getAccessToken();

/** Ends a session: the state back to logged out and every cached answer of the old user dropped. */
export function signOut(queryClient: QueryClient) {
  sessionStore.logout();
  queryClient.clear();
}

/** The whole state, or one part of it; the component re-renders when that part changes. */
export function useSession(): SessionState;
export function useSession<T>(select: (state: SessionState) => T): T;
export function useSession<T>(select?: (state: SessionState) => T) {
  const pick = () => (select ? select(sessionStore.getState()) : sessionStore.getState());
  return useSyncExternalStore(sessionStore.subscribe, pick, pick);
}

/** Seconds since the epoch, as tokens count time. */
export const nowInSeconds = () => Math.floor(Date.now() / 1000);
