import { describe, expect, it } from 'vitest';
import { landingPath } from './afterLogin.ts';

describe('the page after sign-in', () => {
  it('follows the first write permission: domain, service, mail, DNS zone', () => {
    expect(landingPath(7, { domain: 'write', service: 'write' })).toBe('/admin/7/domain/');
    expect(landingPath(7, { domain: 'read', service: 'write' })).toBe('/admin/7/service/');
    expect(landingPath(7, { servicemail: 'write' })).toBe('/admin/7/mail/');
    expect(landingPath(7, { service_dnszone: 'write', domain: 'read' })).toBe('/admin/7/service/dns/');
  });
  it('falls back to the dashboard without any write permission', () => {
    expect(landingPath(7, { domain: 'read' })).toBe('/admin/');
  });
});
