import { describe, expect, it } from 'vitest';
import { crumbsOf } from './crumbs.ts';

describe('the breadcrumb', () => {
  it('starts at the dashboard', () => {
    expect(crumbsOf('/admin/')).toEqual([{ label: 'shell.dashboard', to: '/admin/' }]);
  });
  it('names the list sections and pages', () => {
    expect(crumbsOf('/admin/domain/').map((c) => c.label)).toEqual(['shell.dashboard', 'shell.domains']);
    expect(crumbsOf('/admin/contact/').at(-1)?.to).toBe('/admin/contact/');
    expect(crumbsOf('/legal/').at(-1)?.label).toBe('shell.legal');
  });
  it('shows the item reference and its areas', () => {
    const crumbs = crumbsOf('/admin/12/service/ftp/', 'tienda.es');
    expect(crumbs.map((c) => c.label)).toEqual(['shell.dashboard', '=tienda.es', 'shell.hosting', 'shell.ftp']);
    expect(crumbs.at(-1)?.to).toBe('/admin/12/service/ftp/');
    expect(crumbsOf('/admin/12/service/backups/', 'tienda.es').at(-1)).toEqual({
      label: 'shell.backups',
      to: '/admin/12/service/backups/',
    });
  });
});
