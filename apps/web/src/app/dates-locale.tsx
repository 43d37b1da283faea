// The date pickers' language: Mantine's pickers name months and weekdays through dayjs, in the console's
// language. English is dayjs's own; Thai's locale loads when Thai is first spoken, and until it has loaded the
// pickers stay in English rather than wait. Only signed-in pages have pickers, so this lives with them.
import { DatesProvider } from '@mantine/dates';
import { useEffect, useState, type ReactNode } from 'react';
import { useLanguage } from '@/lib/i18n/language.ts';

let thaiLoaded: Promise<unknown> | null = null;
const loadThai = () => (thaiLoaded ??= import('dayjs/locale/th'));

export function ConsoleDatesProvider({ children }: { children: ReactNode }) {
  const language = useLanguage();
  const [thaiReady, setThaiReady] = useState(false);
  useEffect(() => {
    if (language !== 'th' || thaiReady) return;
    let live = true;
    loadThai().then(
      () => live && setThaiReady(true),
      () => undefined, // The pickers keep English month names: better than no picker.
    );
    return () => {
      live = false;
    };
  }, [language, thaiReady]);
  const locale = language === 'th' && thaiReady ? 'th' : 'en';
  return <DatesProvider settings={{ locale }}>{children}</DatesProvider>;
}
