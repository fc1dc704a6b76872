import { canAct, type PermissionMap, SCREEN_AREA } from '@atalaya/contract';
import { fetchData } from '../../../lib/api.ts';
import { tellOtherTabs } from '../../../lib/broadcast.ts';
import { endpoints } from '../../../lib/endpoints.ts';

/** docs/behaviour/shell-session-domains.md#states: the first write permission in the order domain, service, mail, DNS zone picks the page. */
export function landingPath(itemId: number, map: PermissionMap): string {
  if (canAct(map, SCREEN_AREA.domain)) return `/admin/${itemId}/domain/`;
  if (canAct(map, SCREEN_AREA.hosting)) return `/admin/${itemId}/service/`;
  if (canAct(map, SCREEN_AREA.mail)) return `/admin/${itemId}/mail/`;
  if (canAct(map, SCREEN_AREA.dnsZone)) return `/admin/${itemId}/service/dns/`;
  return '/admin/';
}

/** Signed in: other tabs reload, and this one loads the landing page afresh (docs/behaviour/shell-session-domains.md#states). */
export async function enterPanel(domainID: number | null | undefined, mustEnrol = false) {
  tellOtherTabs({ type: 'session' });
  // The realm requires a second factor the user has not enrolled: Preferences first (decision 021).
  let target = mustEnrol ? '/admin/preferences/' : '/admin/';
  if (domainID && !mustEnrol) {
    const item = await fetchData(endpoints.account.permission, { id: domainID }).catch(() => null);
    if (item) target = landingPath(domainID, item.permissions);
  }
  window.location.assign(target);
}
