// A conflict's notice names the prescription's status in the reader's language, two-word statuses included.
import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import { enumWord } from '@careplane/shared/i18n/enum-texts';
import { offlineTexts } from './texts.ts';

describe('the offline notices', () => {
  it('name a status of two words in Thai by its Thai label, and in English as the server writes it', async () => {
    expect(offlineTexts.conflict('Ready', 'on hold')).toContain('it is now on hold.');
    await i18next.changeLanguage('th');
    const thai = offlineTexts.conflict('พร้อมส่ง', 'on hold');
    expect(thai).not.toMatch(/on hold/i);
    const label = enumWord('prescriptionStatus', 'on_hold', 'th');
    expect(thai).toContain(`ขณะนี้เป็น ${label.charAt(0).toUpperCase()}${label.slice(1)} `);
  });
});
