import { THEMES, type Theme } from '@atalaya/contract';
import { SegmentedControl, useMantineColorScheme } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { saveTheme } from '../../lib/preferences.ts';
import { fromMantine } from '../../lib/theme.ts';

/** System / light / dark; applied at once, in other tabs too (storage event on `theme`). */
export function ThemeSelect({ signedIn }: { signedIn: boolean }) {
  const { t } = useTranslation();
  const { colorScheme, setColorScheme } = useMantineColorScheme();
  const change = (value: string) => {
    const theme = value as Theme;
    setColorScheme(theme === 'system' ? 'auto' : theme);
    void saveTheme(theme, signedIn);
  };
  return (
    <SegmentedControl
      aria-label={t('shell.theme')}
      size="xs"
      value={fromMantine(colorScheme)}
      onChange={change}
      data={THEMES.map((theme) => ({ value: theme, label: t(`shell.theme_${theme}`) }))}
    />
  );
}
