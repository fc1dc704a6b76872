import { describe, expect, it } from 'vitest';
import { childPath, copyOffered, crumbsOf, restoreTargetOf } from './tree.ts';

describe('the restore of an entry of a backup’s tree', () => {
  it('takes the first segment as the part and the rest as the path inside it', () => {
    expect(restoreTargetOf('/web/public_html/index.html')).toEqual({ part: 'web', path: '/public_html/index.html' });
    expect(restoreTargetOf('/mail/info@tienda.es/.Sent')).toEqual({ part: 'mail', path: '/info@tienda.es/.Sent' });
  });
  it('restores a whole part from its folder at the top', () => {
    expect(restoreTargetOf('/web')).toEqual({ part: 'web', path: '/' });
    expect(restoreTargetOf('/mail/')).toEqual({ part: 'mail', path: '/' });
  });
  it('names a database without its dump’s .sql, and restores a zone whole', () => {
    expect(restoreTargetOf('/db/tienda_1.sql')).toEqual({ part: 'db', path: '/tienda_1' });
    expect(restoreTargetOf('/zone/tienda.es.zone')).toEqual({ part: 'zone', path: '/' });
  });
  it('offers nothing for the top, the settings or a path the contract refuses', () => {
    expect(restoreTargetOf('/')).toBeNull();
    expect(restoreTargetOf('/settings/settings.json')).toBeNull();
    expect(restoreTargetOf('/web/../../etc')).toBeNull();
  });
  it('offers a copy of everything but the zone', () => {
    expect(copyOffered('web')).toBe(true);
    expect(copyOffered('db')).toBe(true);
    expect(copyOffered('zone')).toBe(false);
  });
});

describe('the browser’s paths', () => {
  it('builds an entry’s path from its folder, without doubled slashes', () => {
    expect(childPath('/', 'web')).toBe('/web');
    expect(childPath('/web/', 'blog')).toBe('/web/blog');
    expect(childPath('/mail/info@tienda.es', 'cur')).toBe('/mail/info@tienda.es/cur');
  });
  it('gives each folder down to the current one as a breadcrumb', () => {
    expect(crumbsOf('/')).toEqual([]);
    expect(crumbsOf('/web/blog/')).toEqual([
      { name: 'web', path: '/web' },
      { name: 'blog', path: '/web/blog' },
    ]);
  });
});
