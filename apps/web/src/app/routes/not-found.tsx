// An address that names no page: 404 "This page could not be found" with the way home.
import { CenteredLayout } from '../layouts/centered-layout.tsx';
import { ErrorPage } from './error-page.tsx';

/** At the top level the page brings the centred layout with the footer. */
export function Component() {
  return (
    <CenteredLayout>
      <ErrorPage status={404} />
    </CenteredLayout>
  );
}

/** Inside a layout that stays around it (the admin area), the message alone. */
export function NotFoundPanel() {
  return <ErrorPage status={404} />;
}
