import { ACTIVITY_AREAS, LIMITS } from '@atalaya/contract';
import { Button, Group, Select, TextInput } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { useState } from 'react';
import { fieldError } from '../../components/ui/fieldErrors.ts';
import { useTranslation } from '../../lib/i18n.ts';
import { useItemChoices } from '../../lib/useItemChoices.ts';
import type { Filter } from './activityQuery.ts';

interface Props {
  values: Partial<Record<Filter, string>>;
  /** Sets one filter (empty: removed) and goes back to the first page. */
  onChange: (filter: Filter, value: string) => void;
  onClear: () => void;
  /** The last refusal of the list, whose field errors show under the filters. */
  error: unknown;
}

/** The Activity page's filters: item, area, who, and a range of days. */
export function Filters({ values, onChange, onClear, error }: Props) {
  const { t } = useTranslation();
  const [itemSearch, setItemSearch] = useState('');
  const items = useItemChoices(itemSearch);
  const [actor, setActor] = useState(values.actor ?? '');
  const applyActor = useDebouncedCallback((value: string) => onChange('actor', value), LIMITS.appFilterDebounceMs);
  const any = { value: '', label: t('activity.any') };
  return (
    <Group align="flex-start" gap="sm" wrap="wrap" role="search" aria-label={t('activity.filters')}>
      <Select
        label={t('activity.item')}
        data={[any, ...items]}
        value={values.item ?? ''}
        onChange={(v) => onChange('item', v ?? '')}
        searchable
        onSearchChange={setItemSearch}
        allowDeselect={false}
        error={fieldError(error, 'item')}
        w={200}
      />
      <Select
        label={t('activity.area')}
        data={[any, ...ACTIVITY_AREAS.map((a) => ({ value: a, label: t(`activity.area_${a}`) }))]}
        value={values.area ?? ''}
        onChange={(v) => onChange('area', v ?? '')}
        allowDeselect={false}
        error={fieldError(error, 'area')}
        w={220}
      />
      <TextInput
        label={t('activity.actor')}
        placeholder={t('activity.actor_hint')}
        value={actor}
        onChange={(event) => {
          setActor(event.currentTarget.value);
          applyActor(event.currentTarget.value);
        }}
        error={fieldError(error, 'actor')}
        w={200}
      />
      <TextInput
        type="date"
        label={t('activity.from')}
        value={values.from ?? ''}
        onChange={(event) => onChange('from', event.currentTarget.value)}
        error={fieldError(error, 'from')}
      />
      <TextInput
        type="date"
        label={t('activity.to')}
        value={values.to ?? ''}
        onChange={(event) => onChange('to', event.currentTarget.value)}
        error={fieldError(error, 'to')}
      />
      <Button
        variant="subtle"
        mt={24}
        onClick={() => {
          setActor('');
          onClear();
        }}
      >
        {t('activity.clear')}
      </Button>
    </Group>
  );
}
