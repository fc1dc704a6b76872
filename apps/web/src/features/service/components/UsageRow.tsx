import { formatBytes, type UsagePair, usagePercent } from '@atalaya/contract';
import { Group, Progress, Stack, Text, Tooltip } from '@mantine/core';

/** used / limit in 1024-based units, the percent (two decimals, zeros trimmed) as tooltip (docs/behaviour/service-area-dns.md#constants). */
export function UsageRow({ label, usage, count }: { label: string; usage: UsagePair; count?: boolean }) {
  const percent = usagePercent(usage.used, usage.limit);
  const text = count ? `${usage.used} / ${usage.limit}` : `${formatBytes(usage.used)} / ${formatBytes(usage.limit)}`;
  return (
    <Stack gap={4}>
      <Group justify="space-between">
        <Text size="sm">{label}</Text>
        <Tooltip label={`${percent}%`}>
          <Text size="sm" fw={500}>
            {text}
          </Text>
        </Tooltip>
      </Group>
      <Progress
        value={Math.min(100, Number(percent))}
        aria-label={`${label}: ${percent}%`}
        color={Number(percent) > 90 ? 'red' : undefined}
      />
    </Stack>
  );
}
