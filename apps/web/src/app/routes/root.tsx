// The root of the route table: the navigation progress bar, the page, and the notice that the device is offline.
import { nprogress } from '@mantine/nprogress';
import { lazy, Suspense, useEffect, useState } from 'react';
import { Outlet, ScrollRestoration, useNavigation } from 'react-router';
import { importWithReload } from '@/lib/chunk-reload.ts';
import { createNavigationProgress } from '@/lib/navigation-progress.ts';
import { OfflineNotice } from '@/lib/offline/offline-notice.tsx';

const NavigationProgressHost = lazy(importWithReload(() => import('../navigation-progress-host.tsx')));

/**
 * Drives the bar through nprogress's store. The bar itself loads on the first navigation (decision 029): the
 * first page needs none, and the bar shows only after 200 ms, time enough for its chunk to arrive.
 */
function NavigationProgressDriver() {
  const navigating = useNavigation().state !== 'idle';
  const [progress] = useState(() => createNavigationProgress(nprogress));
  const [barWanted, setBarWanted] = useState(false);
  if (navigating && !barWanted) setBarWanted(true);
  useEffect(() => () => progress.dispose(), [progress]);
  useEffect(() => {
    if (navigating) progress.start();
    else progress.finish();
  }, [navigating, progress]);
  if (!barWanted) return null;
  return (
    <Suspense fallback={null}>
      <NavigationProgressHost />
    </Suspense>
  );
}

export function RootRoute() {
  return (
    <>
      <NavigationProgressDriver />
      <ScrollRestoration />
      <Outlet />
      <OfflineNotice />
    </>
  );
}
