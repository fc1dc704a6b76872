import { describe, expect, it } from 'vitest';
import type { ItemPermissions } from '../../lib/permissions.ts';
import { itemMenu, listMenu } from './menus.ts';

const item = (over: Partial<ItemPermissions>): ItemPermissions => ({
  id: 4,
  reference: 'a.es',
  suspended: false,
  permissions: {} as ItemPermissions['permissions'],
  hasDomain: true,
  hasService: true,
  hasMail: true,
  domain: { expireTS: null },
  service: { isRedirAndParking: false, expireTS: null },
  mail: { expireTS: null },
  ...over,
});
const perms = (map: object) => map as ItemPermissions['permissions'];

describe('the side menus', () => {
  it('list only the kinds the user has, and nothing while they are loading', () => {
    const labels = listMenu({ domain: true, service: false, mail: true }).map((e) => e.label);
    expect(labels).toEqual(['shell.domains', 'shell.mails']);
    expect(listMenu(undefined)).toEqual([]);
  });
  it('show item entries only for visible areas', () => {
    const menu = itemMenu(
      item({ permissions: perms({ domain: 'read', service: 'disabled', service_ftp: 'write', servicemail: 'write' }) }),
    );
    expect(menu.map((e) => e.to)).toEqual(['/admin/4/domain/', '/admin/4/service/ftp/', '/admin/4/mail/']);
  });
  it('show Backups to whom may read a service’s backups, last', () => {
    const menu = itemMenu(item({ permissions: perms({ service: 'read', service_backups: 'read', service_dnszone: 'read' }) }));
    expect(menu.map((e) => e.to)).toEqual(['/admin/4/service/', '/admin/4/service/dns/', '/admin/4/service/backups/']);
    const none = itemMenu(item({ permissions: perms({ service: 'write', service_backups: 'disabled' }) }));
    expect(none.map((e) => e.to)).not.toContain('/admin/4/service/backups/');
    const noService = itemMenu(item({ hasService: false, permissions: perms({ service_backups: 'write' }) }));
    expect(noService).toEqual([]);
  });
  it('call the service Parking and hide Sites for redirect-and-parking services', () => {
    const menu = itemMenu(
      item({ service: { isRedirAndParking: true, expireTS: 0 }, permissions: perms({ service: 'read', service_subdomains: 'write' }) }),
    );
    expect(menu.map((e) => e.label)).toEqual(['shell.parking']);
  });
  it('leave out the kinds the item does not have', () => {
    const menu = itemMenu(item({ hasDomain: false, permissions: perms({ domain: 'write', service: 'write' }) }));
    expect(menu.map((e) => e.label)).toEqual(['shell.hosting']);
  });
});
