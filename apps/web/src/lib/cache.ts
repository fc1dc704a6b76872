/**
 * localStorage entries with an expiry (`_ddcfg`, `_ddstyle`): a stale or unreadable entry is
 * dropped, so a rebranded site or a revoked colour never sticks for ever.
 */
interface Entry<T> {
  value: T;
  expires: number;
}

export function readCache<T>(storage: Storage, key: string, now = Date.now()): T | undefined {
  const raw = storage.getItem(key);
  if (!raw) return undefined;
  try {
    const entry = JSON.parse(raw) as Entry<T>;
    if (typeof entry?.expires === 'number' && entry.expires > now) return entry.value;
  } catch {
    // Unparseable: treated like an expired entry.
  }
  storage.removeItem(key);
  return undefined;
}

export function writeCache<T>(storage: Storage, key: string, value: T, ttlMs: number, now = Date.now()) {
  const entry: Entry<T> = { value, expires: now + ttlMs };
  try {
    storage.setItem(key, JSON.stringify(entry));
  } catch {
    // Storage full or disabled (private mode): the cache is only an optimisation.
  }
}

export const CACHE_KEYS = { config: '_ddcfg', style: '_ddstyle', theme: 'theme' } as const;
export const CACHE_TTL_MS = { config: 60 * 60 * 1000, style: 24 * 60 * 60 * 1000 } as const;
