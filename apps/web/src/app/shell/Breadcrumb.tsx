import { Anchor, Breadcrumbs, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '../../lib/i18n.ts';
import { itemPermissionsQuery } from '../../lib/permissions.ts';
import { useLocation, useMatch } from '../../lib/router/hooks.ts';
import { Link } from '../../lib/router/links.tsx';
import { crumbsOf } from './crumbs.ts';

/** Where the user is (docs/behaviour/shell-session-domains.md#page-frame); the last entry is the current page. */
export function Breadcrumb() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const id = useMatch('/admin/:id/*')?.params.id ?? '';
  const item = useQuery({ ...itemPermissionsQuery(id), enabled: /^\d+$/.test(id) }).data;
  const crumbs = crumbsOf(pathname, item?.reference);
  const label = (key: string) => (key.startsWith('=') ? key.slice(1) : t(key));
  return (
    <Breadcrumbs component="nav" aria-label={t('shell.breadcrumb')} mb="md" separatorMargin={6} style={{ flexWrap: 'wrap' }}>
      {crumbs.map((crumb, i) =>
        i === crumbs.length - 1 ? (
          <Text key={crumb.to} size="sm" aria-current="page" className="break-anywhere">
            {label(crumb.label)}
          </Text>
        ) : (
          <Anchor key={crumb.to} component={Link} to={crumb.to} size="sm" className="break-anywhere">
            {label(crumb.label)}
          </Anchor>
        ),
      )}
    </Breadcrumbs>
  );
}
