import { CAA_TAGS, DNS_PRIORITIES, DNS_TTLS, DNS_TYPES, SRV_PROTOCOLS, SRV_SERVICES } from '@atalaya/contract';
import fc from 'fast-check';

const label = fc.stringMatching(/^[a-z0-9](?:[a-z0-9-]{0,8}[a-z0-9])?$/);
const hostZona = fc.oneof(
  fc.constant(''),
  fc.array(label, { minLength: 1, maxLength: 3 }).map((l) => l.join('.')),
  fc.constant('ñu'),
);
const anyZona = fc.oneof(
  hostZona,
  label.map((l) => `_${l}`),
);
const host = fc.domain();
const ttl = fc.constantFrom(...DNS_TTLS);
const priority = fc.constantFrom(...DNS_PRIORITIES);
const port = fc.integer({ min: 0, max: 65535 });

/** Records a customer might enter for each type, mostly valid, typed as the form sends them. */
export const recordInput = fc.oneof(
  fc.record({ type: fc.constant('A'), zona: hostZona, value: fc.ipV4(), ttl }),
  fc.record({ type: fc.constant('AAAA'), zona: hostZona, value: fc.ipV6(), ttl }),
  fc.record({ type: fc.constant('ANAME'), zona: hostZona, value: host, ttl }),
  fc.record({ type: fc.constant('CNAME'), zona: anyZona, value: host, ttl }),
  fc.record({ type: fc.constant('MX'), zona: hostZona, value: host, ttl, priority }),
  fc.record({ type: fc.constant('NS'), zona: hostZona, value: host, ttl }),
  fc.record({
    type: fc.constant('SRV'),
    zona: fc
      .tuple(fc.constantFrom(...SRV_SERVICES, '_xmpp-client'), fc.constantFrom(...SRV_PROTOCOLS), fc.constantFrom('', 'voz'))
      .map((p) => p.filter(Boolean).join('.')),
    value: fc.tuple(port, port, host).map(([w, p, h]) => `${w} ${p} ${h}`),
    ttl,
    priority,
  }),
  fc.record({
    type: fc.constant('CAA'),
    zona: hostZona,
    value: fc
      .tuple(fc.integer({ min: 0, max: 255 }), fc.constantFrom(...CAA_TAGS), host)
      .map(([flag, tag, h]) => (tag === 'iodef' ? `${flag} iodef "https://${h}/report"` : `${flag} ${tag} "${h}"`)),
    ttl,
  }),
  fc.record({
    type: fc.constant('TXT'),
    zona: anyZona,
    value: fc.string({ unit: 'binary', minLength: 1, maxLength: 700 }).filter((s) => !s.includes('\u0000')),
    ttl,
  }),
);

/** Anything at all in every field, to prove no input makes the server fail. */
export const hostileInput = fc.record({
  type: fc.oneof(fc.constantFrom(...DNS_TYPES), fc.string({ unit: 'binary', maxLength: 20 })),
  zona: fc.string({ unit: 'binary', maxLength: 300 }),
  value: fc.oneof(fc.string({ unit: 'binary', maxLength: 400 }), fc.string({ maxLength: 5000 })),
  ttl: fc.oneof(fc.constantFrom(...DNS_TTLS.map(String)), fc.string({ maxLength: 12 })),
  priority: fc.oneof(fc.constantFrom(...DNS_PRIORITIES.map(String)), fc.string({ maxLength: 12 })),
});
