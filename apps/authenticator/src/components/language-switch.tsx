// The language switch of the header: each language offered under its own name, the choice kept on this device.
import { SegmentedControl } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { isLanguage, languageNames, languages } from '@careplane/shared/i18n/languages';
import { chooseLanguage, currentLanguage } from '../i18n/i18n.ts';

export function LanguageSwitch() {
  const { t } = useTranslation();
  return (
    <SegmentedControl
      size="xs"
      style={{ flexShrink: 0 }}
      aria-label={t('app.language')}
      value={currentLanguage()}
      onChange={(value) => {
        if (isLanguage(value)) void chooseLanguage(value);
      }}
      data={languages.map((language) => ({
        value: language,
        label: <span lang={language}>{languageNames[language]}</span>,
      }))}
    />
  );
}
