import { describe, expect, it } from 'vitest';
import { BackupError, type StoredPart } from '../../src/drivers/backups/interface.ts';
import { snapshotPaths, treePlace } from '../../src/drivers/backups/tree.ts';

/** The backup's tree over its parts' snapshots (pure: no restic). */
const part = (p: Partial<StoredPart> & Pick<StoredPart, 'part'>): StoredPart => ({
  snapshot: p.part,
  paths: [],
  names: [],
  added: 0,
  size: 0,
  ...p,
});
const parts = [
  part({ part: 'web', paths: ['/var/www/shop.es'], names: ['shop.es'] }),
  part({ part: 'mail', paths: ['/var/vmail/shop.es/ana', '/var/vmail/shop.es/luis'], names: ['ana@shop.es', 'luis@shop.es'] }),
  part({ part: 'db', snapshot: 'db1', paths: ['/shop_1.sql'], names: ['shop_1'] }),
  part({ part: 'db', snapshot: 'db2', paths: ['/shop_2.sql'], names: ['shop_2'] }),
  part({ part: 'settings', paths: ['/settings.json'] }),
];
const keyOf = (f: () => unknown) => {
  try {
    f();
    return 'accepted';
  } catch (e) {
    return e instanceof BackupError ? e.key : String(e);
  }
};

describe('the backup tree', () => {
  it('lists the parts present at the top, the mailboxes under /mail/ and the dumps under /db/', () => {
    const names = (p: string) => {
      const place = treePlace(parts, p);
      return place.kind === 'virtual' ? place.entries.map((e) => `${e.name}:${e.type}`) : place.kind;
    };
    expect(names('/')).toEqual(['web:dir', 'mail:dir', 'db:dir']);
    expect(names('/mail/')).toEqual(['ana@shop.es:dir', 'luis@shop.es:dir']);
    expect(names('/db')).toEqual(['shop_1.sql:file', 'shop_2.sql:file']);
  });

  it('maps a path onto the snapshot and the absolute path restic recorded', () => {
    expect(treePlace(parts, '/web/img/a.png')).toMatchObject({ kind: 'snapshot', root: '/var/www/shop.es', rest: ['img', 'a.png'] });
    expect(treePlace(parts, '/mail/luis@shop.es/Maildir/cur')).toMatchObject({ root: '/var/vmail/shop.es/luis', rest: ['Maildir', 'cur'] });
    expect(treePlace(parts, '/db/shop_2.sql')).toMatchObject({ part: { snapshot: 'db2' }, root: '/', rest: ['shop_2.sql'] });
    expect(snapshotPaths({ root: '/var/www/shop.es', rest: ['img', 'a.png'] })).toEqual({
      target: '/var/www/shop.es/img/a.png',
      ancestors: ['/var/www/shop.es', '/var/www/shop.es/img'],
    });
  });

  it('refuses .. as outside and anything the backup does not hold as not found', () => {
    expect(keyOf(() => treePlace(parts, '/web/../../etc/passwd'))).toBe('backups.path_outside');
    expect(keyOf(() => treePlace(parts, '/zone/'))).toBe('backups.path_not_found');
    expect(keyOf(() => treePlace(parts, '/settings/settings.json'))).toBe('backups.path_not_found');
    expect(keyOf(() => treePlace(parts, '/mail/otro@shop.es/'))).toBe('backups.path_not_found');
    expect(keyOf(() => treePlace(parts, '/db/shop_1.sql/x'))).toBe('backups.path_not_found');
    expect(keyOf(() => treePlace(parts, '/var/www/shop.es/index.html'))).toBe('backups.path_not_found');
  });
});
