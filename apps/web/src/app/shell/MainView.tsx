import { canSee, SCREEN_AREA } from '@atalaya/contract';
import { type ItemPermissions, usePermissions } from '../../lib/permissions.ts';
import { useParams } from '../../lib/router/hooks.ts';
import { Navigate } from '../../lib/router/links.tsx';
import { NotFoundView } from './NotFoundView.tsx';

/** The page an item opens on: domain, else service, else mail, whichever it has and may be seen. */
export function mainPathOf(item: ItemPermissions): string | null {
  const map = item.permissions;
  if (item.hasDomain && canSee(map, SCREEN_AREA.domain)) return 'domain/';
  if (item.hasService && canSee(map, SCREEN_AREA.hosting)) return 'service/';
  if (item.hasMail && canSee(map, SCREEN_AREA.mail)) return 'mail/';
  if (item.hasService && canSee(map, SCREEN_AREA.dnsZone)) return 'service/dns/';
  return null;
}

/** /admin/{id}/: loads the item's permissions and redirects (docs/behaviour/shell-session-domains.md#item-main-view); a failure is the 404 view. */
export default function MainView() {
  const { id = '' } = useParams();
  const { data, isError } = usePermissions(id);
  if (isError) return <NotFoundView />;
  if (!data) return null;
  const path = mainPathOf(data);
  return path ? <Navigate to={`/admin/${id}/${path}`} replace /> : <NotFoundView />;
}
