// Which language the console speaks, and changing it. The order (decision 047): the signed-in user's stored
// language; else the last choice made on this device (the landing page's switch); else the browser's
// languages. A change takes effect at once: the catalogs of the new language load, <html lang> follows, and
// dates and numbers follow (formats.ts's default style).
import i18next from 'i18next';
import { useTranslation } from 'react-i18next';
import { setDefaultFormatLanguage } from '@careplane/shared/common/formats';
import {
  DEFAULT_LANGUAGE,
  isLanguage,
  pickLanguage,
  type Language,
} from '@careplane/shared/i18n/language-tags';
import type { User } from '@careplane/shared/users/users.contract';
import { sessionStore } from '../session.ts';

export const LANGUAGE_STORAGE_KEY = 'careplane.language';

/** The browser's preferred supported language. */
export function browserLanguage(): Language {
  if (typeof navigator === 'undefined') return DEFAULT_LANGUAGE;
  return pickLanguage(navigator.languages.length > 0 ? navigator.languages : [navigator.language]);
}

/** The language last chosen on this device, if any. */
export function rememberedLanguage(): Language | null {
  try {
    const stored = localStorage.getItem(LANGUAGE_STORAGE_KEY);
    return isLanguage(stored) ? stored : null;
  } catch {
    return null;
  }
}

function remember(language: Language) {
  try {
    localStorage.setItem(LANGUAGE_STORAGE_KEY, language);
  } catch {
    // Private mode without storage: the choice lasts as long as the page.
  }
}

/** The language to speak to this person: their account's choice, this device's, or their browser's. */
export function languageFor(user: Pick<User, 'language'> | null | undefined): Language {
  return user?.language ?? rememberedLanguage() ?? browserLanguage();
}

/** The language the console speaks now. */
export function currentLanguage(): Language {
  const language = i18next.resolvedLanguage ?? i18next.language;
  return isLanguage(language) ? language : DEFAULT_LANGUAGE;
}

/** What follows the console's language outside React: <html lang> (screen readers, fonts) and the formats. */
export function applyLanguageToPage(language: Language) {
  document.documentElement.lang = language;
  setDefaultFormatLanguage(language);
}

/** Speak `language` from now on, and remember it on this device (the landing page offers it next time). */
export async function changeLanguage(language: Language): Promise<void> {
  remember(language);
  if (currentLanguage() !== language) await i18next.changeLanguage(language);
}

/** What else each language needs before the screen turns to it (withCatalogs). */
const companions = new Map<string, (() => Promise<unknown>)[]>();

/**
 * Loads `load` with the catalogs of `language` from now on (app/i18n/i18n.ts's backend): i18next turns the
 * screen to a language once its catalogs have loaded, so what the screen needs besides texts (dayjs's month and
 * weekday names for the date pickers) is there for the first render in that language. A companion that fails
 * does not hold the texts back: whoever registered it decides what to show without it. Code outside the first
 * page registers, so the first page carries none of it. Returns the way to stop.
 */
export function withCatalogs(language: Language, load: () => Promise<unknown>): () => void {
  companions.set(language, [...companionsOf(language), load]);
  return () => {
    companions.set(
      language,
      companionsOf(language).filter((other) => other !== load),
    );
  };
}

/** What is loaded with the catalogs of `language`. */
export const companionsOf = (language: string) => companions.get(language) ?? [];

/** The current language in a component; it re-renders when the language changes. */
export function useLanguage(): Language {
  const { i18n } = useTranslation();
  const language = i18n.resolvedLanguage ?? i18n.language;
  return isLanguage(language) ? language : DEFAULT_LANGUAGE;
}

/**
 * Follows the session: when someone signs in, or their stored language changes, the console switches to it.
 * Signing out keeps the language on screen. Returns the unsubscribe.
 */
export function followSessionLanguage(): () => void {
  let seen: string | null = null;
  const check = () => {
    const user = sessionStore.getState().user;
    if (!user) {
      seen = null;
      return;
    }
    const key = `${user.id}|${user.language ?? ''}`;
    if (key === seen) return;
    seen = key;
    const language = languageFor(user);
    if (language !== currentLanguage()) void i18next.changeLanguage(language);
  };
  check();
  return sessionStore.subscribe(check);
}
