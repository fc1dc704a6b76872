import type { ActivityEvent } from '@atalaya/contract';
import { Anchor, Badge, Code, Group, Stack, Table, Text } from '@mantine/core';
import { formatDateTime } from '../../lib/format.ts';
import { useTranslation } from '../../lib/i18n.ts';
import { Link } from '../../lib/router/links.tsx';

/** An account event's name in words; a call keeps its name from the endpoint table, as the log stores it. */
function useActionLabel() {
  const { t, i18n } = useTranslation();
  return (action: string) => (i18n.exists(`activity.action_${action}`) ? t(`activity.action_${action}`) : action);
}

/** One event: when, who, on what, the before → after of each field, and where from. */
export function EventRow({ event }: { event: ActivityEvent }) {
  const { t, i18n } = useTranslation();
  const actionLabel = useActionLabel();
  const failed = event.outcome !== 'success';
  return (
    <Table.Tr data-testid="activity-event">
      <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDateTime(event.at, i18n.language)}</Table.Td>
      <Table.Td>
        <Stack gap={2}>
          <Text size="sm" className="break-anywhere">
            {event.actor.name}
          </Text>
          <Badge size="xs" variant="light" color={event.actor.kind === 'user' ? 'gray' : 'grape'}>
            {t(`activity.kind_${event.actor.kind}`)}
          </Badge>
        </Stack>
      </Table.Td>
      <Table.Td>
        <Stack gap={2}>
          {event.item && (
            <Anchor component={Link} to={`/admin/${event.item.id}/`} size="sm" className="break-anywhere">
              {event.item.reference}
            </Anchor>
          )}
          <Text size="xs" c="dimmed">
            {t(`activity.area_${event.area}`, { defaultValue: event.area })}
          </Text>
        </Stack>
      </Table.Td>
      <Table.Td>
        <Group gap={4} wrap="nowrap">
          <Text size="sm">{actionLabel(event.action)}</Text>
          {failed && (
            <Badge size="xs" color="red" variant="light">
              {t(`activity.outcome_${event.outcome}`, { defaultValue: event.outcome })}
            </Badge>
          )}
        </Group>
      </Table.Td>
      <Table.Td>
        <Stack gap={2}>
          {event.changes.map((c) => (
            <Text key={c.field} size="xs" className="break-anywhere">
              <Code>{c.field}</Code> {c.before ?? '∅'} → {c.after ?? '∅'}
            </Text>
          ))}
        </Stack>
      </Table.Td>
      <Table.Td>
        <Text size="xs">{event.ip}</Text>
        <Text size="xs" c="dimmed">
          {event.agent}
        </Text>
      </Table.Td>
    </Table.Tr>
  );
}
