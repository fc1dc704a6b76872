import { backups } from './backups.ts';
import type { Texts } from './boot.ts';
import { dns } from './dns.ts';
import { dnssec } from './dnssec.ts';
import { domain } from './domain.ts';
import { service } from './service.ts';
import { sites } from './sites.ts';

/**
 * The screens' texts: a feature registers its file here. They load with the item pages, the only
 * screens that use them (app/router.tsx adds them), not with the sign-in page or the dashboard,
 * which need only locales/boot.ts (docs/design.md#budgets).
 */
export const FEATURE_TEXTS: Texts[] = [domain, service, sites, dns, dnssec, backups];
