// Copying a text shown once: "Copied" when the browser copied it, and a word to copy it by hand when it refused.
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppProvider } from '@/app/provider.tsx';
import { resetSession } from '@/test/app.tsx';
import { CopyTextButton } from './copy-text-button.tsx';

function renderButton() {
  render(
    <AppProvider env="test">
      <CopyTextButton
        value="cpd_secret"
        label="Copy token"
        copiedLabel="Copied"
        failedLabel="Could not copy: this browser does not allow it here. Select the text and copy it."
      />
    </AppProvider>,
  );
}

beforeEach(() => resetSession());
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe('a copy button', () => {
  it('says Copied once the browser has copied the text', async () => {
    const user = userEvent.setup();
    const written = vi.spyOn(navigator.clipboard, 'writeText').mockResolvedValue(undefined);
    renderButton();
    await user.click(screen.getByRole('button', { name: 'Copy token' }));
    expect(await screen.findByRole('button', { name: 'Copied' })).toBeVisible();
    expect(written).toHaveBeenCalledWith('cpd_secret');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('says to copy by hand when the browser refuses, instead of doing nothing', async () => {
    const user = userEvent.setup();
    vi.spyOn(navigator.clipboard, 'writeText').mockRejectedValue(
      new DOMException('denied', 'NotAllowedError'),
    );
    renderButton();
    await user.click(screen.getByRole('button', { name: 'Copy token' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Could not copy: this browser does not allow it here. Select the text and copy it.',
    );
    expect(screen.getByRole('button', { name: 'Copy token' })).toBeVisible();
  });
});
