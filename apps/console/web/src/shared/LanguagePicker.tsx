import { NativeSelect } from '@mantine/core';

import { Language, LANGUAGES, useI18n } from '../i18n/i18n';

/** The language of the console, remembered in this browser. */
export function LanguagePicker() {
  const { t, language, setLanguage } = useI18n();
  return (
    <NativeSelect
      id="language"
      size="xs"
      label={t('lang.label')}
      data={LANGUAGES}
      value={language}
      onChange={(e) => setLanguage(e.currentTarget.value as Language)}
    />
  );
}
