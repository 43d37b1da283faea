// The page-loading bar is named for screen readers in the console's language.
import { MantineProvider } from '@mantine/core';
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, expect, it } from 'vitest';
import { changeLanguage } from '@/lib/i18n/language.ts';
import NavigationProgressHost from './navigation-progress-host.tsx';

afterEach(async () => {
  cleanup();
  await act(() => changeLanguage('en'));
});

it('names the page-loading bar in the language on screen', async () => {
  render(
    <MantineProvider>
      <NavigationProgressHost />
    </MantineProvider>,
  );
  expect(screen.getByLabelText('Loading the page')).toBeInTheDocument();
  await act(() => changeLanguage('th'));
  expect(screen.getByLabelText('กำลังโหลดหน้า')).toBeInTheDocument();
  expect(screen.queryByLabelText('Loading the page')).toBeNull();
});
