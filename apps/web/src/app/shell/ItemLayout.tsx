import { LIMITS } from '@atalaya/contract';
import { Anchor, Group, Loader, Title } from '@mantine/core';
import { useDelayedFlag } from '../../components/ui/useDelayedFlag.ts';
import { usePageTitle } from '../../components/ui/usePageTitle.ts';
import { useTranslation } from '../../lib/i18n.ts';
import { usePermissions } from '../../lib/permissions.ts';
import { useParams } from '../../lib/router/hooks.ts';
import { Link, Outlet } from '../../lib/router/links.tsx';
import { NotFoundView } from './NotFoundView.tsx';
import { StatusIndicators } from './StatusIndicators.tsx';

/** /admin/{id}/…: the item's permissions for every page under it, its title and status indicators. */
export default function ItemLayout() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const valid = /^\d+$/.test(id);
  const { data, isError, isPending } = usePermissions(valid ? id : '0');
  const slow = useDelayedFlag(isPending, LIMITS.skeletonDelayMs);
  usePageTitle(data?.reference);
  if (!valid || isError) return <NotFoundView />;
  if (!data) return slow ? <Loader aria-label={t('main.loading')} /> : null;
  return (
    <>
      <Group justify="space-between" mb="md" gap="sm" wrap="wrap">
        <Title order={1} size="h3" className="break-anywhere">
          {data.reference}
        </Title>
        <Group gap="sm">
          <StatusIndicators item={data} />
          {/* The item's own history: the Activity page filtered by this item (docs/behaviour/activity.md). */}
          <Anchor component={Link} to={`/admin/activity/?item=${data.id}`} size="sm">
            {t('shell.history')}
          </Anchor>
        </Group>
      </Group>
      <Outlet />
    </>
  );
}
