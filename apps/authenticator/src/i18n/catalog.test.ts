// Every English text of the authenticator has its Thai, in Thai script: a key missing from th.ts, or an
// English text copied into it, fails here (and a missing key already fails the type check).
import { describe, expect, it, vi } from 'vitest';
import { en } from './en.ts';
import { th } from './th.ts';

/** Texts that read the same in both: the product's name, and a sentence that is only its reason. */
const SAME_IN_BOTH = new Set(['app.title']);
const THAI = /[\u0E00-\u0E7F]/;

function flatten(catalog: object, prefix = ''): Record<string, string> {
  return Object.fromEntries(
    Object.entries(catalog).flatMap(([key, value]) =>
      typeof value === 'string'
        ? [[`${prefix}${key}`, value]]
        : Object.entries(flatten(value as object, `${prefix}${key}.`)),
    ),
  );
}

function untranslated(english: object, thai: object): string[] {
  const thaiTexts = flatten(thai);
  return Object.entries(flatten(english))
    .filter(([key]) => !SAME_IN_BOTH.has(key))
    .filter(([key]) => {
      const text = thaiTexts[key];
      return !text || !THAI.test(text);
    })
    .map(([key]) => key);
}

/** The {{placeholders}} of a text, sorted. */
const placeholders = (text: string) => [...text.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();

describe('the authenticator’s Thai catalog', () => {
  it('has every English text, in Thai, with the same placeholders and markup', () => {
    expect(untranslated(en, th)).toEqual([]);
    const thaiTexts = flatten(th);
    for (const [key, text] of Object.entries(flatten(en))) {
      expect(placeholders(thaiTexts[key]!), key).toEqual(placeholders(text));
      expect(thaiTexts[key]!.includes('<strong>'), key).toBe(text.includes('<strong>'));
    }
  });

  it('fails on a text that is missing or left in English', () => {
    const withoutScan: Partial<typeof th> = { ...th };
    delete withoutScan.scan;
    expect(untranslated(en, withoutScan)).toContain('scan.noCamera');
    expect(untranslated(en, { ...th, claim: { ...th.claim, cancel: 'Cancel' } })).toEqual(['claim.cancel']);
  });
});

describe('the first language', () => {
  it('is the one chosen on this device, else the browser’s first known language', async () => {
    const { initialLanguage } = await import('./i18n.ts');
    localStorage.clear();
    vi.stubGlobal('navigator', { ...navigator, languages: ['ja', 'th-TH', 'en'] });
    expect(initialLanguage()).toBe('th');
    localStorage.setItem('careplane.authenticator.language', 'en');
    expect(initialLanguage()).toBe('en');
    vi.unstubAllGlobals();
    localStorage.clear();
  });
});
