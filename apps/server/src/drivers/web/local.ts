import { rm } from 'node:fs/promises';
import path from 'node:path';
import type { Store } from '../../store/db.ts';
import { folderBytes } from '../disk-usage.ts';
import { localState } from '../local-state.ts';
import { hostName } from '../real/common/names.ts';
import type { ErrorLogEntry, WebDriver, WebSite } from './interface.ts';

interface LocalSite extends WebSite {
  errorLog?: ErrorLogEntry[];
}

/**
 * Keeps each site's configuration and error log in the store; its files are the local drivers'
 * web roots, `<webRoots>/<reference>/` (the data dir's `www/`, where the installer writes), whose
 * size on disk is the service's web space.
 */
export function localWebDriver(
  store: Store,
  webRoots: string,
): WebDriver & { appendErrorLog(reference: string, entries: ErrorLogEntry[]): Promise<boolean> } {
  const state = localState<LocalSite>(store, 'web');
  return {
    async applyService(site) {
      const previous = await state.get(site.reference);
      await state.put(site.reference, { ...site, errorLog: previous?.errorLog ?? [] });
    },
    async removeService({ reference }) {
      await state.remove(reference);
      await rm(path.join(path.resolve(webRoots), hostName(reference)), { recursive: true, force: true });
    },
    async errorLog(reference, limit) {
      const site = await state.get(reference);
      return (site?.errorLog ?? []).slice(-limit);
    },
    spaceUsed: ({ reference }) => folderBytes(path.join(path.resolve(webRoots), reference)),
    /**
     * For the demo and tests: what a real server would have written to the site's log. False, and
     * nothing written, while the site's job has not been applied (the demo's first start on a busy
     * machine can find one waiting out a retry).
     */
    async appendErrorLog(reference, entries) {
      const site = await state.get(reference);
      if (!site) return false;
      await state.put(reference, { ...site, errorLog: [...(site.errorLog ?? []), ...entries].slice(-1000) });
      return true;
    },
  };
}
