// Every page behind the guard: the session timer runs here, with its expiry dialog.
import { Outlet } from 'react-router';
import { SessionWatcher } from '../../features/auth/components/session-watcher.tsx';

export function AuthenticatedRoute() {
  return (
    <>
      <SessionWatcher />
      <Outlet />
    </>
  );
}
