import { describe, expect, it } from 'vitest';
import { endpoints } from './endpoints.ts';
import { canCall } from './permissions.ts';

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
});
