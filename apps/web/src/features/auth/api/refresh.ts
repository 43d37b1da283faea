// Renewing the tokens of a QR session before they run out (spec §4).
import { sessionStore } from '@/lib/session.ts';
import { refreshTokens } from './auth-client.ts';
import { storeTokens } from './login-flow.ts';

export async function refreshSession() {
  const refreshToken = sessionStore.getState().refreshToken;
  if (!refreshToken) throw new Error('The session holds no refresh token');
  storeTokens(sessionStore, await refreshTokens(refreshToken));
}
