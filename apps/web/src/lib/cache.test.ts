import { describe, expect, it } from 'vitest';
import { readCache, writeCache } from './cache.ts';
import { memoryStorage } from './memoryStorage.ts';

describe('the expiring cache', () => {
  it('answers a fresh entry', () => {
    const storage = memoryStorage();
    writeCache(storage, '_ddcfg', { company: 'Acme' }, 1000, 0);
    expect(readCache(storage, '_ddcfg', 999)).toEqual({ company: 'Acme' });
  });
  it('drops an entry whose time has passed', () => {
    const storage = memoryStorage();
    writeCache(storage, '_ddstyle', 'teal', 1000, 0);
    expect(readCache(storage, '_ddstyle', 1000)).toBeUndefined();
    expect(storage.getItem('_ddstyle')).toBeNull();
  });
  it('drops an unreadable entry', () => {
    const storage = memoryStorage();
    storage.setItem('_ddcfg', '{not json');
    expect(readCache(storage, '_ddcfg')).toBeUndefined();
    expect(storage.getItem('_ddcfg')).toBeNull();
  });
  it('drops an entry without an expiry', () => {
    const storage = memoryStorage();
    storage.setItem('_ddcfg', JSON.stringify({ value: 1 }));
    expect(readCache(storage, '_ddcfg')).toBeUndefined();
  });
});
