import { ThemeIcon } from '@mantine/core';
import { useTranslation } from '../../../lib/i18n.ts';

/** The read-only view of a domain action (docs/behaviour/shell-session-domains.md#states): a green check or a red cross. */
export function Flag({ on, label }: { on: boolean; label: string }) {
  const { t } = useTranslation();
  return (
    <ThemeIcon
      color={on ? 'green' : 'red'}
      variant="light"
      radius="xl"
      size="md"
      role="img"
      aria-label={`${label}: ${t(on ? 'domain.on' : 'domain.off')}`}
    >
      <span aria-hidden="true">{on ? '✓' : '✗'}</span>
    </ThemeIcon>
  );
}
