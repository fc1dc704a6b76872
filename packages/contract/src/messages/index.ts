import type { Language } from '../settings.ts';
import { account } from './account.ts';
import { acme } from './acme.ts';
import { activity } from './activity.ts';
import { backups } from './backups.ts';
import { core } from './core.ts';
import { dns } from './dns.ts';
import { dnssec } from './dnssec.ts';
import { domain } from './domain.ts';
import { factors } from './factors.ts';
import { mail } from './mail.ts';
import { operator } from './operator.ts';
import { service } from './service.ts';
import { sites } from './sites.ts';

type Catalogue = Record<Language, Record<string, string>>;

/** Each area adds its catalogue here; a unit test checks that es, en and ca hold the same keys. */
const CATALOGUES: Catalogue[] = [core, account, factors, domain, service, sites, acme, dns, dnssec, mail, activity, operator, backups];

export const MESSAGES: Catalogue = {
  es: Object.assign({}, ...CATALOGUES.map((c) => c.es)),
  en: Object.assign({}, ...CATALOGUES.map((c) => c.en)),
  ca: Object.assign({}, ...CATALOGUES.map((c) => c.ca)),
};

/** Translates a message key; Catalan falls back to Spanish, an unknown key is returned as is. */
export function translate(language: Language, key: string, params: Record<string, string | number> = {}) {
  const text = MESSAGES[language][key] ?? MESSAGES.es[key] ?? key;
  return text.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(params[name] ?? ''));
}
