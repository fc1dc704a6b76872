import type { TextInputProps } from '@mantine/core';

/** Wider than the average glyph of the 14 px suffix, so the domain never runs past the border. */
const CHAR_PX = 8.5;
const MAX_PX = 200;

/**
 * The fixed part after a name field (`@example.com`, `.example.com`): small, dimmed, on one line,
 * cut with an ellipsis (full text as title) when the domain is longer than the room for it.
 */
export function nameSuffix(suffix: string): Pick<TextInputProps, 'rightSection' | 'rightSectionWidth' | 'rightSectionPointerEvents'> {
  return {
    rightSection: (
      <span
        title={suffix}
        style={{
          fontSize: 'var(--mantine-font-size-sm)',
          color: 'var(--mantine-color-dimmed)',
          whiteSpace: 'nowrap',
          overflow: 'hidden',
          textOverflow: 'ellipsis',
          maxWidth: '100%',
          paddingInline: 6,
        }}
      >
        {suffix}
      </span>
    ),
    rightSectionWidth: Math.min(MAX_PX, Math.ceil(12 + suffix.length * CHAR_PX)),
    rightSectionPointerEvents: 'none',
  };
}
