import { type PaletteColor, type Theme, toColor } from '@atalaya/contract';
import {
  type CSSVariablesResolver,
  createTheme,
  type MantineColorScheme,
  type MantineColorSchemeManager,
  type MantineColorsTuple,
  Textarea,
} from '@mantine/core';
import { useSyncExternalStore } from 'react';
import { CACHE_KEYS, CACHE_TTL_MS, readCache, writeCache } from './cache.ts';
import { shadesOf } from './palette.ts';

const toMantine = (theme: string | null): MantineColorScheme => (theme === 'light' || theme === 'dark' ? theme : 'auto');
export const fromMantine = (scheme: MantineColorScheme): Theme => (scheme === 'auto' ? 'system' : scheme);

type StorageEvents = Pick<Window, 'addEventListener' | 'removeEventListener'>;

/**
 * The theme lives under the `theme` key as system / light / dark (docs/behaviour/shell-session-domains.md#constants); the storage event
 * applies a change made in another tab at once. Mantine reads the key while rendering and subscribes
 * only after its effects run; a change another tab makes in between sends its event to nobody, so
 * subscribing reads the key again.
 */
export function themeManager(storage: Storage = localStorage, events: StorageEvents = window): MantineColorSchemeManager {
  let handler: ((event: StorageEvent) => void) | undefined;
  let read: string | null = null;
  return {
    get: (fallback) => {
      read = storage.getItem(CACHE_KEYS.theme);
      return read ? toMantine(read) : fallback;
    },
    set: (value) => storage.setItem(CACHE_KEYS.theme, fromMantine(value)),
    subscribe: (onUpdate) => {
      handler = (event) => {
        if (event.key === CACHE_KEYS.theme) onUpdate(toMantine(event.newValue));
      };
      events.addEventListener('storage', handler);
      const stored = storage.getItem(CACHE_KEYS.theme);
      if (stored !== read) onUpdate(toMantine(stored));
    },
    unsubscribe: () => {
      if (handler) events.removeEventListener('storage', handler);
    },
    clear: () => storage.removeItem(CACHE_KEYS.theme),
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

/**
 * The neutral surfaces are zinc (docs/behaviour/shell-session-domains.md#data): Mantine's `gray` (light surfaces, borders,
 * dimmed text) and `dark` (the dark theme, text first, body at 7) from the zinc scale.
 */
export const ZINC: MantineColorsTuple = [
  '#fafafa',
  '#f4f4f5',
  '#e4e4e7',
  '#d4d4d8',
  '#a1a1aa',
  '#71717a',
  '#52525b',
  '#3f3f46',
  '#27272a',
  '#18181b',
];
export const ZINC_DARK: MantineColorsTuple = [
  '#e4e4e7',
  '#d4d4d8',
  '#a1a1aa',
  '#8b8b93',
  '#52525b',
  '#3f3f46',
  '#2e2e33',
  '#27272a',
  '#18181b',
  '#09090b',
];

export const buildTheme = (color: PaletteColor) =>
  createTheme({
    primaryColor: color,
    colors: { gray: ZINC, dark: ZINC_DARK, [color]: shadesOf(color) },
    // Text areas show 5 rows (docs/behaviour/shell-session-domains.md#constants).
    components: { Textarea: Textarea.extend({ defaultProps: { rows: 5 } }) },
    primaryShade: { light: 6, dark: 7 },
    autoContrast: true,
    defaultRadius: 'md',
    fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
  });

/**
 * Red text on the light background: Mantine writes it in red 6 (#fa5252, 3.3:1 on white), below
 * WCAG AA's 4.5:1 for body text, so "Expired" on the dashboard and the red error lines could not be
 * read by everyone. Red 9 reads at 5.5:1. The dark theme's red text (red 4 on the zinc background,
 * 6.4:1) already passes and stays.
 */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: { '--mantine-color-red-text': 'var(--mantine-color-red-9)', '--mantine-color-error': 'var(--mantine-color-red-9)' },
  dark: {},
});
