import type { DnsType } from '@atalaya/contract';
import type { DnssecState } from './dnssec.ts';

/** A zone's desired state as drivers apply it: one entry per name and type, in presentation format. */
export interface RRset {
  /** Fully qualified, with the trailing dot. */
  name: string;
  type: DnsType;
  ttl: number;
  contents: string[];
}

/** A zone's whole desired state: a driver makes the backend serve exactly these RRsets (SOA aside). */
export interface ZoneState {
  itemId: number;
  /** Punycode, without the trailing dot. */
  name: string;
  version: number;
  rrsets: RRset[];
}

export interface DnsDriver {
  readonly kind: string;
  /** Applies the state atomically: on failure nothing of it is served, and the call is retried. */
  applyZone(state: ZoneState): Promise<void>;
  /** Termination: the zone (punycode, no trailing dot) is no longer served, its keys gone with it; an unknown zone is not an error. */
  removeZone(zone: string): Promise<void>;
  /**
   * Replaces these RRsets and deletes the `gone` ones (names fully qualified, with the trailing
   * dot) of a zone the backend already serves (punycode, no trailing dot), atomically; the zone's
   * other RRsets are untouched. One record's change is one such patch, however big the zone.
   */
  patchRRsets(zone: string, rrsets: RRset[], gone: { name: string; type: string }[]): Promise<void>;
  /**
   * DNS-01 (decision 019): serves exactly `values` as the TXT RRset `name` (fully qualified, with
   * the trailing dot) of the zone `zone` (punycode, no trailing dot), at once; an empty list
   * removes the RRset. The zone's other RRsets are untouched.
   */
  setTxt(zone: string, name: string, values: string[]): Promise<void>;
  /**
   * Signs the zone (punycode, no trailing dot) the backend serves, making a key when it has none
   * (NSEC3 when asked), and answers its keys with their DS; signing a signed zone changes nothing.
   */
  sign(zone: string, options: { nsec3: boolean }): Promise<DnssecState>;
  /** Stops signing the zone and drops its keys. Only once no DS points at them (decision 034). */
  unsign(zone: string): Promise<void>;
  /** A key roll's first step: a new key that does not sign yet (its DS can be placed first); one only. */
  addKey(zone: string): Promise<DnssecState>;
  /** A key roll's switch: the key that did not sign yet signs, the others are dropped. */
  swapKeys(zone: string): Promise<DnssecState>;
  /** Whether the zone is signed, and its keys with their DS. */
  dnssec(zone: string): Promise<DnssecState>;
  /**
   * How long, in seconds, a resolver may keep the zone's answer to a DNSKEY query: the DNSKEY's TTL
   * once signed, and from before, the negative answer's (RFC 2308 §5, the lesser of the SOA's TTL and
   * minimum). A DS placed sooner could meet a cached "no DNSKEY" and the zone would fail to validate.
   */
  keyTtl(zone: string): Promise<number>;
}

/** The SOA timers the panel writes (refresh, retry, expire, minimum) and the SOA's own TTL. */
export const SOA_TIMERS = { refresh: 10800, retry: 3600, expire: 604800, minimum: 3600 };
export const SOA_TTL = 3600;

/** A TXT value in presentation format: quoted, with `"` and `\` escaped (ACME digests need neither). */
export const txtContent = (value: string) => `"${value.replace(/["\\]/g, (c) => `\\${c}`)}"`;
