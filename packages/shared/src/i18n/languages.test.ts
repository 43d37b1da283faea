import { describe, expect, it } from 'vitest';
import { languageSchema, pickLanguage } from './languages.ts';

describe('pickLanguage', () => {
  it('takes the first supported language of an Accept-Language header, by weight', () => {
    expect(pickLanguage('th-TH,th;q=0.9,en;q=0.8')).toBe('th');
    expect(pickLanguage('fr;q=1, en;q=0.5, th;q=0.7')).toBe('th');
    expect(pickLanguage('de, en-GB;q=0.8')).toBe('en');
  });

  it('reads a browser list in its order', () => {
    expect(pickLanguage(['th-TH', 'en-US'])).toBe('th');
    expect(pickLanguage(['ja', 'en'])).toBe('en');
  });

  it('falls back to English for nothing usable', () => {
    expect(pickLanguage(undefined)).toBe('en');
    expect(pickLanguage('')).toBe('en');
    expect(pickLanguage('th;q=0, fr')).toBe('en');
    expect(pickLanguage('th;q=abc')).toBe('en');
  });

  it('accepts only en and th as a stored choice', () => {
    expect(languageSchema.safeParse('th').success).toBe(true);
    expect(languageSchema.safeParse('TH').success).toBe(false);
  });
});
