import { LIMITS } from '@atalaya/contract';
import { Button, Stack } from '@mantine/core';
import { type ReactNode, useState } from 'react';
import { useTranslation } from '../../../lib/i18n.ts';

/** A summary list shows 2 items, then a show-more button for the rest. */
export function ShowMore<T>({ items, render, label }: { items: readonly T[]; render: (item: T) => ReactNode; label: string }) {
  const { t } = useTranslation();
  const [all, setAll] = useState(false);
  const shown = all ? items : items.slice(0, LIMITS.summaryItems);
  return (
    <Stack gap={4}>
      {/* Only the entries are the list: a button among them is not a list item (WCAG 1.3.1). */}
      <Stack gap={4} aria-label={label} role="list">
        {shown.map(render)}
      </Stack>
      {items.length > LIMITS.summaryItems && (
        <Button variant="subtle" size="compact-sm" onClick={() => setAll(!all)} style={{ alignSelf: 'flex-start' }}>
          {all ? t('domain.show_less') : t('domain.show_more', { count: items.length - LIMITS.summaryItems })}
        </Button>
      )}
    </Stack>
  );
}
