import type { Store } from '../apps/server/src/store/db.ts';
import { backupsScenario } from './backups.ts';
import { bigRealmScenario } from './big-realm.ts';
import { bulkScenario } from './bulk.ts';
import { dnsZoneScenario } from './dns-zone.ts';
import type { LoadResult } from './load.ts';
import { nodesScenario } from './nodes.ts';
import { registryScenario } from './registry.ts';
import { scaleScenario } from './scale.ts';
import { webScenario } from './web.ts';

/** What the further measurements get: the running server's URL, its store (opened by the bench too), the last baseline. */
export interface BenchContext {
  base: string;
  store: Store;
  baseline: LoadResult;
  seconds: number;
}

/**
 * Measurements beyond the signed-in calls: big lists, several processes, the web budgets, the
 * registry, hosting nodes, backups. One that judges guards answers the list of those it missed by
 * more than the machine's noise (string[]), which fail the run as the calls' do.
 */
export const SCENARIOS: ((ctx: BenchContext) => Promise<unknown>)[] = [
  dnsZoneScenario,
  bigRealmScenario,
  scaleScenario,
  () => webScenario(),
  () => registryScenario(),
  () => nodesScenario(),
  () => bulkScenario(),
  () => backupsScenario(),
];
