// The route guard of spec §5: every authenticated page needs an access token, and one that has not expired.
import { notifications } from '@mantine/notifications';
import { redirect } from 'react-router';
import { nowInSeconds, sessionStore, type SessionState } from '@/lib/session.ts';
import { paths } from '@/config/paths.ts';

export const SESSION_EXPIRED_MESSAGE = 'Your session has expired. You have been logged out.';

export type SessionCheck = 'valid' | 'missing' | 'expired';

export function checkSession(state: SessionState, now = nowInSeconds()): SessionCheck {
  if (!state.accessToken) return 'missing';
  if (state.accessTokenExpiration === null || state.accessTokenExpiration < now) return 'expired';
  return 'valid';
}

/**
 * Ends a session whose token has expired and says so, in the spec's words; `more` adds a sentence the caller
 * knows (the actions kept on this device that wait for the next sign-in), and keeps the notice until closed.
 * (This module is on the first page: what it imports, every visitor downloads.)
 */
export function endExpiredSession(more?: string) {
  sessionStore.logout();
  notifications.show({
    id: 'session-expired',
    color: 'red',
    title: 'Signed out',
    message: more ? `${SESSION_EXPIRED_MESSAGE} ${more}` : SESSION_EXPIRED_MESSAGE,
    // Long enough to be read even when the front page is still loading behind it.
    autoClose: more ? false : 10_000,
  });
}

/** Loader of the authenticated branch of the route table: lets the page load or redirects to "/". */
export function requireSession() {
  const check = checkSession(sessionStore.getState());
  if (check === 'valid') return null;
  if (check === 'expired') endExpiredSession();
  // React Router's way to leave a loader: a thrown redirect Response.
  // eslint-disable-next-line @typescript-eslint/only-throw-error
  throw redirect(paths.home.to());
}
