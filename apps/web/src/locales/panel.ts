import { acme } from '@atalaya/contract/messages/acme';
import { activity } from '@atalaya/contract/messages/activity';
import { dns } from '@atalaya/contract/messages/dns';
import { domain } from '@atalaya/contract/messages/domain';
import { service } from '@atalaya/contract/messages/service';
import { sites } from '@atalaya/contract/messages/sites';
import type { Texts } from './boot.ts';
import { SECOND_STEP_TEXTS } from './secondStep.ts';

/**
 * What the panel adds to start-up's texts when its chunk arrives (app/App.tsx), before its first
 * render: the rest of the server's catalogue (the areas' messages) and the second factors' texts.
 * Start-up plus these is the whole server catalogue (a unit test checks it against MESSAGES).
 */
export const PANEL_TEXTS: Texts[] = [...SECOND_STEP_TEXTS, domain, service, sites, acme, dns, activity];
