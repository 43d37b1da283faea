// The console's i18next: the catalogs of apps/web/src/**/i18n, loaded per language and namespace on demand,
// and react-i18next on top. Keys are type-checked: each English catalog declares its namespace's shape
// (ResourceNamespaceMap), so t('prescriptions:queue.empty') fails `tsc` when the key does not exist.
import i18next, { type BackendModule, type InitOptions, type Resource } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { languages, type Language } from '@careplane/shared/i18n/language-tags';
import { applyLanguageToPage, companionsOf, withCatalogs } from '@/lib/i18n/language.ts';
import { loadCatalog, namespaces } from './catalogs.ts';

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'common';
    returnNull: false;
  }
}

/** What every page reads: the shell and the resource kit. Each page's own namespaces load with its route. */
export const BASE_NAMESPACES = ['common', 'kit'] as const;

/** Reads catalogs through dynamic imports: each language of each namespace is a chunk of its own. */
export const catalogBackend: BackendModule = {
  type: 'backend',
  init: () => undefined,
  read(language, namespace, callback) {
    // What the screen needs besides texts comes with them (withCatalogs); one that fails holds nothing back.
    const others = companionsOf(language).map((load) => load().catch(() => undefined));
    Promise.all([loadCatalog(language, namespace), ...others]).then(
      ([texts]) => callback(null, texts),
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), null),
    );
  },
};

/** The options both the console and its tests start i18next with. */
export const i18nOptions = (language: Language): InitOptions => ({
  lng: language,
  supportedLngs: [...languages],
  // Thai has every key (its catalogs are typed against the English ones), so nothing falls back, and a
  // page never loads a second language.
  fallbackLng: false,
  load: 'currentOnly',
  defaultNS: 'common',
  ns: [...BASE_NAMESPACES],
  // React escapes what it renders.
  interpolation: { escapeValue: false },
  returnNull: false,
  react: { useSuspense: true },
});

/**
 * Thai letters come from the Sarabun web font where the device has none of its own (app/thai-font.css). Text
 * painted in Thai before the font has arrived can stay as boxes in Chromium even once it has. Thai shows in
 * either language (people's names in the demo data and in real records, ไทย in the language switch), so the two
 * weights are fetched at start whatever the language, and the console's first page waits for them (at most a
 * second, beside the runtime configuration and the catalogs it waits for anyway); a page turned to Thai waits
 * for them too, which costs nothing once they are there.
 */
function loadThaiFont(): Promise<unknown> {
  // Test DOMs have no font loading.
  if (typeof document === 'undefined' || typeof document.fonts?.load !== 'function') return Promise.resolve();
  const loaded = Promise.all(
    ['400', '700'].map((weight) => document.fonts.load(`${weight} 1em Sarabun`, 'ก')),
  );
  return Promise.race([loaded.catch(() => undefined), new Promise((resolve) => setTimeout(resolve, 1000))]);
}

// Turning the screen to Thai waits for the font as it waits for the Thai texts: a page switched to Thai from the
// menu painted its headings and tabs as boxes, and they stayed so.
withCatalogs('th', loadThaiFont);

let started = false;
function followPage() {
  if (started) return;
  started = true;
  i18next.on('languageChanged', (language) => {
    if (language === 'en' || language === 'th') applyLanguageToPage(language);
    if (language === 'th') void loadThaiFont();
  });
}

/** Starts i18next in `language` with the base namespaces loaded, and the Thai font (in either language). */
export async function initI18n(language: Language) {
  followPage();
  applyLanguageToPage(language);
  await Promise.all([
    i18next.use(catalogBackend).use(initReactI18next).init(i18nOptions(language)),
    loadThaiFont(),
  ]);
}

/** Starts i18next with every catalog given at once (the console's tests), in `language`. */
export async function initI18nWith(language: Language, resources: Resource) {
  followPage();
  applyLanguageToPage(language);
  await i18next
    .use(initReactI18next)
    .init({ ...i18nOptions(language), ns: Object.keys(resources[language] ?? {}), resources });
}

/** Loads namespaces of the current language before a page that reads them renders; unknown names are skipped. */
export async function loadNamespaces(names: readonly string[]) {
  const known = names.filter((name) => namespaces.includes(name));
  if (known.length > 0) await i18next.loadNamespaces(known);
}

/** After sign-in every area is a click away: load all namespaces of the language, so no page waits for one. */
export const loadAllNamespaces = () => loadNamespaces(namespaces);
