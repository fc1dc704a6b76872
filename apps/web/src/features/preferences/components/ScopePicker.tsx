import { AREAS, type Area, isAbove, LEVELS, type Level, type PermissionMap } from '@atalaya/contract';
import { SegmentedControl, Table, Text } from '@mantine/core';
import { useTranslation } from '../../../lib/i18n.ts';

interface Props {
  value: PermissionMap;
  /** The user's highest level per area: a level above it is not offered. */
  ceiling: Record<Area, Level> | undefined;
  onChange: (value: PermissionMap) => void;
  error?: string;
}

/** One row per permission area, each disabled, read or write, never above the user's own level. */
export function ScopePicker({ value, ceiling, onChange, error }: Props) {
  const { t } = useTranslation();
  return (
    <div>
      <Text fw={500} size="sm">
        {t('tokens.scope')}
      </Text>
      <Table withRowBorders={false} verticalSpacing={2} aria-label={t('tokens.scope')}>
        <Table.Tbody>
          {AREAS.filter((area) => ceiling?.[area] !== 'disabled').map((area) => (
            <Table.Tr key={area}>
              <Table.Td>
                <Text size="sm">{t(`tokens.area_${area}`)}</Text>
              </Table.Td>
              <Table.Td>
                <SegmentedControl
                  size="xs"
                  aria-label={t(`tokens.area_${area}`)}
                  value={value[area] ?? 'disabled'}
                  onChange={(level) => onChange({ ...value, [area]: level as Level })}
                  data={LEVELS.map((level) => ({
                    value: level,
                    label: t(`tokens.level_${level}`),
                    disabled: isAbove(level, ceiling?.[area]),
                  }))}
                />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {error && (
        <Text c="red" size="xs" role="alert">
          {error}
        </Text>
      )}
    </div>
  );
}
