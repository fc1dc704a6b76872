import type { DnsType } from '@atalaya/contract';
import { type DnssecState, dsOf, type ZoneKey } from './dnssec.ts';
import { type DnsDriver, type RRset, SOA_TIMERS, SOA_TTL, txtContent, type ZoneState } from './interface.ts';

export interface PowerDnsOptions {
  url: string;
  apiKey: string;
  serverId: string;
  nameservers: string[];
  hostmaster?: string;
  timeoutMs: number;
}

interface PdnsRRset {
  name: string;
  type: string;
  ttl?: number;
  changetype?: 'REPLACE' | 'DELETE';
  records?: { content: string; disabled: boolean }[];
}

/** PowerDNS knows the ANAME idea as ALIAS (type 65401). */
const toPdnsType = (type: DnsType) => (type === 'ANAME' ? 'ALIAS' : type);

class PowerDnsError extends Error {
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.status = status;
  }
}

/**
 * PowerDNS Authoritative 4.7 through its HTTP API. A zone is created with all its RRsets in one
 * POST; a whole-zone change is one PATCH that replaces each desired RRset and deletes the ones no
 * longer wanted, and a record's change one PATCH of its RRset alone; PowerDNS applies each PATCH in
 * a single transaction.
 */
export function powerDnsDriver(options: PowerDnsOptions): DnsDriver {
  const base = `${options.url.replace(/\/+$/, '')}/api/v1/servers/${encodeURIComponent(options.serverId)}`;

  async function call(method: string, path: string, body?: unknown): Promise<unknown> {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: { 'X-API-Key': options.apiKey, accept: 'application/json', ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
      signal: AbortSignal.timeout(options.timeoutMs),
    });
    const text = await response.text();
    if (!response.ok) throw new PowerDnsError(response.status, `PowerDNS ${method} ${path}: ${response.status} ${text.slice(0, 300)}`);
    return text ? JSON.parse(text) : null;
  }

  const desired = (rrsets: RRset[]): PdnsRRset[] =>
    rrsets.map((s) => ({
      name: s.name,
      type: toPdnsType(s.type),
      ttl: s.ttl,
      changetype: 'REPLACE',
      records: s.contents.map((content) => ({ content, disabled: false })),
    }));

  async function create(state: ZoneState) {
    const zone = `${state.name}.`;
    const hostmaster = options.hostmaster ?? `hostmaster.${zone}`;
    const { refresh, retry, expire, minimum } = SOA_TIMERS;
    const soa = `${options.nameservers[0] ?? `ns1.${zone}`} ${hostmaster} ${state.version} ${refresh} ${retry} ${expire} ${minimum}`;
    const rrsets = desired(state.rrsets).map(({ changetype: _, ...s }) => s);
    rrsets.push({ name: zone, type: 'SOA', ttl: SOA_TTL, records: [{ content: soa, disabled: false }] });
    await call('POST', '/zones', { name: zone, kind: 'Native', nameservers: [], soa_edit_api: 'DEFAULT', rrsets });
  }

  const zoneUrl = (zone: string) => `/zones/${encodeURIComponent(`${zone}.`)}`;

  /** The zone's keys as PowerDNS publishes them (GET cryptokeys); their DS computed from the DNSKEY, as a resolver would. */
  type Cryptokey = { id: number; active: boolean; published?: boolean; dnskey: string };
  const toKey = (zone: string, k: Cryptokey): ZoneKey => {
    const [flags, , algorithm, ...key] = k.dnskey.split(/\s+/);
    const publicKey = key.join('');
    const ds = dsOf(zone, Number(flags), Number(algorithm), publicKey);
    return {
      id: String(k.id),
      flags: Number(flags),
      algorithm: Number(algorithm),
      publicKey,
      keyTag: ds.keyTag,
      active: k.active,
      ds: Number(flags) & 1 ? [ds] : [],
    };
  };

  /** The zone's keys as PowerDNS publishes them (GET cryptokeys); their DS computed from the DNSKEY, as a resolver would. */
  async function dnssec(zone: string): Promise<DnssecState> {
    const keys = ((await call('GET', `${zoneUrl(zone)}/cryptokeys`)) as Cryptokey[]).map((k) => toKey(zone, k));
    return { signed: keys.some((k) => k.active), keys };
  }

  return {
    kind: 'powerdns',
    dnssec,
    /** PUT dnssec (PowerDNS makes its default key, a CSK), NSEC3 without salt or extra iterations (RFC 9276) when asked, then a rectify. */
    async sign(zone, { nsec3 }) {
      const current = (await call('GET', `${zoneUrl(zone)}?rrsets=false`)) as { dnssec: boolean };
      if (!current.dnssec) {
        await call('PUT', zoneUrl(zone), { dnssec: true, api_rectify: true, ...(nsec3 ? { nsec3param: '1 0 0 -' } : {}) });
        await call('PUT', `${zoneUrl(zone)}/rectify`);
      }
      return dnssec(zone);
    },
    /** A CSK neither active nor published: its DS goes to the registry before any resolver sees the key (double DS). */
    async addKey(zone) {
      const state = await dnssec(zone);
      if (state.keys.some((k) => !k.active)) return state;
      const made = (await call('POST', `${zoneUrl(zone)}/cryptokeys`, {
        keytype: 'csk',
        active: false,
        published: false,
        algorithm: 'ECDSAP256SHA256',
      })) as Cryptokey;
      // PowerDNS may answer a cached key list for a while (dnssec-key-cache-ttl): the new key is the POST's answer.
      return { signed: state.signed, keys: [...state.keys, toKey(zone, made)] };
    },
    async swapKeys(zone) {
      const state = await dnssec(zone);
      const pending = state.keys.find((k) => !k.active);
      if (!pending) return state;
      await call('PUT', `${zoneUrl(zone)}/cryptokeys/${pending.id}`, { active: true, published: true });
      for (const key of state.keys.filter((k) => k.id !== pending.id)) await call('DELETE', `${zoneUrl(zone)}/cryptokeys/${key.id}`);
      await call('PUT', `${zoneUrl(zone)}/rectify`);
      return dnssec(zone);
    },
    /**
     * Read from the zone's SOA as served: PowerDNS 4.7 gives DNSKEY records the SOA minimum as TTL,
     * and negative answers the lesser of the SOA's TTL and minimum.
     */
    async keyTtl(zone) {
      const name = `${zone}.`;
      const soa = (
        (await call('GET', `${zoneUrl(zone)}?rrset_name=${encodeURIComponent(name)}&rrset_type=SOA`)) as { rrsets: PdnsRRset[] }
      ).rrsets.find((s) => s.type === 'SOA' && s.name === name);
      const ttl = soa?.ttl ?? SOA_TTL;
      const minimum = Number(soa?.records?.[0]?.content.trim().split(/\s+/)[6] ?? SOA_TIMERS.minimum);
      return Math.max(minimum, Math.min(ttl, minimum));
    },
    async unsign(zone) {
      await call('PUT', zoneUrl(zone), { dnssec: false, nsec3param: '' });
      // Keys PowerDNS kept (inactive or unpublished ones) go too: a later switch starts afresh.
      const left = (await call('GET', `${zoneUrl(zone)}/cryptokeys`)) as { id: number }[];
      for (const key of left) await call('DELETE', `${zoneUrl(zone)}/cryptokeys/${key.id}`);
      await call('PUT', `${zoneUrl(zone)}/rectify`);
    },
    async applyZone(state) {
      const id = encodeURIComponent(`${state.name}.`);
      let current: { rrsets: PdnsRRset[] };
      try {
        current = (await call('GET', `/zones/${id}?rrsets=true`)) as { rrsets: PdnsRRset[] };
      } catch (error) {
        if (error instanceof PowerDnsError && (error.status === 404 || error.status === 422)) return create(state);
        throw error;
      }
      const wanted = desired(state.rrsets);
      const keep = new Set(wanted.map((s) => `${s.name} ${s.type}`));
      const gone = current.rrsets
        .filter((s) => s.type !== 'SOA' && !keep.has(`${s.name} ${s.type}`))
        .map((s): PdnsRRset => ({ name: s.name, type: s.type, changetype: 'DELETE' }));
      await call('PATCH', `/zones/${id}`, { rrsets: [...gone, ...wanted] });
    },
    async removeZone(zone) {
      try {
        await call('DELETE', `/zones/${encodeURIComponent(`${zone}.`)}`);
      } catch (error) {
        // Already gone: what termination wanted.
        if (error instanceof PowerDnsError && (error.status === 404 || error.status === 422)) return;
        throw error;
      }
    },
    async patchRRsets(zone, rrsets, gone) {
      const deletes = gone.map((s): PdnsRRset => ({ name: s.name, type: toPdnsType(s.type as DnsType), changetype: 'DELETE' }));
      await call('PATCH', `/zones/${encodeURIComponent(`${zone}.`)}`, { rrsets: [...deletes, ...desired(rrsets)] });
    },
    async setTxt(zone, name, values) {
      const rrset: PdnsRRset = values.length
        ? { name, type: 'TXT', ttl: 60, changetype: 'REPLACE', records: values.map((v) => ({ content: txtContent(v), disabled: false })) }
        : { name, type: 'TXT', changetype: 'DELETE' };
      await call('PATCH', `/zones/${encodeURIComponent(`${zone}.`)}`, { rrsets: [rrset] });
    },
  };
}
