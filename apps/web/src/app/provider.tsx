// Everything every page relies on: theme, query client, and the notifications' container once a notification is
// shown. What only some pages need loads with them (decision 029): the confirm dialogs' ModalsProvider with the
// signed-in pages (routes/authenticated.tsx), the navigation progress bar on the first navigation
// (routes/root.tsx).
import { MantineProvider } from '@mantine/core';
import { notificationsStore } from '@mantine/notifications';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useState, useSyncExternalStore, type ReactNode } from 'react';
import { importWithReload } from '@/lib/chunk-reload.ts';
import { createQueryClient } from '@/lib/query-client.ts';
import { useSession } from '@/lib/session.ts';
import { cssVariablesResolver, theme } from './theme.ts';

const NotificationsHost = lazy(importWithReload(() => import('./notifications-host.tsx')));

/**
 * Mantine's notifications live in a store that works without its container: the container (with its portal
 * and transitions) loads as soon as someone is signed in, where pages notify often, or else when the first
 * notification is shown (the guard's "Signed out" on the front page), then shows it and stays.
 */
function DeferredNotifications() {
  const shown = useSyncExternalStore(
    notificationsStore.subscribe,
    () => notificationsStore.getState().notifications.length > 0,
  );
  const signedIn = useSession((state) => state.accessToken !== null);
  const [mounted, setMounted] = useState(false);
  if ((shown || signedIn) && !mounted) setMounted(true);
  if (!mounted) return null;
  return (
    <Suspense fallback={null}>
      <NotificationsHost />
    </Suspense>
  );
}

export function AppProvider({
  children,
  queryClient,
  env,
}: {
  children: ReactNode;
  queryClient?: QueryClient;
  /** `test`: no transitions and no portals, for tests that open menus and dialogs. */
  env?: 'default' | 'test';
}) {
  const [client] = useState(() => queryClient ?? createQueryClient());
  return (
    <MantineProvider
      theme={theme}
      cssVariablesResolver={cssVariablesResolver}
      defaultColorScheme="auto"
      env={env}
    >
      <QueryClientProvider client={client}>
        <DeferredNotifications />
        {children}
      </QueryClientProvider>
    </MantineProvider>
  );
}
