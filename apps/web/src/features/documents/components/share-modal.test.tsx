// Sharing a document on a phone: the list of people closes once one is picked, so it no longer covers the
// dialog's Save button; a wider screen keeps it open for the next person.
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Document } from '@careplane/shared/documents/documents.contract';
import { AppProvider } from '@/app/provider.tsx';
import { makeUser, resetSession, signIn } from '@/test/app.tsx';
import { fakeNetwork, json } from '@/test/network.ts';
import { onScreen } from '@/test/screen.ts';
import { ShareModal } from './share-modal.tsx';

const document: Document = {
  id: '0190a0b0-0000-7000-8000-00000000f001',
  createdAt: '2026-11-23T09:00:00.000Z',
  updatedAt: '2026-11-23T09:00:00.000Z',
  title: 'Care plan',
  file: null,
  signedFile: null,
  owner: null,
  createdByUserId: null,
  isSigned: false,
  parties: [],
  signingPartiesMetadata: [],
  access: { role: 'owner', canSign: true, canShare: true, canDelete: true, hasSigned: false },
};

beforeEach(() => {
  resetSession();
  signIn(makeUser());
  fakeNetwork()
    .on('GET', '/api/documents/parties', () =>
      json({
        items: [
          { id: '0190a0b0-0000-7000-8000-00000000d001', name: 'Somchai Jaidee' },
          { id: '0190a0b0-0000-7000-8000-00000000d002', name: 'Malee Srisawat' },
        ],
      }),
    )
    .install();
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

const pickSomchai = async () => {
  render(
    <AppProvider env="test">
      <ShareModal document={document} opened onClose={() => undefined} />
    </AppProvider>,
  );
  const [search] = (await screen.findAllByLabelText('People')).filter((input) =>
    input.hasAttribute('aria-haspopup'),
  );
  await userEvent.click(search!);
  await userEvent.click(await screen.findByRole('option', { name: 'Somchai Jaidee' }));
};

describe('the share dialog', () => {
  it('closes the list of people on a phone once one is picked, so Save can be reached', async () => {
    onScreen(true);
    await pickSomchai();
    await waitFor(() => expect(screen.queryByRole('option', { name: 'Malee Srisawat' })).toBeNull());
    expect(screen.getAllByText('Somchai Jaidee')[0]).toBeVisible();
    expect(screen.getByRole('button', { name: 'Save' })).toBeVisible();
  });

  it('keeps it open on a wider screen for the next person', async () => {
    onScreen(false);
    await pickSomchai();
    expect(await screen.findByRole('option', { name: 'Malee Srisawat' })).toBeVisible();
  });
});
