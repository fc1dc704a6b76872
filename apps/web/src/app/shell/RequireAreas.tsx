import type { Area } from '@atalaya/contract';
import { canSeeAny, type ItemPermissions, usePermissions } from '../../lib/permissions.ts';
import { useParams } from '../../lib/router/hooks.ts';
import { Outlet } from '../../lib/router/links.tsx';
import { NotFoundView } from './NotFoundView.tsx';

type Kind = 'domain' | 'service' | 'mail' | 'sites';
const HAS: Record<Kind, (item: ItemPermissions) => boolean> = {
  domain: (item) => item.hasDomain,
  service: (item) => item.hasService,
  mail: (item) => item.hasMail,
  // Sites are never offered for a parking service (docs/behaviour/service-area-dns.md#screens).
  sites: (item) => item.hasService && !item.service.isRedirAndParking,
};

/**
 * A page of an item shows the 404 view unless one of its areas is visible and, given a `kind`, the
 * item has that kind (docs/behaviour/shell-session-domains.md#permissions).
 */
export function RequireAreas({ areas, kind }: { areas: readonly Area[]; kind?: Kind }) {
  const { id = '' } = useParams();
  const { data, isError } = usePermissions(id);
  if (isError) return <NotFoundView />;
  if (!data) return null;
  const present = kind ? HAS[kind](data) : true;
  return present && canSeeAny(data.permissions, areas) ? <Outlet /> : <NotFoundView />;
}
