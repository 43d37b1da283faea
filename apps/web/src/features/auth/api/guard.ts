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

/** Loader of the authenticated branch of the route table: lets the page load or redirects to "/". */
export function requireSession() {
  const check = checkSession(sessionStore.getState());
  if (check === 'valid') return null;
  if (check === 'expired') {
    sessionStore.logout();
    notifications.show({
      id: 'session-expired',
      color: 'red',
      title: 'Signed out',
      message: SESSION_EXPIRED_MESSAGE,
      // Long enough to be read even when the front page is still loading behind it.
      autoClose: 10_000,
    });
  }
  // React Router's way to leave a loader: a thrown redirect Response.
  // eslint-disable-next-line @typescript-eslint/only-throw-error
  throw redirect(paths.home.to());
}
