import { APP_CATEGORIES, type HostingApplication, LIMITS } from '@atalaya/contract';
import { Badge, Card, Group, Image, SimpleGrid, Stack, Text, TextInput, UnstyledButton } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from '../../../lib/i18n.ts';
import { filterApps, sizeInMb } from './filter.ts';

interface Props {
  apps: HostingApplication[];
  token: string;
  onPick: (app: HostingApplication) => void;
}

/** Step 1: the catalogue, filtered 300 ms after the last keystroke, featured apps first. */
export function AppPicker({ apps, token, onPick }: Props) {
  const { t } = useTranslation();
  const [query, setQuery] = useState('');
  const [debounced] = useDebouncedValue(query, LIMITS.appFilterDebounceMs);
  const categoryLabel = useCallback((c: string) => ((APP_CATEGORIES as readonly string[]).includes(c) ? t(`sites.category_${c}`) : c), [t]);
  const shown = useMemo(
    () =>
      filterApps(apps, debounced, categoryLabel).sort(
        (a, b) => Number(b.featured) - Number(a.featured) || a.fullName.localeCompare(b.fullName),
      ),
    [apps, debounced, categoryLabel],
  );
  return (
    <Stack gap="sm">
      <TextInput
        type="search"
        aria-label={t('sites.app_filter')}
        placeholder={t('sites.app_filter')}
        value={query}
        onChange={(e) => setQuery(e.currentTarget.value)}
        data-autofocus
      />
      {shown.length === 0 && <Text c="dimmed">{t('sites.no_apps')}</Text>}
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm" role="list" aria-label={t('sites.apps_label')}>
        {shown.map((app) => (
          <div role="listitem" key={app.id}>
            <UnstyledButton
              onClick={() => onPick(app)}
              aria-label={t('sites.choose_app', { name: app.fullName })}
              w="100%"
              h="100%"
              // Shown so the customer knows it exists, but its package is not configured: nothing to install.
              disabled={!app.available}
            >
              <Card withBorder padding="sm" h="100%" opacity={app.available ? 1 : 0.6}>
                <Group wrap="nowrap" align="start" gap="sm">
                  <Image src={`${token}${app.id}/logo/`} alt="" w={40} h={40} fit="contain" />
                  <Stack gap={2} style={{ minWidth: 0 }}>
                    <Text fw={600}>{app.fullName}</Text>
                    <Text size="xs" c="dimmed">
                      {categoryLabel(app.category)} · {app.type.toUpperCase()} · {t('sites.app_size', { size: sizeInMb(app.size) })} ·{' '}
                      {t('sites.app_licence', { licence: app.licence })}
                    </Text>
                    <Text size="sm" lineClamp={2}>
                      {app.description}
                    </Text>
                    <Group gap={4}>
                      {app.featured && <Badge size="xs">{t('sites.featured')}</Badge>}
                      {!app.available && (
                        <Badge size="xs" color="gray">
                          {t('sites.app_unavailable')}
                        </Badge>
                      )}
                      {app.isBBDDApplication && (
                        <Badge size="xs" variant="outline">
                          {t('sites.needs_db')}
                        </Badge>
                      )}
                    </Group>
                  </Stack>
                </Group>
              </Card>
            </UnstyledButton>
          </div>
        ))}
      </SimpleGrid>
    </Stack>
  );
}
