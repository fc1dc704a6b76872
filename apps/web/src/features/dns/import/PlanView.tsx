import type { AnswerOf, endpoints } from '@atalaya/contract';
import { Alert, List, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from '../../../lib/i18n.ts';

export type ZonePlan = AnswerOf<typeof endpoints.dns.importPreview>['plan'];
type RRset = ZonePlan['added'][number];

const line = (s: RRset) => `${s.name} ${s.ttl} ${s.type} ${s.values.join(' | ')}`;

/** What a file or a template will do, RRset by RRset, and the lines refused with why. */
export function PlanView({ plan }: { plan: ZonePlan }) {
  const { t } = useTranslation();
  const nothing = plan.added.length + plan.changed.length + plan.removed.length === 0;
  const section = (title: string, rows: string[], testId: string) =>
    rows.length > 0 && (
      <div data-testid={testId}>
        <Title order={5}>{title}</Title>
        <List size="sm" spacing={2}>
          {rows.map((row) => (
            <List.Item key={row} style={{ fontFamily: 'monospace', wordBreak: 'break-all' }}>
              {row}
            </List.Item>
          ))}
        </List>
      </div>
    );
  return (
    <Stack gap="sm">
      {nothing && <Text>{t('dns.plan_nothing')}</Text>}
      {section(t('dns.plan_added'), plan.added.map(line), 'plan-added')}
      {section(
        t('dns.plan_changed'),
        plan.changed.map((c) => `${line(c.before)} → ${c.after.ttl} ${c.after.values.join(' | ')}`),
        'plan-changed',
      )}
      {section(t('dns.plan_removed'), plan.removed.map(line), 'plan-removed')}
      {plan.refused.length > 0 && (
        <Alert color="yellow" title={t('dns.plan_refused')} data-testid="plan-refused">
          <List size="sm" spacing={2}>
            {plan.refused.map((r) => (
              <List.Item key={`${r.line} ${r.source}`}>
                {t('dns.plan_line', { line: r.line })} <code>{r.source}</code>: {r.reason}
              </List.Item>
            ))}
          </List>
        </Alert>
      )}
    </Stack>
  );
}
