import { MESSAGES } from '@atalaya/contract';
import { core } from './core.ts';
import { dns } from './dns.ts';
import { domain } from './domain.ts';
import { service } from './service.ts';
import { shell } from './shell.ts';
import { sites } from './sites.ts';

type Texts = { es: Record<string, string>; en: Record<string, string>; ca: Record<string, string> };

/** The web's texts, plus the server's catalogue so client-side validation speaks the same words. */
const FEATURES: Texts[] = [MESSAGES, core, shell, domain, service, sites, dns];

export const RESOURCES = {
  es: Object.assign({}, ...FEATURES.map((f) => f.es)) as Record<string, string>,
  en: Object.assign({}, ...FEATURES.map((f) => f.en)) as Record<string, string>,
  ca: Object.assign({}, ...FEATURES.map((f) => f.ca)) as Record<string, string>,
};
