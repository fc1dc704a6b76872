import { acme } from '@atalaya/contract/messages/acme';
import { activity } from '@atalaya/contract/messages/activity';
import { dns } from '@atalaya/contract/messages/dns';
import { domain } from '@atalaya/contract/messages/domain';
import { service } from '@atalaya/contract/messages/service';
import { sites } from '@atalaya/contract/messages/sites';
import type { Texts } from './boot.ts';

/**
 * What the panel adds to start-up's texts when its chunk arrives (app/App.tsx), before its first
 * render: the rest of the server's catalogue, the areas' messages. The second factors' texts are
 * not here: they load with the screens that use them (locales/secondStep.ts), and a static import
 * of them from the panel would make the sign-in's second step fetch the whole panel chunk.
 */
export const PANEL_TEXTS: Texts[] = [domain, service, sites, acme, dns, activity];
