// The sign-in of spec §4: QR (session polled until the authenticator claims it, then the token endpoint) and
// backchannel by user identifier (the token endpoint directly). The flow writes every step into the session
// store, which the login screens render; it ends with the user profile loaded and the status approved.
import { isAdmin } from '@careplane/shared/auth/roles';
import type { SignInRequest } from '@careplane/shared/users/account.contract';
import type { User } from '@careplane/shared/users/users.contract';
import { ApiError, api } from '@/lib/api-client.ts';
import { reportError } from '@/lib/error-reporting.ts';
import { nowInSeconds, sessionStore, type SessionStore } from '@/lib/session.ts';
import { paths } from '@/config/paths.ts';
import {
  AuthServerError,
  createQrSession,
  getQrSessionStatus,
  pollToken,
  startBackchannel,
  type TokenAnswer,
} from './auth-client.ts';
import { renderQrCode } from './qr-code.ts';
import { canExtractCanvas } from './canvas-check.ts';

export const loginMessages = {
  canvasBlocked: 'Canvas data extraction is blocked. Please enable it and try again.',
  qrFailed: 'Could not generate QR code. Please reload and try again.',
  timedOut: 'Authentication request timed out.',
  denied: 'The sign-in was denied on the phone.',
  profileFailed: 'Could not get user profile.',
  registrationFailed: 'Could not register the sign-in with the application server.',
  startFailed: 'Could not start the sign-in. Please try again.',
  offline: 'Signing in needs the network: connect, then try again.',
} as const;

/** CIBA: a slow_down answer asks the client to wait this many seconds longer between polls. */
const SLOW_DOWN_STEP = 5;

const BINDING_LETTERS = 'ABCDEFGHJKLMNPQRSTUVWXYZ';
const BINDING_DIGITS = '23456789';

/** A short code shown on the console and on the phone, e.g. "KM 47": the user checks they match. */
export function createBindingMessage(): string {
  const random = crypto.getRandomValues(new Uint8Array(4));
  const pick = (alphabet: string, value: number) => alphabet[value % alphabet.length] ?? '';
  const [a = 0, b = 0, c = 0, d = 0] = random;
  return `${pick(BINDING_LETTERS, a)}${pick(BINDING_LETTERS, b)} ${pick(BINDING_DIGITS, c)}${pick(BINDING_DIGITS, d)}`;
}

/** The `exp` claim of a JWT, in seconds, or undefined when the token does not say. */
export function tokenExpiry(token: string): number | undefined {
  const payload = token.split('.')[1];
  if (!payload) return undefined;
  try {
    const json = atob(payload.replace(/-/g, '+').replace(/_/g, '/'));
    const exp = (JSON.parse(json) as { exp?: unknown }).exp;
    return typeof exp === 'number' && Number.isFinite(exp) ? exp : undefined;
  } catch {
    return undefined;
  }
}

/** Stores a token answer: the expiry is the token's own `exp`, else now plus expires_in. */
export function storeTokens(store: SessionStore, tokens: TokenAnswer) {
  store.setTokens({
    accessToken: tokens.access_token,
    accessTokenExpiration: tokenExpiry(tokens.access_token) ?? nowInSeconds() + tokens.expires_in,
    refreshToken: tokens.refresh_token ?? null,
    idToken: tokens.id_token ?? null,
  });
}

export interface LoginFlowOptions {
  /** Where to go once signed in: /admin for admins, /account for everyone else. */
  navigate: (to: string) => void;
  /** The short code to compare with the phone, whenever it changes (null when there is none). */
  onBindingMessage?: (code: string | null) => void;
  store?: SessionStore;
}

export interface LoginFlow {
  startQr(): Promise<void>;
  startWithIdentifier(userIdentifier: string): Promise<void>;
  /** Stops polling; the session keeps what it had. */
  cancel(): void;
}

/** A run replaced by a newer start or by cancel: it ends quietly. */
class Cancelled extends Error {}
/** A sign-in that ended with a message for the user. */
class LoginFailure extends Error {}

export function createLoginFlow({
  navigate,
  onBindingMessage = () => undefined,
  store = sessionStore,
}: LoginFlowOptions): LoginFlow {
  let run = 0;

  /** Each start begins a new run; a later start or cancel makes the older run stop at its next step. */
  const begin = () => {
    run += 1;
    const mine = run;
    const alive = () => {
      if (mine !== run) throw new Cancelled();
    };
    const wait = async (seconds: number) => {
      await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
      alive();
    };
    /** One poll round: the remaining time shrinks by the interval; at zero the request has timed out. */
    const nextRound = async () => {
      const interval = store.getState().authRequestInterval;
      await wait(interval);
      const left = (store.getState().timeOut ?? 0) - interval;
      store.set({ timeOut: Math.max(0, left) });
      if (left <= 0) throw new LoginFailure(loginMessages.timedOut);
    };
    return { alive, nextRound };
  };

  const showQr = async (cbUrl: string) => {
    try {
      store.set({ qrCodeDataUrl: await renderQrCode(cbUrl) });
    } catch (error) {
      reportError(error, { step: 'qr-code' });
      throw new LoginFailure(loginMessages.qrFailed);
    }
  };

  const pollTokens = async (authRequestId: string, step: ReturnType<typeof begin>) => {
    for (;;) {
      await step.nextRound();
      const answer = await pollToken(authRequestId);
      step.alive();
      switch (answer.kind) {
        case 'pending':
          continue;
        case 'slow_down':
          store.set({ authRequestInterval: store.getState().authRequestInterval + SLOW_DOWN_STEP });
          continue;
        case 'expired':
          throw new LoginFailure(loginMessages.timedOut);
        case 'denied':
          throw new LoginFailure(loginMessages.denied);
        case 'tokens':
          return answer.tokens;
      }
    }
  };

  const finish = async (tokens: TokenAnswer, step: ReturnType<typeof begin>) => {
    storeTokens(store, tokens);
    try {
      if (!tokens.id_token) throw new Error('The sign-in answer has no id_token');
      const registration: SignInRequest = { idToken: tokens.id_token };
      await api.post('/api/auth', registration);
    } catch (error) {
      reportError(error, { step: 'register' });
      throw new LoginFailure(loginMessages.registrationFailed);
    }
    step.alive();
    let user: User;
    try {
      user = await api.get<User>('/api/users/me');
    } catch (error) {
      reportError(error, { step: 'profile' });
      throw new LoginFailure(loginMessages.profileFailed);
    }
    step.alive();
    store.approve(user);
    navigate(isAdmin(user) ? paths.admin.root.to() : paths.account.to());
  };

  const settle = (error: unknown) => {
    if (error instanceof Cancelled) return;
    // Without a network nothing else went wrong: say what to do, not that something failed.
    if (navigator.onLine === false) return store.fail(loginMessages.offline);
    if (error instanceof LoginFailure) return store.fail(error.message);
    if (error instanceof AuthServerError || error instanceof ApiError) {
      return store.fail(error.status === 429 ? error.message : loginMessages.startFailed);
    }
    reportError(error, { step: 'login' });
    store.fail(loginMessages.startFailed);
  };

  return {
    async startQr() {
      const step = begin();
      store.startLogin('qr');
      onBindingMessage(null);
      try {
        if (!canExtractCanvas()) throw new LoginFailure(loginMessages.canvasBlocked);
        const message = createBindingMessage();
        const session = await createQrSession(message);
        step.alive();
        onBindingMessage(message);
        let shown = session.cbUrl;
        await showQr(shown);
        step.alive();
        store.set({ timeOut: session.expIn });
        let authRequestId: string | undefined;
        while (!authRequestId) {
          await step.nextRound();
          const status = await getQrSessionStatus(session.sessionId);
          step.alive();
          if (status.status === 'expired') throw new LoginFailure(loginMessages.timedOut);
          if (status.status === 'claimed') authRequestId = status.authRequestId;
          else if (status.cbUrl && status.cbUrl !== shown) {
            // The server rotates the secret in cbUrl while the session waits: show the new one.
            shown = status.cbUrl;
            await showQr(shown);
          }
        }
        // Claimed: the QR code has done its part; polling goes on at the token endpoint (backchannel step).
        store.set({ qrCodeDataUrl: null });
        await finish(await pollTokens(authRequestId, step), step);
      } catch (error) {
        settle(error);
      }
    },

    async startWithIdentifier(userIdentifier: string) {
      const step = begin();
      const identifier = userIdentifier.trim();
      const message = createBindingMessage();
      onBindingMessage(message);
      store.startLogin('backchannel', identifier);
      try {
        const request = await startBackchannel(identifier, message);
        step.alive();
        store.set({
          timeOut: request.expires_in,
          authRequestInterval: request.interval ?? store.getState().authRequestInterval,
        });
        await finish(await pollTokens(request.auth_req_id, step), step);
      } catch (error) {
        settle(error);
      }
    },

    cancel() {
      run += 1;
    },
  };
}
