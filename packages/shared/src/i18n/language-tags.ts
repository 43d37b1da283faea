// The languages Careplane speaks: English and Thai, their names, locales and how a preference list picks one.
// No zod here: the console's first page reads this (decision 047), the schema lives in languages.ts.

export const languages = ['en', 'th'] as const;
export type Language = (typeof languages)[number];
export const DEFAULT_LANGUAGE: Language = 'en';

export const isLanguage = (value: unknown): value is Language =>
  typeof value === 'string' && (languages as readonly string[]).includes(value);

/** The Intl locale each language formats numbers and times in (en-GB: day before month, 24-hour clock). */
export const locales: Record<Language, string> = { en: 'en-GB', th: 'th-TH' };
export const localeOf = (language: Language): string => locales[language];

/** The names each language is offered under, in itself (a reader finds their own language by its name). */
export const languageNames: Record<Language, string> = { en: 'English', th: 'ไทย' };

/**
 * The first supported language of a preference list: an Accept-Language header ("th-TH,th;q=0.9,en;q=0.8")
 * or the browser's navigator.languages. Weights order the header; a region (th-TH) counts as its language.
 */
export function pickLanguage(preferences: string | readonly string[] | null | undefined): Language {
  if (!preferences) return DEFAULT_LANGUAGE;
  const ranked =
    typeof preferences === 'string'
      ? preferences
          .split(',')
          .map((entry, order) => {
            const [tag = '', ...params] = entry.trim().split(';');
            const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
            const weight = q ? Number(q.slice(2)) : 1;
            return { tag: tag.trim(), weight: Number.isFinite(weight) ? weight : 0, order };
          })
          .filter((entry) => entry.tag && entry.weight > 0)
          .sort((a, b) => b.weight - a.weight || a.order - b.order)
          .map((entry) => entry.tag)
      : preferences;
  for (const tag of ranked) {
    const base = tag.toLowerCase().split('-')[0];
    if (isLanguage(base)) return base;
  }
  return DEFAULT_LANGUAGE;
}
