import { BOOT_TEXTS, merge, type Texts } from './boot.ts';
import { dns } from './dns.ts';
import { domain } from './domain.ts';
import { service } from './service.ts';
import { sites } from './sites.ts';

/**
 * The screens' texts: a feature registers its file here. They load with the signed-in app
 * (app/App.tsx adds them), not with the sign-in page, which needs only locales/boot.ts.
 */
export const FEATURE_TEXTS: Texts[] = [domain, service, sites, dns];

/** Every text of the web (what the tests check). */
export const RESOURCES = merge([...BOOT_TEXTS, ...FEATURE_TEXTS]);
