import { PALETTE, type PaletteColor } from '@atalaya/contract';
import { CheckIcon, ColorSwatch, Group } from '@mantine/core';
import { useTranslation } from '../../../lib/i18n.ts';
import { swatchOf } from '../../../lib/palette.ts';
import { changeColor } from '../../../lib/preferences.ts';
import { useColor } from '../../../lib/theme.ts';

/** The 22 named colours as a radio group; the choice applies at once, in other tabs too. */
export function ColorPalette() {
  const { t } = useTranslation();
  const current = useColor();
  const pick = (color: PaletteColor) => void changeColor(color, true);
  return (
    <Group gap={8} role="radiogroup" aria-label={t('shell.color')}>
      {PALETTE.map((color) => (
        <ColorSwatch
          key={color}
          component="button"
          type="button"
          role="radio"
          aria-checked={color === current}
          aria-label={color}
          title={color}
          color={swatchOf(color)}
          onClick={() => pick(color)}
          style={{ cursor: 'pointer', color: '#fff' }}
        >
          {color === current && <CheckIcon size={12} />}
        </ColorSwatch>
      ))}
    </Group>
  );
}
