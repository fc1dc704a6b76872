import { Tooltip, VisuallyHidden } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from '../../lib/i18n.ts';

/**
 * An action shown to a user who may not take it (read only on its area): its current state, with
 * "Action not permitted" as tooltip and, for screen readers, as part of its text.
 */
export function NotPermitted({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const label = t('shell.action_not_permitted');
  return (
    <Tooltip label={label} withArrow>
      <span data-testid="not-permitted" style={{ display: 'inline-flex' }}>
        {children}
        <VisuallyHidden>{label}</VisuallyHidden>
      </span>
    </Tooltip>
  );
}
