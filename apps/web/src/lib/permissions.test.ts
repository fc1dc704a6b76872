import { DOMAIN_TOGGLES, TOGGLE_AREA } from '@atalaya/contract';
import { describe, expect, it } from 'vitest';
import { endpoints } from './endpoints.ts';
import { allowsCall, canCall, narrowTo, seesCall } from './permissions.ts';

describe("whether a screen shows an action: the call's entry read against the item's map", () => {
  const { mailPassword, mailList, get } = endpoints.service;
  const { install } = endpoints.sites;

  it('hides a password view from a user who may only read the area, and shows it to one who may write', () => {
    expect(canCall({ servicemail_accounts: 'read' }, mailPassword.permission)).toBe(false);
    expect(canCall({ servicemail_accounts: 'write' }, mailPassword.permission)).toBe(true);
    expect(canCall({ servicemail_accounts: 'read' }, mailList.permission)).toBe(true);
    expect(canCall({ servicemail_accounts: 'disabled' }, mailList.permission)).toBe(false);
  });

  it('reads an any-of entry as one of its areas, and needs write on the areas the entry also names', () => {
    expect(canCall({ service_ftp: 'read' }, get.permission)).toBe(true);
    expect(canCall({}, get.permission)).toBe(false);
    expect(canCall({ service_subdomains: 'write', service_ftp: 'write', service_ddbb: 'write' }, install.permission)).toBe(true);
    expect(canCall({ service_subdomains: 'write', service_ftp: 'write', service_ddbb: 'read' }, install.permission)).toBe(false);
  });

  it('narrows the domain toggle to the area the contract gives each toggle, as the server does', () => {
    const { toggle } = endpoints.domain;
    for (const which of DOMAIN_TOGGLES) {
      const narrowed = narrowTo(toggle, TOGGLE_AREA[which]);
      expect(narrowed.permission).toEqual({ area: TOGGLE_AREA[which], level: 'write' });
      expect(allowsCall({ [TOGGLE_AREA[which]]: 'write' }, narrowed)).toBe(true);
    }
    // Write on the transfer block alone lets the block toggle's first gate through, but not the block itself.
    expect(allowsCall({ domain_transferblock: 'write' }, toggle)).toBe(true);
    expect(allowsCall({ domain_transferblock: 'write' }, narrowTo(toggle, TOGGLE_AREA.block))).toBe(false);
  });

  it('refuses to narrow a call to an area its entry does not name', () => {
    expect(() => narrowTo(endpoints.domain.toggle, 'service_ftp')).toThrow('does not narrow to service_ftp');
    expect(() => narrowTo(endpoints.domain.renew, 'domain')).toThrow();
  });

  it("shows a reader what a write changes, from the write's entry", () => {
    expect(seesCall({ domain_ownercontacts: 'read' }, endpoints.domain.ownerSave)).toBe(true);
    expect(allowsCall({ domain_ownercontacts: 'read' }, endpoints.domain.ownerSave)).toBe(false);
    expect(seesCall({ domain_contacts: 'write' }, endpoints.domain.ownerSave)).toBe(false);
  });
});
