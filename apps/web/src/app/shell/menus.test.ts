import { describe, expect, it } from 'vitest';
import type { ItemPermissions, PermissionListItem } from '../../lib/permissions.ts';
import { itemMenu, listMenu } from './menus.ts';

const item = (over: Partial<ItemPermissions>): ItemPermissions => ({
  id: 4,
  reference: 'a.es',
  permissions: {} as ItemPermissions['permissions'],
  hasDomain: true,
  hasService: true,
  hasMail: true,
  domain: { expireTS: null },
  service: { isRedirAndParking: false, expireTS: null },
  mail: { expireTS: null },
  ...over,
});
const row = (over: Partial<PermissionListItem>): PermissionListItem => ({
  id: 1,
  reference: 'a.es',
  hasDomain: false,
  hasService: false,
  hasMail: false,
  isRedirAndParking: false,
  domainExpireTS: null,
  serviceExpireTS: null,
  mailExpireTS: null,
  ...over,
});
const perms = (map: object) => map as ItemPermissions['permissions'];

describe('the side menus', () => {
  it('list only the kinds some item has', () => {
    const labels = listMenu([row({ id: 1, hasDomain: true }), row({ id: 2, hasMail: true })]).map((e) => e.label);
    expect(labels).toEqual(['shell.domains', 'shell.mails']);
  });
  it('show item entries only for visible areas', () => {
    const menu = itemMenu(
      item({ permissions: perms({ domain: 'read', service: 'disabled', service_ftp: 'write', servicemail: 'write' }) }),
    );
    expect(menu.map((e) => e.to)).toEqual(['/admin/4/domain/', '/admin/4/service/ftp/', '/admin/4/mail/']);
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
