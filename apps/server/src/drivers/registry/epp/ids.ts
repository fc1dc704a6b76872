import { createHash } from 'node:crypto';
import type { SecDnsData } from '../interface.ts';

/**
 * The panel's ids of a domain's glue records and DNSSEC records on a remote registry, derived
 * from what identifies each at the registry (a host's name; a record's fields), so that no table
 * has to follow the registry and every process agrees without asking one. A positive 31-bit
 * number, as every panel id is; two records of one domain would have to collide on 31 bits of
 * SHA-256 to share one.
 */
function idOf(key: string): number {
  const id = createHash('sha256').update(key).digest().readUInt32BE(0) & 0x7fffffff;
  return id === 0 ? 1 : id;
}

export const hostId = (name: string) => idOf(`host:${name.toLowerCase()}`);

export const secDnsId = (d: SecDnsData) =>
  idOf(
    d.type === 'pubkey'
      ? `key:${d.flags}:${d.protocol}:${d.algorithm}:${d.digest}`
      : `ds:${d.keyTag}:${d.algorithm}:${d.digestType}:${d.digest.toLowerCase()}`,
  );
