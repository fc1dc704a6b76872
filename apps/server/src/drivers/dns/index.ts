import { type Config, ConfigError } from '../../config/config.ts';
import { type DnsSettings, dnsOptionsSchema } from './options.ts';

export type { DnsSettings, NamedTemplate } from './options.ts';

/** `drivers.dns` checked, with each name server as an absolute name. */
export function dnsSettings(config: Config): DnsSettings {
  const parsed = dnsOptionsSchema.safeParse(config.drivers.dns ?? {});
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  drivers.dns.${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const settings = parsed.data;
  settings.nameservers = settings.nameservers.map((ns) => (ns.endsWith('.') ? ns : `${ns}.`));
  return settings;
}
