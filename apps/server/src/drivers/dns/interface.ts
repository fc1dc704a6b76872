import type { RRset } from '../../modules/dns/rrsets.ts';

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
}
