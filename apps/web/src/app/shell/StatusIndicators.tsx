import { SCREEN_AREA } from '@atalaya/contract';
import { Badge, Group, Tooltip } from '@mantine/core';
import { EXPIRED, VALID } from '../../components/ui/expiryColours.ts';
import { formatDate, isExpired } from '../../lib/format.ts';
import { useTranslation } from '../../lib/i18n.ts';
import { canSee, type ItemPermissions } from '../../lib/permissions.ts';

interface Indicator {
  label: string;
  expireTS: number;
}

/** Domain, hosting or parking, mail and DNS zone; mail and DNS reuse the service expiry (docs/behaviour/shell-session-domains.md#page-frame). */
export function indicatorsOf(item: ItemPermissions): Indicator[] {
  const map = item.permissions;
  const list: Indicator[] = [];
  if (item.hasDomain && item.domain.expireTS) list.push({ label: 'shell.domain', expireTS: item.domain.expireTS });
  const service = item.service;
  if (item.hasService && service.expireTS) {
    list.push({ label: service.isRedirAndParking ? 'shell.parking' : 'shell.hosting', expireTS: service.expireTS });
    if (canSee(map, SCREEN_AREA.mail) && item.hasMail) list.push({ label: 'shell.mail', expireTS: service.expireTS });
    if (canSee(map, SCREEN_AREA.dnsZone)) list.push({ label: 'shell.dns_zone', expireTS: service.expireTS });
  }
  return list;
}

/** Red when expired, green otherwise, the expiry date as tooltip. */
export function StatusIndicators({ item }: { item: ItemPermissions }) {
  const { t, i18n } = useTranslation();
  return (
    <Group gap={6} wrap="wrap" aria-label={t('shell.status')} role="list">
      {item.suspended && (
        <Badge role="listitem" color={EXPIRED} variant="outline" data-suspended>
          {t('shell.suspended')}
        </Badge>
      )}
      {indicatorsOf(item).map(({ label, expireTS }) => {
        const expired = isExpired(expireTS);
        const date = formatDate(expireTS, i18n.language);
        const text = t(expired ? 'shell.expired_on' : 'shell.expires_on', { date });
        return (
          <Tooltip key={label} label={text} withArrow>
            <Badge
              role="listitem"
              color={expired ? EXPIRED : VALID}
              variant="filled"
              tabIndex={0}
              aria-label={`${t(label)}: ${text}`}
              data-expired={expired}
            >
              {t(label)}
            </Badge>
          </Tooltip>
        );
      })}
    </Group>
  );
}
