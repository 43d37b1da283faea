// The one TanStack Query client of the console. Queries run without a network too ('offlineFirst'): the
// service worker answers the offline reads with their last answers (decision 046); only retries wait for it.
import { QueryClient, onlineManager } from '@tanstack/react-query';
import { ApiError, NetworkError } from './api-client.ts';

/** At most one more try of a failed read. */
const MAX_RETRIES = 1;

/**
 * Whether a failed read is asked again: only when asking again can help. No answer (NetworkError: offline, or
 * the server out of reach) and a server failure (5xx) may pass; a 4xx answer (refused, not found, invalid)
 * would be the same the second time, so it is shown at once.
 */
export function shouldRetryQuery(failureCount: number, error: unknown): boolean {
  if (failureCount >= MAX_RETRIES) return false;
  if (error instanceof NetworkError) return true;
  return error instanceof ApiError && error.status >= 500;
}

export function createQueryClient() {
  // TanStack Query assumes it starts online. A console opened offline (a page reloaded on the road) must know it
  // is not: otherwise it never hears the network come back, and its failed sections (the open alerts among
  // them) wait for a tap on "Try again" instead of loading again by themselves. Offline, a failed read waits
  // for the network to ask again ('paused'), as after the network drops while a page is open.
  onlineManager.setOnline(navigator.onLine);
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        retry: shouldRetryQuery,
        refetchOnWindowFocus: false,
        networkMode: 'offlineFirst',
        // Back online, what is on screen is read again, fresh or not: offline it may have come from the
        // service worker's last answers (decision 106), which look as fresh as any.
        refetchOnReconnect: 'always',
      },
      // An action is tried at once, online or not: offline it fails and says it was not sent. TanStack's default
      // ('online') would hold it paused, its button spinning, and send it whenever the network came back, even
      // long after the person closed its dialog and moved on. What the road does offline on purpose goes
      // through the outbox instead, which shows what it keeps (decisions 046, 108).
      mutations: { retry: 0, networkMode: 'always' },
    },
  });
}
