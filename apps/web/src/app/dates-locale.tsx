// The date pickers' language: Mantine's pickers name months and weekdays through dayjs, in the console's
// language. English is dayjs's own. Thai's locale is a chunk of its own that loads with the Thai catalogs
// (withCatalogs), so a switch to Thai turns the screen and the pickers together; should the screen be Thai
// before it has arrived (the console opened in Thai), the pickers wait for it rather than name weekdays in
// English. Only signed-in pages have pickers, so this lives with them and the first page carries none of it.
import { DatesProvider } from '@mantine/dates';
import { use, type ReactNode } from 'react';
import { importWithReload } from '@/lib/chunk-reload.ts';
import { currentLanguage, useLanguage, withCatalogs } from '@/lib/i18n/language.ts';

let thaiLoading: Promise<boolean> | null = null;
const importThai = importWithReload(() => import('dayjs/locale/th'));

/**
 * Loads dayjs's Thai names once. False when the chunk could not be had (a new deployment replaced it: the page
 * reloads once for it, spec §8); the pickers then name weekdays in English until the page is loaded again.
 */
export function loadThaiDates(): Promise<boolean> {
  thaiLoading ??= importThai().then(
    () => true,
    () => false,
  );
  return thaiLoading;
}

withCatalogs('th', loadThaiDates);
// Thai already on screen when the signed-in pages load: fetch the names alongside their chunk.
if (currentLanguage() === 'th') void loadThaiDates();

export function ConsoleDatesProvider({ children }: { children: ReactNode }) {
  const language = useLanguage();
  // Suspends until the names are there; only a chunk that cannot be had leaves the pickers in English. `use` is
  // asked every time the screen is Thai (the promise is one and the same, settled or not): a render that
  // suspended on it must call it again when it resumes.
  const thai = language === 'th' && use(loadThaiDates());
  return <DatesProvider settings={{ locale: thai ? 'th' : 'en' }}>{children}</DatesProvider>;
}
