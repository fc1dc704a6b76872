import type { SecDnsData } from '../interface.ts';
import { keyTag } from '../keytag.ts';
import { child, list, NS, text, type XmlNode } from './xml.ts';

/** RFC 5910 (secDNS-1.1): DS data or key data, read from domain:info and changed with domain:update. */

function dataNode(d: SecDnsData): XmlNode {
  if (d.type === 'pubkey') {
    return {
      'secDNS:keyData': { 'secDNS:flags': d.flags, 'secDNS:protocol': d.protocol, 'secDNS:alg': d.algorithm, 'secDNS:pubKey': d.digest },
    };
  }
  return {
    'secDNS:dsData': { 'secDNS:keyTag': d.keyTag, 'secDNS:alg': d.algorithm, 'secDNS:digestType': d.digestType, 'secDNS:digest': d.digest },
  };
}

/** The <extension> of a domain:update adding or removing one record. */
export function secDnsUpdate(change: { add?: SecDnsData; rem?: SecDnsData }): XmlNode {
  const update: XmlNode = { '@_xmlns:secDNS': NS.secDNS };
  // The schema's order is rem, then add.
  if (change.rem) update['secDNS:rem'] = dataNode(change.rem);
  if (change.add) update['secDNS:add'] = dataNode(change.add);
  return { 'secDNS:update': update };
}

/** The records of a domain:info's <secDNS:infData>, in the registry's order. */
export function readSecDns(extension: XmlNode | undefined): SecDnsData[] {
  // rgp:infData and secDNS:infData read alike once prefixes are gone: take the one with DNSSEC data.
  const data = list(extension, 'infData').find((d) => child(d, 'dsData') || child(d, 'keyData'));
  if (!data) return [];
  const ds = list(data, 'dsData').map(
    (d): SecDnsData => ({
      type: 'digest',
      keyTag: Number(text(child(d, 'keyTag'))),
      algorithm: Number(text(child(d, 'alg'))),
      digestType: Number(text(child(d, 'digestType'))),
      digest: text(child(d, 'digest')),
      flags: null,
      protocol: null,
    }),
  );
  const keys = list(data, 'keyData').map((k): SecDnsData => {
    const flags = Number(text(child(k, 'flags')));
    const protocol = Number(text(child(k, 'protocol')));
    const algorithm = Number(text(child(k, 'alg')));
    const pubKey = text(child(k, 'pubKey'));
    return {
      type: 'pubkey',
      keyTag: keyTag(flags, protocol, algorithm, pubKey),
      algorithm,
      digestType: null,
      digest: pubKey,
      flags,
      protocol,
    };
  });
  return [...ds, ...keys];
}
