import type { Ctx } from './context.ts';
import { fail } from './results.ts';
import type { DomainObject, DsData, KeyData } from './state.ts';
import { child, childrenNamed, type Element, NS, textOf, x } from './xml.ts';

/** DNSSEC data of a domain (RFC 5910, secDNS-1.1): the DS interface or the key interface, never both on one domain. */
const S = NS.secDNS;

const readKey = (e: Element): KeyData => ({
  flags: Number(textOf(e, S, 'flags')),
  protocol: Number(textOf(e, S, 'protocol')),
  alg: Number(textOf(e, S, 'alg')),
  pubKey: (textOf(e, S, 'pubKey') as string).replace(/\s+/g, ''),
});
const readDs = (e: Element): DsData => {
  const key = child(e, S, 'keyData');
  return {
    keyTag: Number(textOf(e, S, 'keyTag')),
    alg: Number(textOf(e, S, 'alg')),
    digestType: Number(textOf(e, S, 'digestType')),
    digest: (textOf(e, S, 'digest') as string).toUpperCase(),
    ...(key ? { keyData: readKey(key) } : {}),
  };
};
const sameDs = (a: DsData, b: DsData) => a.keyTag === b.keyTag && a.alg === b.alg && a.digestType === b.digestType && a.digest === b.digest;
const sameKey = (a: KeyData, b: KeyData) => a.flags === b.flags && a.protocol === b.protocol && a.alg === b.alg && a.pubKey === b.pubKey;

function checkKey(key: KeyData): void {
  if (key.protocol !== 3) fail(2306, `a DNSKEY protocol must be 3, not ${key.protocol}`, String(key.protocol));
}

function limits(ctx: Ctx, domain: DomainObject): void {
  const { ds, keys } = domain.secDNS;
  if (ds.length && keys.length) fail(2306, 'a domain takes DS data or key data, not both');
  const count = ds.length + keys.length;
  if (count > ctx.policy.dsMax) fail(2306, `a domain takes at most ${ctx.policy.dsMax} DNSSEC records, not ${count}`, String(count));
}

export function applySecDnsCreate(ctx: Ctx, domain: DomainObject, create: Element): void {
  const maxSigLife = textOf(create, S, 'maxSigLife');
  domain.secDNS = {
    ...(maxSigLife ? { maxSigLife: Number(maxSigLife) } : {}),
    ds: childrenNamed(create, S, 'dsData').map(readDs),
    keys: childrenNamed(create, S, 'keyData').map(readKey),
  };
  for (const key of [...domain.secDNS.keys, ...domain.secDNS.ds.flatMap((d) => (d.keyData ? [d.keyData] : []))]) checkKey(key);
  limits(ctx, domain);
}

export function applySecDnsUpdate(ctx: Ctx, domain: DomainObject, update: Element): void {
  const rem = child(update, S, 'rem');
  const add = child(update, S, 'add');
  const chg = child(update, S, 'chg');
  const secDNS = domain.secDNS;
  const all = textOf(rem, S, 'all');
  if (all === 'true' || all === '1') {
    secDNS.ds = [];
    secDNS.keys = [];
  }
  for (const ds of childrenNamed(rem, S, 'dsData').map(readDs)) {
    if (!secDNS.ds.some((d) => sameDs(d, ds))) fail(2306, `no DS record with key tag ${ds.keyTag} to remove`, String(ds.keyTag));
    secDNS.ds = secDNS.ds.filter((d) => !sameDs(d, ds));
  }
  for (const key of childrenNamed(rem, S, 'keyData').map(readKey)) {
    if (!secDNS.keys.some((k) => sameKey(k, key))) fail(2306, 'no such DNSKEY to remove');
    secDNS.keys = secDNS.keys.filter((k) => !sameKey(k, key));
  }
  for (const ds of childrenNamed(add, S, 'dsData').map(readDs)) {
    if (secDNS.ds.some((d) => sameDs(d, ds))) fail(2306, `the DS record with key tag ${ds.keyTag} is already there`, String(ds.keyTag));
    if (ds.keyData) checkKey(ds.keyData);
    secDNS.ds.push(ds);
  }
  for (const key of childrenNamed(add, S, 'keyData').map(readKey)) {
    if (secDNS.keys.some((k) => sameKey(k, key))) fail(2306, 'this DNSKEY is already there');
    checkKey(key);
    secDNS.keys.push(key);
  }
  const maxSigLife = textOf(chg, S, 'maxSigLife');
  if (maxSigLife) secDNS.maxSigLife = Number(maxSigLife);
  limits(ctx, domain);
}

const keyNode = (k: KeyData) =>
  x('secDNS:keyData', {}, [
    x('secDNS:flags', {}, String(k.flags)),
    x('secDNS:protocol', {}, String(k.protocol)),
    x('secDNS:alg', {}, String(k.alg)),
    x('secDNS:pubKey', {}, k.pubKey),
  ]);

/** `<secDNS:infData>` for a domain's info, or nothing when it has no DNSSEC data. */
export function secDnsInfo(domain: DomainObject) {
  const { ds, keys, maxSigLife } = domain.secDNS;
  if (!ds.length && !keys.length) return undefined;
  return x('secDNS:infData', { 'xmlns:secDNS': S }, [
    maxSigLife !== undefined && x('secDNS:maxSigLife', {}, String(maxSigLife)),
    ...ds.map((d) =>
      x('secDNS:dsData', {}, [
        x('secDNS:keyTag', {}, String(d.keyTag)),
        x('secDNS:alg', {}, String(d.alg)),
        x('secDNS:digestType', {}, String(d.digestType)),
        x('secDNS:digest', {}, d.digest),
        d.keyData && keyNode(d.keyData),
      ]),
    ),
    ...keys.map(keyNode),
  ]);
}
