import type { buildApp } from '../apps/server/src/app.ts';
import type { Config } from '../apps/server/src/config/config.ts';
import type { Store } from '../apps/server/src/store/db.ts';
import { accountScenario } from './account.ts';
import { bigRealmScenario } from './big-realm.ts';
import { dnsFilterScenario } from './dns-filter.ts';
import { domainScenario } from './domain.ts';
import type { LoadResult } from './load.ts';
import { memoryScenario } from './memory.ts';
import { scaleScenario } from './scale.ts';
import { webScenario } from './web.ts';

export interface BenchContext {
  base: string;
  app: Awaited<ReturnType<typeof buildApp>>;
  store: Store;
  config: Config;
  baseline: LoadResult;
  seconds: number;
}

/** Each issue adds its measurements here (authenticated reads, web budgets, big lists). */
export const SCENARIOS: ((ctx: BenchContext) => Promise<void>)[] = [
  accountScenario,
  domainScenario,
  dnsFilterScenario,
  bigRealmScenario,
  scaleScenario,
  () => memoryScenario(),
  () => webScenario(),
];
