// The language switch of the top bar and the landing page: English or ไทย, each named in itself. It changes the
// console at once; when someone is signed in, the choice is stored on their account too (decision 047). On a
// phone the top bar has no room for it: the Areas menu offers the same choice (useChooseLanguage), the admin
// menu's drawer holds the switch, and /account has it at every width.
import { SegmentedControl } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useTranslation } from 'react-i18next';
import { isLanguage, languageNames, languages, type Language } from '@careplane/shared/i18n/language-tags';
import { changeLanguage, useLanguage } from '@/lib/i18n/language.ts';
import { sessionStore, useSession } from '@/lib/session.ts';

const options = languages.map((language) => ({
  value: language,
  label: <span lang={language}>{languageNames[language]}</span>,
}));

/** Switches the console to a language, and stores it on the account of whoever is signed in. */
export function useChooseLanguage() {
  const { t } = useTranslation();
  const signedIn = useSession((state) => state.loginStatus === 'approved' && state.user !== null);

  const choose = async (chosen: Language) => {
    const user = sessionStore.getState().user;
    // The session's copy first, so following the session does not switch back while the server answers.
    if (signedIn && user) sessionStore.refreshUser({ ...user, language: chosen });
    await changeLanguage(chosen);
    if (!signedIn) return;
    try {
      // The contract (and zod with it) loads only for someone signed in: the landing page stays light.
      const { saveLanguagePreference } = await import('../api/preferences.ts');
      await saveLanguagePreference(chosen);
    } catch {
      notifications.show({ color: 'yellow', message: t('language.notSaved') });
    }
  };
  return choose;
}

/**
 * The switch. `visibleFrom` / `hiddenFrom`: shown only from, or only below, a width (the top bar shows it from
 * xs up; the admin menu's drawer below xs, where the top bar has no room for it).
 */
export function LanguageSwitch({ visibleFrom, hiddenFrom }: { visibleFrom?: 'xs'; hiddenFrom?: 'xs' }) {
  const { t } = useTranslation();
  const language = useLanguage();
  const choose = useChooseLanguage();
  return (
    <SegmentedControl
      size="xs"
      aria-label={t('language.label')}
      value={language}
      onChange={(value) => {
        if (isLanguage(value)) void choose(value);
      }}
      data={options}
      style={{ flexShrink: 0 }}
      visibleFrom={visibleFrom}
      hiddenFrom={hiddenFrom}
    />
  );
}
