import type { Config } from '../../config/config.ts';

/**
 * The PHP version a service runs: the one it chose, or the provider's default while it keeps
 * "default" (stored as such, so a change of the provider's default moves it). The one place that
 * resolves it: drivers are always handed a version.
 */
export const phpVersionOf = (stored: string, config: Config): string =>
  stored === 'default' || stored === '' ? config.hosting.defaultPhpVersion : stored;
