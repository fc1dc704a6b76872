import type { CheckFinding } from '@atalaya/contract';
import { dsOf } from '../../../drivers/dns/dnssec.ts';
import type { SecDns } from '../../../drivers/registry/interface.ts';
import { ask, NotDns, type Reply, type Target, targetOf } from './probe.ts';

/** Signatures closer than this to their expiry are worth a warning: a server that stopped re-signing. */
const EXPIRY_WARNING_SECONDS = 3 * 86400;

/** A finding before it is put in words (the route translates it). */
export type Finding = Omit<CheckFinding, 'text' | 'fix'>;

export interface CheckInput {
  zone: string;
  /** The zone's apex NS, fully qualified. */
  zoneServers: string[];
  /** The domain at the registry when the panel is its registrar. */
  registry: { nameServers: string[]; ds: SecDns[] } | null;
  signed: boolean;
  addresses: Record<string, string>;
  now: number;
}

const bare = (name: string) => name.toLowerCase().replace(/\.$/, '');
const finding = (code: string, level: CheckFinding['level'], params: Record<string, string | number> = {}): Finding => ({
  code,
  level,
  params: Object.fromEntries(Object.entries(params).map(([k, v]) => [k, String(v)])),
});

/** A server's answer, or the finding that says why there is none: silent, or answering something that is not DNS. */
async function asked(server: string, findings: Finding[], question: () => Promise<Reply>): Promise<Reply | null> {
  try {
    return await question();
  } catch (error) {
    findings.push(finding(error instanceof NotDns ? 'ns_not_dns' : 'ns_silent', 'error', { server }));
    return null;
  }
}

/**
 * The delegation check: the registry's name servers against the zone's, each server's answer
 * (authoritative, same SOA serial), the registry's DS against the DNSKEY the zone publishes, and
 * how long its signatures still hold. Every finding names what was seen; the catalogue adds the fix.
 */
export async function checkDelegation(input: CheckInput): Promise<Finding[]> {
  const { zone, registry } = input;
  const findings: Finding[] = [];
  const zoneServers = [...new Set(input.zoneServers.map(bare))].sort();

  if (!registry) findings.push(finding('registry_unknown', 'warning', { zone }));
  else {
    const atRegistry = [...new Set(registry.nameServers.map(bare))].sort();
    const missing = zoneServers.filter((s) => !atRegistry.includes(s));
    const extra = atRegistry.filter((s) => !zoneServers.includes(s));
    if (missing.length || extra.length)
      findings.push(finding('ns_mismatch', 'error', { registry: atRegistry.join(', ') || '—', zone: zoneServers.join(', ') }));
    else findings.push(finding('ns_match', 'ok', { servers: zoneServers.join(', ') }));
  }

  const answering: { server: string; target: Target; serial: number }[] = [];
  for (const server of zoneServers) {
    const target = await targetOf(server, input.addresses);
    if (!target) {
      findings.push(finding('ns_unresolved', 'error', { server }));
      continue;
    }
    const reply = await asked(server, findings, () => ask(target, zone, 'SOA'));
    if (!reply) continue;
    const soa = reply.answers.find((a) => a.type === 'SOA');
    if (!reply.authoritative || reply.rcode !== 'NOERROR' || !soa) {
      findings.push(finding('ns_not_authoritative', 'error', { server, zone }));
      continue;
    }
    answering.push({ server, target, serial: (soa.data as { serial: number }).serial });
  }
  const serials = new Set(answering.map((a) => a.serial));
  if (serials.size > 1)
    findings.push(finding('serial_mismatch', 'error', { serials: answering.map((a) => `${a.server} ${a.serial}`).join(', ') }));
  else if (answering.length) findings.push(finding('serial_match', 'ok', { serial: answering[0].serial, count: answering.length }));

  const first = answering[0];
  if (!first) return findings;
  const dnskey = await asked(first.server, findings, () => ask(first.target, zone, 'DNSKEY', { dnssec: true }));
  if (!dnskey) return findings;
  const keys = dnskey.answers.filter((a) => a.type === 'DNSKEY');
  const published = keys.map((k) => {
    const data = k.data as { flags: number; algorithm: number; key: Buffer };
    return { flags: data.flags, algorithm: data.algorithm, publicKey: data.key.toString('base64') };
  });
  if (registry?.ds.length) {
    for (const ds of registry.ds) {
      const matches = published.some((k) =>
        ds.type === 'pubkey'
          ? k.publicKey === ds.digest && k.algorithm === ds.algorithm
          : (() => {
              const computed = dsOf(zone, k.flags, k.algorithm, k.publicKey, ds.digestType ?? 2);
              return computed.keyTag === ds.keyTag && computed.algorithm === ds.algorithm && computed.digest === ds.digest.toUpperCase();
            })(),
      );
      if (!matches) findings.push(finding(published.length ? 'ds_no_key' : 'ds_unsigned', 'error', { keytag: ds.keyTag, zone }));
    }
    if (!findings.some((f) => f.code === 'ds_no_key' || f.code === 'ds_unsigned'))
      findings.push(finding('ds_match', 'ok', { count: registry.ds.length }));
  } else if (registry && published.length && input.signed) findings.push(finding('ds_missing', 'warning', { zone }));

  const soa = published.length ? await asked(first.server, findings, () => ask(first.target, zone, 'SOA', { dnssec: true })) : null;
  if (soa) {
    const expirations = soa.answers.filter((a) => a.type === 'RRSIG').map((a) => (a.data as { expiration: number }).expiration);
    if (!expirations.length) findings.push(finding('rrsig_missing', 'error', { server: first.server }));
    else {
      const left = Math.min(...expirations) - input.now;
      const days = Math.max(0, Math.floor(left / 86400));
      if (left <= 0) findings.push(finding('rrsig_expired', 'error', { zone }));
      else if (left < EXPIRY_WARNING_SECONDS) findings.push(finding('rrsig_expiring', 'warning', { days }));
      else findings.push(finding('rrsig_fresh', 'ok', { days }));
    }
  }
  return findings;
}
