// The root error boundary: whatever a route throws ends on the error page, inside the centred layout.
import { isRouteErrorResponse, useRouteError } from 'react-router';
import { useEffect } from 'react';
import { reportError } from '@/lib/error-reporting.ts';
import { CenteredLayout } from '../layouts/centered-layout.tsx';
import { ErrorPage } from './error-page.tsx';

export function RouteErrorPage() {
  const error = useRouteError();
  const response = isRouteErrorResponse(error);
  useEffect(() => {
    if (!response) reportError(error, { step: 'route' });
  }, [error, response]);

  const status = response ? error.status : 500;
  const message = response
    ? typeof error.data === 'string' && error.data
      ? error.data
      : error.statusText
    : error instanceof Error
      ? error.message
      : undefined;
  return (
    <CenteredLayout>
      <ErrorPage status={status} message={message} />
    </CenteredLayout>
  );
}
