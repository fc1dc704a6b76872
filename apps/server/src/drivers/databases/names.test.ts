import { describe, expect, it } from 'vitest';
import { DATABASE_NAME, databaseName } from './interface.ts';
import { mariaDbDriver } from './mariadb.ts';

describe('generated database names', () => {
  it('keep the letters and digits of the reference, fit in 32 characters and take the prefix', () => {
    expect(databaseName('', 'tienda-ejemplo.es', 7, 1)).toBe('tienda_ejemplo_es_7_1');
    expect(databaseName('p_', 'xn--and-6ma2c.es', 31, 12)).toBe('p_xn_and_6ma2c_es_31_12');
    const long = databaseName('abc_', `${'a'.repeat(80)}.com`, 2_000_000_000, 123);
    expect(long.length).toBe(32);
    expect(long.endsWith('_2000000000_123')).toBe(true);
    for (const name of [long, databaseName('', '---.--', 1, 1), databaseName('', 'x`; DROP DATABASE mysql; --', 1, 2)]) {
      expect(name).toMatch(DATABASE_NAME);
    }
  });

  it('are the service’s own: references that read alike never compete', () => {
    expect(databaseName('', 'my-shop.es', 1, 1)).not.toBe(databaseName('', 'my.shop.es', 2, 1));
    const long = (tail: string) => `${'tienda'.repeat(8)}${tail}.es`;
    expect(databaseName('p_', long('a'), 3, 1)).not.toBe(databaseName('p_', long('b'), 4, 1));
  });

  it('are checked again by the MariaDB driver before any SQL is sent', async () => {
    const driver = mariaDbDriver({ dsn: 'mysql://root@127.0.0.1:1' });
    await expect(driver.remove({ name: 'a`b', user: 'x' })).rejects.toThrow();
    await expect(driver.dump('a b')).rejects.toThrow(/refusing/);
  });

  it('needs an admin DSN', () => {
    expect(() => mariaDbDriver({})).toThrow(/dsn/);
  });
});
