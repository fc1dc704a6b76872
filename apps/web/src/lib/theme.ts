import { type PaletteColor, type Theme, toColor } from '@atalaya/contract';
import { createTheme, type MantineColorScheme, type MantineColorSchemeManager } from '@mantine/core';
import { useSyncExternalStore } from 'react';
import { CACHE_KEYS, CACHE_TTL_MS, readCache, writeCache } from './cache.ts';
import { shadesOf } from './palette.ts';

const toMantine = (theme: string | null): MantineColorScheme => (theme === 'light' || theme === 'dark' ? theme : 'auto');
export const fromMantine = (scheme: MantineColorScheme): Theme => (scheme === 'auto' ? 'system' : scheme);

/**
 * The theme lives under the `theme` key as system / light / dark (spec §9); the storage event
 * applies a change made in another tab at once.
 */
export function themeManager(): MantineColorSchemeManager {
  let handler: ((event: StorageEvent) => void) | undefined;
  return {
    get: (fallback) => (localStorage.getItem(CACHE_KEYS.theme) ? toMantine(localStorage.getItem(CACHE_KEYS.theme)) : fallback),
    set: (value) => localStorage.setItem(CACHE_KEYS.theme, fromMantine(value)),
    subscribe: (onUpdate) => {
      handler = (event) => {
        if (event.key === CACHE_KEYS.theme) onUpdate(toMantine(event.newValue));
      };
      window.addEventListener('storage', handler);
    },
    unsubscribe: () => {
      if (handler) window.removeEventListener('storage', handler);
    },
    clear: () => localStorage.removeItem(CACHE_KEYS.theme),
  };
}

/** The primary colour: the user's (`_ddstyle`, with expiry) else the site's; other tabs follow through storage events. */
let current: PaletteColor = 'indigo';
const listeners = new Set<() => void>();
const emit = () => {
  for (const listener of listeners) listener();
};

export function initColor(siteColor: string | undefined) {
  current = toColor(readCache<string>(localStorage, CACHE_KEYS.style) ?? siteColor);
  window.addEventListener('storage', (event) => {
    if (event.key !== CACHE_KEYS.style) return;
    current = toColor(readCache<string>(localStorage, CACHE_KEYS.style) ?? siteColor);
    emit();
  });
}

export function setColor(color: PaletteColor) {
  current = color;
  writeCache(localStorage, CACHE_KEYS.style, color, CACHE_TTL_MS.style);
  emit();
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};
export const useColor = () => useSyncExternalStore(subscribe, () => current);

export const buildTheme = (color: PaletteColor) =>
  createTheme({
    primaryColor: color,
    colors: { [color]: shadesOf(color) },
    primaryShade: { light: 6, dark: 7 },
    autoContrast: true,
    defaultRadius: 'md',
    fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
  });

