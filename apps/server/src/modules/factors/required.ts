import type { Config } from '../../config/config.ts';
import { canonicalRealm } from '../../kernel/names.ts';

/**
 * Whether a realm's users must sign in with a second factor: set on the realm by the operator's
 * CLI (`realm-require-2fa`), or named in the configuration's `secondFactor.requiredRealms`.
 */
export const factorRequired = (config: Config, realm: { name: string; require_second_factor: number | boolean }) =>
  Boolean(realm.require_second_factor) || config.secondFactor.requiredRealms.some((name) => canonicalRealm(name) === realm.name);
