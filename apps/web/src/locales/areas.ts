import { acme } from '@atalaya/contract/messages/acme';
import { activity } from '@atalaya/contract/messages/activity';
import { backups } from '@atalaya/contract/messages/backups';
import { dns } from '@atalaya/contract/messages/dns';
import { dnssec } from '@atalaya/contract/messages/dnssec';
import { domain } from '@atalaya/contract/messages/domain';
import { mail } from '@atalaya/contract/messages/mail';
import { operator } from '@atalaya/contract/messages/operator';
import { service } from '@atalaya/contract/messages/service';
import { sites } from '@atalaya/contract/messages/sites';
import type { Texts } from './boot.ts';

/**
 * The rest of the server's catalogue, the areas' messages: only the item pages
 * and the Activity page use them (locales.test.ts), and their routes load this file with their
 * screens (app/router.tsx). In the panel's chunk they were bytes every first load of the dashboard
 * waited for (decision 011). The second factors' texts are not here: they load with the screens
 * that use them (locales/secondStep.ts).
 */
export const AREA_TEXTS: Texts[] = [domain, service, sites, acme, dns, dnssec, mail, activity, operator, backups];
