import { describe, expect, it } from 'vitest';
import { realmRepositoryUrl } from './repository.ts';
import { copyDatabaseNames, DATABASE_NAME_MAX } from './restore.ts';
import { narrowSpec } from './snapshot.ts';

describe("a backup's names", () => {
  it("places a realm's repository under the operator's: a folder of a path, a segment of a URL", () => {
    expect(realmRepositoryUrl('/srv/backups', 'example.com')).toBe('/srv/backups/example.com');
    expect(realmRepositoryUrl('/srv/backups/', 'example.com')).toBe('/srv/backups/example.com');
    expect(realmRepositoryUrl('sftp:backup@host:/srv/restic/', 'example.com')).toBe('sftp:backup@host:/srv/restic/example.com');
    expect(realmRepositoryUrl('s3:https://s3.example.net/bucket', 'example.com')).toBe('s3:https://s3.example.net/bucket/example.com');
    expect(realmRepositoryUrl('rest:http://127.0.0.1:8000/', 'example.com')).toBe('rest:http://127.0.0.1:8000/example.com');
  });

  it("names a database's copy <base>_r<day>, then with the time, cut to 32 characters", () => {
    expect(copyDatabaseNames('shop_1', '20261202-1030')).toEqual(['shop_1_r20261202', 'shop_1_r202612021030']);
    const long = 'a'.repeat(40);
    const names = copyDatabaseNames(long, '20261202-1030');
    for (const name of names) expect(name.length).toBe(DATABASE_NAME_MAX);
    expect(names[0].endsWith('_r20261202')).toBe(true);
    expect(names[1].endsWith('_r202612021030')).toBe(true);
  });

  it('backs up before a replace only the part it overwrites, with the settings', () => {
    const spec = {
      tags: ['realm:r', 'service:s'],
      host: 'panel',
      web: { reference: 's' },
      mail: { addresses: ['a@s'] },
      zone: { domain: 's', text: 'x' },
      settings: { json: '{}' },
    };
    expect(narrowSpec(spec, 'web')).toEqual({ tags: spec.tags, host: 'panel', web: spec.web, settings: spec.settings });
    expect(narrowSpec(spec, 'db')).toEqual({ tags: spec.tags, host: 'panel', settings: spec.settings });
  });
});
