// The offline banner in the reader's language: English as the offline tests read it, Thai once the console
// speaks Thai, with the number of kept actions in the sentence.
import { MantineProvider } from '@mantine/core';
import { act, cleanup, render, screen } from '@testing-library/react';
import i18next from 'i18next';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { OfflineBanner } from './offline-banner.tsx';
import { offlineTexts } from './texts.ts';

beforeEach(() => {
  vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

const renderBanner = () =>
  render(
    <MantineProvider>
      <OfflineBanner />
    </MantineProvider>,
  );

describe('the offline banner', () => {
  it('says in English that the device is offline', () => {
    renderBanner();
    expect(screen.getByTestId('offline-banner')).toHaveTextContent(
      'You are offline. Lists show what was last loaded; actions are kept and sent when you are back online.',
    );
  });

  it('says it in Thai, and follows a change of language while shown', async () => {
    renderBanner();
    await act(() => i18next.changeLanguage('th'));
    expect(screen.getByTestId('offline-banner')).toHaveTextContent(
      'คุณออฟไลน์อยู่ รายการแสดงข้อมูลที่โหลดไว้ล่าสุด การดำเนินการจะถูกเก็บไว้และส่งเมื่อกลับมาออนไลน์',
    );
  });
});

describe('the offline notices', () => {
  it('keep their English, with one action or many', () => {
    expect(offlineTexts.bannerPending(1)).toBe('1 action waits to be sent.');
    expect(offlineTexts.bannerPending(3)).toBe('3 actions wait to be sent.');
    expect(offlineTexts.queuedNotice('Delivered', undefined)).toBe(
      '“Delivered” kept on this device. It is sent when you are back online.',
    );
    expect(offlineTexts.conflict('Delivered', 'returned')).toBe(
      "Someone else already moved this prescription: it is now returned. Your 'Delivered' was not applied.",
    );
    // The notice names which prescription, where it knows (two kept actions may end in notices at once).
    expect(offlineTexts.conflict('Delivered', 'returned', 'Losartan 50 mg for Pia Patient')).toBe(
      "Someone else already moved the prescription Losartan 50 mg for Pia Patient: it is now returned. Your 'Delivered' was not applied.",
    );
    expect(offlineTexts.rejected('Delivered', 'Not yours', 'Losartan 50 mg')).toBe(
      "Your 'Delivered' of Losartan 50 mg was not applied: Not yours",
    );
  });

  it('name the prescription status by its Thai label in Thai', async () => {
    await act(() => i18next.changeLanguage('th'));
    expect(offlineTexts.bannerPending(3)).toBe('มี 3 การดำเนินการรอส่ง');
    expect(offlineTexts.conflict('ส่งถึงแล้ว', 'returned')).toContain('ส่งคืน');
  });
});
