// A console opened before the person chose a language on another device turns to the account's language when
// its signed-in pages start, on any page, not only once /account is visited; with no language on the account,
// the choice made on this device stays (decision 047).
import { act, cleanup, screen, waitFor } from '@testing-library/react';
import i18next from 'i18next';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { followSessionLanguage, LANGUAGE_STORAGE_KEY } from '@/lib/i18n/language.ts';
import { sessionStore } from '@/lib/session.ts';
import { makeUser, renderApp, resetSession, signIn } from '@/test/app.tsx';
import { fakeNetwork, json, type FakeNetwork } from '@/test/network.ts';

let network: FakeNetwork;
let stopFollowing = () => undefined as void;
beforeEach(() => {
  resetSession();
  network = fakeNetwork().install();
});
afterEach(() => {
  stopFollowing();
  cleanup();
  vi.unstubAllGlobals();
});

/** Starts the console as main.tsx does: following the session's language. */
const follow = () => {
  const stop = followSessionLanguage();
  stopFollowing = () => void stop();
};

describe("the account's language", () => {
  it('applies when the signed-in console starts, away from /account', async () => {
    // Signed in here while the account had no language; ไทย was chosen on another device since.
    signIn(makeUser({ language: null }));
    network.on('GET', '/api/users/me', () => json(makeUser({ language: 'th' })));
    follow();
    expect(i18next.language).toBe('en');
    renderApp('/documents');
    expect(await screen.findByRole('link', { name: 'เอกสาร' })).toBeVisible();
    expect(i18next.language).toBe('th');
    expect(sessionStore.getState().user?.language).toBe('th');
    expect(network.callsTo('GET', '/api/users/me')).toHaveLength(1);
  });

  it("wins over this device's choice once signed in", async () => {
    localStorage.setItem(LANGUAGE_STORAGE_KEY, 'th');
    await act(() => i18next.changeLanguage('th'));
    signIn(makeUser({ language: null }));
    network.on('GET', '/api/users/me', () => json(makeUser({ language: 'en' })));
    follow();
    renderApp('/documents');
    await waitFor(() => expect(i18next.language).toBe('en'));
    expect(await screen.findByRole('link', { name: 'Documents' })).toBeVisible();
  });

  it("leaves this device's choice when the account holds none", async () => {
    localStorage.setItem(LANGUAGE_STORAGE_KEY, 'th');
    await act(() => i18next.changeLanguage('th'));
    signIn(makeUser({ language: null }));
    network.on('GET', '/api/users/me', () => json(makeUser({ language: null })));
    follow();
    renderApp('/documents');
    await waitFor(() => expect(network.callsTo('GET', '/api/users/me')).toHaveLength(1));
    await act(() => new Promise((resolve) => setTimeout(resolve, 300)));
    expect(i18next.language).toBe('th');
  });
});
