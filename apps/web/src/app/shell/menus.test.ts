import { describe, expect, it } from 'vitest';
import { itemMenu, listMenu } from './menus.ts';

const item = (over: object) => ({ id: 4, reference: 'a.es', permissions: {}, ...over });

describe('the side menus', () => {
  it('list only the kinds some item has', () => {
    const labels = listMenu([
      { id: 1, reference: 'a.es', hasDomain: true, hasService: false, hasMail: false },
      { id: 2, reference: 'b.es', hasDomain: false, hasService: false, hasMail: true },
    ]).map((e) => e.label);
    expect(labels).toEqual(['shell.domains', 'shell.mails']);
  });
  it('show item entries only for visible areas', () => {
    const menu = itemMenu(item({ permissions: { domain: 'read', service: 'disabled', service_ftp: 'write', servicemail: 'write' } }));
    expect(menu.map((e) => e.to)).toEqual(['/admin/4/domain/', '/admin/4/service/ftp/', '/admin/4/mail/']);
  });
  it('call the service Parking and hide Sites for redirect-and-parking services', () => {
    const menu = itemMenu(item({ service: { isRedirAndParking: true, expireTS: 0 }, permissions: { service: 'read', service_subdomains: 'write' } }));
    expect(menu.map((e) => e.label)).toEqual(['shell.parking']);
  });
  it('leave out the kinds the item does not have', () => {
    const menu = itemMenu(item({ domain: null, hasDomain: false, permissions: { domain: 'write', service: 'write' } }));
    expect(menu.map((e) => e.label)).toEqual(['shell.hosting']);
  });
});
