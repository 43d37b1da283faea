// Ending a session: the state back to logged out and every cached answer of the old user dropped.
import type { QueryClient } from '@tanstack/react-query';
import { sessionStore } from '@/lib/session.ts';

export function signOut(queryClient: QueryClient) {
  sessionStore.logout();
  queryClient.clear();
}
