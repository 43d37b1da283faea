// The one TanStack Query client of the console. Queries run without a network too ('offlineFirst'): the
// service worker answers the offline reads with their last answers (decision 046); only retries wait for it.
import { QueryClient } from '@tanstack/react-query';

export function createQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: { staleTime: 30_000, retry: 1, refetchOnWindowFocus: false, networkMode: 'offlineFirst' },
      mutations: { retry: 0 },
    },
  });
}
