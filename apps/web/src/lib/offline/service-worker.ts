// The service worker (decision 046): registered by a production build only, so `vite dev` and the unit tests
// run without one. Its kept API answers were read with one user's token: they go when the signed-in user
// changes (sign-out, expiry, another user), so nobody sees what the last user's lists held.
import type { QueryClient } from '@tanstack/react-query';
import type { SessionStore } from '@/lib/session.ts';

/** The runtime caches of vite.config.ts's workbox.runtimeCaching. */
export const API_CACHE = 'careplane-api';
export const CARE_TEAM_CACHE = 'careplane-care-team';

export function registerServiceWorker(session: SessionStore) {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  let user = session.getState().user?.id ?? null;
  session.subscribe(() => {
    const now = session.getState().user?.id ?? null;
    if (now === user) return;
    user = now;
    if ('caches' in window) for (const name of [API_CACHE, CARE_TEAM_CACHE]) void caches.delete(name);
  });
  // After the page has loaded, so the worker's downloads do not compete with the page's own; the start
  // awaits the runtime settings, so the load may be over already.
  const register = () =>
    void navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch(() => undefined);
  if (document.readyState === 'complete') register();
  else window.addEventListener('load', register, { once: true });
}

/**
 * On a first visit the page's reads went out before the service worker was there to keep them (decision 076):
 * when it takes control of the page, `again` asks them once more, through it, so that a reload without a
 * network finds their last answers. Returns the unsubscribe.
 */
export function onFirstControl(again: () => void, container = globalThis.navigator?.serviceWorker) {
  if (!container || container.controller) return () => undefined;
  container.addEventListener('controllerchange', again, { once: true });
  return () => container.removeEventListener('controllerchange', again);
}

/**
 * Asks every read on screen again, now through the worker. A read still on its first way out is cancelled
 * first: it has no answer yet, and asked again it would be handed back that same request (TanStack Query
 * cancels an in-flight fetch for a refetch only when the query already has data), which went out before the
 * worker could see it and would never be kept.
 */
export async function askReadsAgain(client: QueryClient) {
  await client.cancelQueries({ type: 'active', fetchStatus: 'fetching' });
  await client.refetchQueries({ type: 'active' });
}
