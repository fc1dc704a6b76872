import { account } from './account.ts';
import { activity } from './activity.ts';
import { backups } from './backups.ts';
import { config } from './config.ts';
import { dns } from './dns.ts';
import { domain } from './domain.ts';
import type { Endpoint } from './endpoint.ts';
import { expiry } from './expiry.ts';
import { factors } from './factors.ts';
import { health } from './health.ts';
import { lists } from './lists.ts';
import { operator } from './operator.ts';
import { hosting } from './service.ts';
import { sites } from './sites.ts';

export type { SiteConfig } from './config.ts';
export * from './endpoint.ts';

/** Every call of the API, by area: the server registers these, the web calls these. */
export const endpoints = {
  config,
  account,
  factors,
  activity,
  domain,
  service: hosting,
  backups,
  sites,
  dns,
  health,
  expiry,
  lists,
  operator,
};

/** The table as a list, for the tests that walk it. */
export const ALL_ENDPOINTS: Endpoint[] = Object.values(endpoints).flatMap((area) => Object.values(area) as Endpoint[]);
