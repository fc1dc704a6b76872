import { THEMES, type Theme } from '@atalaya/contract';
import { NativeSelect, useMantineColorScheme } from '@mantine/core';
import { useTranslation } from '../../lib/i18n.ts';
import { saveTheme } from '../../lib/preferences.ts';
import { fromMantine } from '../../lib/theme.ts';

/** System / light / dark; applied at once, in other tabs too (storage event on `theme`). */
export function ThemeSelect({ signedIn, label }: { signedIn: boolean; label?: boolean }) {
  const { t } = useTranslation();
  const { colorScheme, setColorScheme } = useMantineColorScheme();
  const change = (theme: Theme) => {
    setColorScheme(theme === 'system' ? 'auto' : theme);
    void saveTheme(theme, signedIn);
  };
  return (
    <NativeSelect
      size="xs"
      label={label ? t('shell.theme') : undefined}
      aria-label={t('shell.theme')}
      value={fromMantine(colorScheme)}
      onChange={(event) => change(event.currentTarget.value as Theme)}
      data={THEMES.map((theme) => ({ value: theme, label: t(`shell.theme_${theme}`) }))}
    />
  );
}
