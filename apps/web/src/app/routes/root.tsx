// The root of the route table: the navigation progress bar, then the page.
import { nprogress } from '@mantine/nprogress';
import { useEffect, useState } from 'react';
import { Outlet, ScrollRestoration, useNavigation } from 'react-router';
import { createNavigationProgress } from '../../lib/navigation-progress.ts';

function NavigationProgressDriver() {
  const navigating = useNavigation().state !== 'idle';
  const [progress] = useState(() => createNavigationProgress(nprogress));
  useEffect(() => () => progress.dispose(), [progress]);
  useEffect(() => {
    if (navigating) progress.start();
    else progress.finish();
  }, [navigating, progress]);
  return null;
}

export function RootRoute() {
  return (
    <>
      <NavigationProgressDriver />
      <ScrollRestoration />
      <Outlet />
    </>
  );
}
