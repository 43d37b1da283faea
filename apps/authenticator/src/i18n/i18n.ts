// The authenticator speaks English or Thai: the language chosen on this device (the switch in the header,
// kept in localStorage), else the first of the browser's languages it knows. Both catalogs are bundled: the
// app is small and must work offline, so there is nothing to load later. <html lang> and the title follow.
import i18next, { type i18n as I18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { isLanguage, pickLanguage, type Language } from '@careplane/shared/i18n/languages';
import { en } from './en.ts';
import { th } from './th.ts';

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: typeof en };
  }
}

const STORED = 'careplane.authenticator.language';

export const catalogs = { en, th } as const;

/** The language this device chose, else the browser's. */
export function initialLanguage(): Language {
  try {
    const stored = localStorage.getItem(STORED);
    if (isLanguage(stored)) return stored;
  } catch {
    // storage blocked: follow the browser
  }
  return pickLanguage(typeof navigator === 'undefined' ? undefined : navigator.languages);
}

/** Keys asked for that a catalog lacks; the tests read it (a missing Thai text falls back to English). */
export const missingKeys: string[] = [];

export const i18n: I18n = i18next.createInstance();

function follow(language: string) {
  if (typeof document === 'undefined') return;
  document.documentElement.lang = language;
  document.title = i18n.t('app.title');
}

i18n.on('languageChanged', follow);
void i18n.use(initReactI18next).init({
  resources: { en: { translation: en }, th: { translation: th } },
  lng: initialLanguage(),
  fallbackLng: 'en',
  supportedLngs: ['en', 'th'],
  interpolation: { escapeValue: false }, // React escapes
  saveMissing: true,
  missingKeyHandler: (languages, _namespace, key) => {
    missingKeys.push(`${languages.join(',')}:${key}`);
  },
  initAsync: false,
});

/** Switches the language and remembers it on this device. */
export async function chooseLanguage(language: Language): Promise<void> {
  try {
    localStorage.setItem(STORED, language);
  } catch {
    // not remembered, still switched
  }
  await i18n.changeLanguage(language);
}

export const currentLanguage = (): Language => (isLanguage(i18n.language) ? i18n.language : 'en');
