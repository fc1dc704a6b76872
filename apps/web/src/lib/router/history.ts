/** Where the panel is: the address bar's path and query. */
export interface Location {
  pathname: string;
  search: string;
}

const listeners = new Set<() => void>();
let listening = false;

export const currentLocation = (): Location => ({ pathname: window.location.pathname, search: window.location.search });

/** Calls `listener` after every change of address: a link followed, `navigate`, the browser's back and forward. */
export function listen(listener: () => void) {
  if (!listening) {
    window.addEventListener('popstate', () => {
      for (const notify of listeners) notify();
    });
    listening = true;
  }
  listeners.add(listener);
  return () => void listeners.delete(listener);
}

/**
 * Goes to `href` (path and query, already resolved) without reloading: a new history entry, or the
 * current one replaced; going to where the panel already is replaces, so Back does not stop twice.
 */
export function go(href: string, { replace = false }: { replace?: boolean } = {}) {
  const here = window.location.pathname + window.location.search + window.location.hash;
  if (replace || href === here) window.history.replaceState(null, '', href);
  else window.history.pushState(null, '', href);
  for (const notify of listeners) notify();
}
