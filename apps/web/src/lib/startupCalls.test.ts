import { API_BASE, REQUEST_HEADER } from '@atalaya/contract';
import { describe, expect, it } from 'vitest';
import { CACHE_KEYS } from './cache.ts';
import { WIRE } from './startupCalls.ts';

describe('the start-up calls sent by the entry', () => {
  it('use the same path, header and cache key as the rest of the app (they are copies, see startupCalls.ts)', () => {
    expect(WIRE).toEqual({ apiBase: API_BASE, requestHeader: REQUEST_HEADER, configCacheKey: CACHE_KEYS.config });
  });
});
