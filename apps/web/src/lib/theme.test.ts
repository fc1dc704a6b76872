import type { MantineColorScheme } from '@mantine/core';
import { describe, expect, it } from 'vitest';
import { CACHE_KEYS } from './cache.ts';
import { memoryStorage } from './memoryStorage.ts';
import { themeManager } from './theme.ts';

/** What another tab's write looks like to this one: a storage event naming the key and its new value. */
function storageEvent(key: string, newValue: string | null) {
  return Object.assign(new Event('storage'), { key, newValue });
}

function setup(stored?: string) {
  const storage = memoryStorage();
  if (stored) storage.setItem(CACHE_KEYS.theme, stored);
  const events = new EventTarget();
  const manager = themeManager(storage, events as unknown as Window);
  const updates: MantineColorScheme[] = [];
  return { storage, events, manager, updates, onUpdate: (scheme: MantineColorScheme) => updates.push(scheme) };
}

describe('the colour scheme kept under the theme key', () => {
  it('reads system as auto and falls back when nothing is stored', () => {
    expect(setup('system').manager.get('light')).toBe('auto');
    expect(setup().manager.get('light')).toBe('light');
  });

  it('stores auto as system', () => {
    const { storage, manager } = setup();
    manager.set('auto');
    expect(storage.getItem(CACHE_KEYS.theme)).toBe('system');
  });

  it('applies another tab’s change through the storage event once subscribed', () => {
    const { events, manager, updates, onUpdate } = setup('light');
    manager.get('auto');
    manager.subscribe(onUpdate);
    events.dispatchEvent(storageEvent('_other', 'x'));
    events.dispatchEvent(storageEvent(CACHE_KEYS.theme, 'dark'));
    expect(updates).toEqual(['dark']);
  });

  it('applies a change another tab made between the first read and the subscription', () => {
    const { storage, manager, updates, onUpdate } = setup('light');
    expect(manager.get('auto')).toBe('light');
    storage.setItem(CACHE_KEYS.theme, 'dark');
    manager.subscribe(onUpdate);
    expect(updates).toEqual(['dark']);
  });

  it('calls nobody on subscribing when the key is as it was read', () => {
    const { manager, updates, onUpdate } = setup('dark');
    manager.get('auto');
    manager.subscribe(onUpdate);
    expect(updates).toEqual([]);
  });

  it('hears nothing more once unsubscribed', () => {
    const { events, manager, updates, onUpdate } = setup();
    manager.get('auto');
    manager.subscribe(onUpdate);
    manager.unsubscribe();
    events.dispatchEvent(storageEvent(CACHE_KEYS.theme, 'dark'));
    expect(updates).toEqual([]);
  });
});
