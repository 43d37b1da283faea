// The route guard of spec §5: every authenticated page needs an access token, and one that has not expired.
import { notifications } from '@mantine/notifications';
import i18next from 'i18next';
import { redirect } from 'react-router';
import { nowInSeconds, sessionStore, type SessionState } from '@/lib/session.ts';
import { paths } from '@/config/paths.ts';
import { actionOutbox } from '@/lib/offline/action-outbox.ts';

export const SESSION_EXPIRED_MESSAGE = 'Your session has expired. You have been logged out.';

export type SessionCheck = 'valid' | 'missing' | 'expired';

export function checkSession(state: SessionState, now = nowInSeconds()): SessionCheck {
  if (!state.accessToken) return 'missing';
  if (state.accessTokenExpiration === null || state.accessTokenExpiration < now) return 'expired';
  return 'valid';
}

/** How many actions the signed-in person keeps on this device, not sent yet (decision 076). */
export function keptActionsCount(): number {
  const userId = sessionStore.getState().user?.id;
  return userId ? actionOutbox.entries().filter((entry) => entry.userId === userId).length : 0;
}

/** The sentence that tells a person signed out that their kept actions wait for their next sign-in here. */
export const keptAfterText = (count: number) => i18next.t('kit:session.keptAfter', { count });

/**
 * Ends a session whose token has expired and says so: the spec's words, and the actions kept on this device
 * that wait for the next sign-in, when there are any.
 */
export function endExpiredSession() {
  const kept = keptActionsCount();
  sessionStore.logout();
  notifications.show({
    id: 'session-expired',
    color: 'red',
    title: 'Signed out',
    message: kept ? `${SESSION_EXPIRED_MESSAGE} ${keptAfterText(kept)}` : SESSION_EXPIRED_MESSAGE,
    // Long enough to be read even when the front page is still loading behind it.
    autoClose: kept ? false : 10_000,
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
