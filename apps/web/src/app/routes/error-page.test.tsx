import { MantineProvider } from '@mantine/core';
import { cleanup, render, screen } from '@testing-library/react';
import { createMemoryRouter, data, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { RouteErrorPage } from './route-error.tsx';

afterEach(cleanup);

function renderFailing(loader: () => unknown) {
  const router = createMemoryRouter([
    { path: '/', loader, Component: () => null, ErrorBoundary: RouteErrorPage },
  ]);
  render(
    <MantineProvider>
      <RouterProvider router={router} />
    </MantineProvider>,
  );
}

describe('the error page', () => {
  it('shows 500 and the message of an unexpected error', async () => {
    renderFailing(() => {
      throw new Error('The database is unreachable');
    });
    expect(await screen.findByText('500')).toBeVisible();
    expect(screen.getByRole('alert').textContent).toBe('The database is unreachable');
    expect(screen.getByText('Careplane 0.3.0')).toBeVisible();
  });

  it('shows the status and message of an error answer', async () => {
    renderFailing(() => {
      // eslint-disable-next-line @typescript-eslint/only-throw-error
      throw data('This prescription was withdrawn', { status: 410 });
    });
    expect(await screen.findByText('410')).toBeVisible();
    expect(screen.getByText('This prescription was withdrawn')).toBeVisible();
    expect(screen.queryByRole('link', { name: 'Back to the home page' })).toBeNull();
  });

  it('adds the way home to a 404', async () => {
    renderFailing(() => {
      // eslint-disable-next-line @typescript-eslint/only-throw-error
      throw data(null, { status: 404 });
    });
    expect(await screen.findByText('This page could not be found')).toBeVisible();
    expect(screen.getByRole('link', { name: 'Back to the home page' }).getAttribute('href')).toBe('/');
  });
});
