import { vi } from 'vitest';

/**
 * For unit tests of the calls the app sends: stubs `fetch` (and an empty `document.cookie`), records
 * what each call asks for and answers an empty JSON object. `vi.unstubAllGlobals()` undoes it.
 */
export function recordFetch() {
  vi.stubGlobal('document', { cookie: '' });
  const seen: { url: string; method: string; headers: unknown }[] = [];
  vi.stubGlobal('fetch', (url: string, init: RequestInit) => {
    seen.push({ url, method: init.method ?? 'GET', headers: init.headers });
    return Promise.resolve(new Response('{}'));
  });
  return seen;
}
