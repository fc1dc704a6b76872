import { LANGUAGES, toLanguage } from '@atalaya/contract';
import { NativeSelect } from '@mantine/core';
import { useTranslation } from '../../lib/i18n.ts';
import { changeLanguage } from '../../lib/preferences.ts';

/** Each language named in itself, so a user lost in a foreign one still finds their own. */
const NAMES = { es: 'Español', en: 'English', ca: 'Català' } as const;

export function LanguageSelect({ signedIn, label }: { signedIn: boolean; label?: boolean }) {
  const { t, i18n } = useTranslation();
  return (
    <NativeSelect
      size="xs"
      label={label ? t('shell.language') : undefined}
      aria-label={t('shell.language')}
      value={toLanguage(i18n.language)}
      onChange={(event) => void changeLanguage(toLanguage(event.currentTarget.value), signedIn)}
      data={LANGUAGES.map((language) => ({ value: language, label: NAMES[language] }))}
    />
  );
}
