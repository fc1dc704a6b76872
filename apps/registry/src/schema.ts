import {
  anyText,
  authPassword,
  base64,
  boolean,
  choice,
  clientId,
  countryCode,
  date,
  dateTime,
  type ElementSpec,
  e164,
  email,
  emptyText,
  hex,
  hostName,
  inNamespace,
  integer,
  ipAddress,
  many,
  one,
  oneOf,
  opt,
  password,
  token,
  uri,
} from './grammar.ts';
import { NS } from './xml.ts';

/**
 * The EPP grammar this registry accepts, transcribed from the schemas of RFC 5730 (epp-1.0),
 * 5731 (domain-1.0), 5732 (host-1.0), 5733 (contact-1.0), 5910 (secDNS-1.1) and 3915 (rgp-1.0):
 * the same element names, order, counts and value types.
 */
const epp = inNamespace(NS.epp);
const domain = inNamespace(NS.domain);
const host = inNamespace(NS.host);
const contact = inNamespace(NS.contact);
const secDNS = inNamespace(NS.secDNS);
const rgp = inNamespace(NS.rgp);

const lang = { type: token(1, 20) };
const ipAttr = { ip: { type: oneOf('v4', 'v6') } };

export const DOMAIN_STATUSES = [
  'clientDeleteProhibited',
  'clientHold',
  'clientRenewProhibited',
  'clientTransferProhibited',
  'clientUpdateProhibited',
  'inactive',
  'ok',
  'pendingCreate',
  'pendingDelete',
  'pendingRenew',
  'pendingTransfer',
  'pendingUpdate',
  'serverDeleteProhibited',
  'serverHold',
  'serverRenewProhibited',
  'serverTransferProhibited',
  'serverUpdateProhibited',
];
export const HOST_STATUSES = [
  'clientDeleteProhibited',
  'clientUpdateProhibited',
  'linked',
  'ok',
  'pendingCreate',
  'pendingDelete',
  'pendingTransfer',
  'pendingUpdate',
  'serverDeleteProhibited',
  'serverUpdateProhibited',
];
export const CONTACT_STATUSES = [
  'clientDeleteProhibited',
  'clientTransferProhibited',
  'clientUpdateProhibited',
  'linked',
  'ok',
  'pendingCreate',
  'pendingDelete',
  'pendingTransfer',
  'pendingUpdate',
  'serverDeleteProhibited',
  'serverTransferProhibited',
  'serverUpdateProhibited',
];

const statusOf = (make: typeof domain, values: string[]) =>
  make('status', { text: anyText, attrs: { s: { type: oneOf(...values), required: true }, lang } });
const period = (make: typeof domain) =>
  make('period', { text: integer(1, 99), attrs: { unit: { type: oneOf('y', 'm'), required: true } } });
const authInfo = (make: typeof domain, orNull = false) =>
  make('authInfo', {
    content: [
      choice(
        1,
        1,
        [one(make('pw', { text: orNull ? token(0, 255) : authPassword, attrs: { roid: { type: token(1, 89) } } }))],
        [one(make('ext', { content: [] }))],
        ...(orNull ? [[one(make('null', { text: emptyText }))]] : []),
      ),
    ],
  });

// domain-1.0
const domainName = domain('name', { text: hostName });
const hostAttr = domain('hostAttr', {
  content: [one(domain('hostName', { text: hostName })), many(domain('hostAddr', { text: ipAddress, attrs: ipAttr }))],
});
const domainNs = domain('ns', {
  content: [choice(1, 1, [many(domain('hostObj', { text: hostName }), 1)], [many(hostAttr, 1)])],
});
const domainContact = domain('contact', {
  text: clientId,
  attrs: { type: { type: oneOf('admin', 'billing', 'tech'), required: true } },
});
const domainAddRem = (name: string) =>
  domain(name, { content: [opt(domainNs), many(domainContact), many(statusOf(domain, DOMAIN_STATUSES), 0, 11)] });

const domainCommands: Record<string, ElementSpec> = {
  check: domain('check', { content: [many(domainName, 1)] }),
  info: domain('info', {
    content: [
      one(domain('name', { text: hostName, attrs: { hosts: { type: oneOf('all', 'del', 'sub', 'none') } } })),
      opt(authInfo(domain)),
    ],
  }),
  create: domain('create', {
    content: [
      one(domainName),
      opt(period(domain)),
      opt(domainNs),
      opt(domain('registrant', { text: clientId })),
      many(domainContact),
      one(authInfo(domain)),
    ],
  }),
  delete: domain('delete', { content: [one(domainName)] }),
  renew: domain('renew', { content: [one(domainName), one(domain('curExpDate', { text: date })), opt(period(domain))] }),
  transfer: domain('transfer', { content: [one(domainName), opt(period(domain)), opt(authInfo(domain))] }),
  update: domain('update', {
    content: [
      one(domainName),
      opt(domainAddRem('add')),
      opt(domainAddRem('rem')),
      opt(domain('chg', { content: [opt(domain('registrant', { text: token(0, 16) })), opt(authInfo(domain, true))] })),
    ],
  }),
};

// host-1.0
const hostNameEl = host('name', { text: hostName });
const hostAddr = host('addr', { text: ipAddress, attrs: ipAttr });
const hostAddRem = (name: string) => host(name, { content: [many(hostAddr), many(statusOf(host, HOST_STATUSES), 0, 7)] });
const hostCommands: Record<string, ElementSpec> = {
  check: host('check', { content: [many(hostNameEl, 1)] }),
  info: host('info', { content: [one(hostNameEl)] }),
  create: host('create', { content: [one(hostNameEl), many(hostAddr)] }),
  delete: host('delete', { content: [one(hostNameEl)] }),
  update: host('update', {
    content: [one(hostNameEl), opt(hostAddRem('add')), opt(hostAddRem('rem')), opt(host('chg', { content: [one(hostNameEl)] }))],
  }),
};

// contact-1.0
const contactId = contact('id', { text: clientId });
const postalType = { type: { type: oneOf('int', 'loc'), required: true } };
const contactAddr = contact('addr', {
  content: [
    many(contact('street', { text: token(0, 255) }), 0, 3),
    one(contact('city', { text: token(1, 255) })),
    opt(contact('sp', { text: token(0, 255) })),
    opt(contact('pc', { text: token(0, 16) })),
    one(contact('cc', { text: countryCode })),
  ],
});
const postalInfo = contact('postalInfo', {
  attrs: postalType,
  content: [one(contact('name', { text: token(1, 255) })), opt(contact('org', { text: token(0, 255) })), one(contactAddr)],
});
const chgPostalInfo = contact('postalInfo', {
  attrs: postalType,
  content: [opt(contact('name', { text: token(1, 255) })), opt(contact('org', { text: token(0, 255) })), opt(contactAddr)],
});
const phone = (name: string) => contact(name, { text: e164, attrs: { x: { type: token(0, 20) } } });
const disclose = contact('disclose', {
  attrs: { flag: { type: boolean, required: true } },
  content: [
    many(contact('name', { text: emptyText, attrs: postalType }), 0, 2),
    many(contact('org', { text: emptyText, attrs: postalType }), 0, 2),
    many(contact('addr', { text: emptyText, attrs: postalType }), 0, 2),
    opt(contact('voice', { text: emptyText })),
    opt(contact('fax', { text: emptyText })),
    opt(contact('email', { text: emptyText })),
  ],
});
const contactStatus = statusOf(contact, CONTACT_STATUSES);
const contactCommands: Record<string, ElementSpec> = {
  check: contact('check', { content: [many(contactId, 1)] }),
  info: contact('info', { content: [one(contactId), opt(authInfo(contact))] }),
  create: contact('create', {
    content: [
      one(contactId),
      many(postalInfo, 1, 2),
      opt(phone('voice')),
      opt(phone('fax')),
      one(contact('email', { text: email })),
      one(authInfo(contact)),
      opt(disclose),
    ],
  }),
  delete: contact('delete', { content: [one(contactId)] }),
  transfer: contact('transfer', { content: [one(contactId), opt(authInfo(contact))] }),
  update: contact('update', {
    content: [
      one(contactId),
      opt(contact('add', { content: [many(contactStatus, 1, 7)] })),
      opt(contact('rem', { content: [many(contactStatus, 1, 7)] })),
      opt(
        contact('chg', {
          content: [
            many(chgPostalInfo, 0, 2),
            opt(phone('voice')),
            opt(phone('fax')),
            opt(contact('email', { text: email })),
            opt(authInfo(contact)),
            opt(disclose),
          ],
        }),
      ),
    ],
  }),
};

// secDNS-1.1
const maxSigLife = secDNS('maxSigLife', { text: integer(1, 2147483647) });
const keyData = secDNS('keyData', {
  content: [
    one(secDNS('flags', { text: integer(0, 65535) })),
    one(secDNS('protocol', { text: integer(0, 255) })),
    one(secDNS('alg', { text: integer(0, 255) })),
    one(secDNS('pubKey', { text: base64 })),
  ],
});
const dsData = secDNS('dsData', {
  content: [
    one(secDNS('keyTag', { text: integer(0, 65535) })),
    one(secDNS('alg', { text: integer(0, 255) })),
    one(secDNS('digestType', { text: integer(0, 255) })),
    one(secDNS('digest', { text: hex })),
    opt(keyData),
  ],
});
const dsOrKey = () => choice(1, 1, [many(dsData, 1)], [many(keyData, 1)]);
export const secDnsCreate = secDNS('create', { content: [opt(maxSigLife), dsOrKey()] });
export const secDnsUpdate = secDNS('update', {
  attrs: { urgent: { type: boolean } },
  content: [
    opt(secDNS('rem', { content: [choice(1, 1, [one(secDNS('all', { text: boolean }))], [many(dsData, 1)], [many(keyData, 1)])] })),
    opt(secDNS('add', { content: [dsOrKey()] })),
    opt(secDNS('chg', { content: [opt(maxSigLife)] })),
  ],
});

// rgp-1.0
const mixed = (name: string) => rgp(name, { text: anyText, attrs: { lang } });
export const rgpUpdate = rgp('update', {
  content: [
    one(
      rgp('restore', {
        attrs: { op: { type: oneOf('request', 'report'), required: true } },
        content: [
          opt(
            rgp('report', {
              content: [
                one(mixed('preData')),
                one(mixed('postData')),
                one(rgp('delTime', { text: dateTime })),
                one(rgp('resTime', { text: dateTime })),
                one(mixed('resReason')),
                many(mixed('statement'), 1, 2),
                opt(mixed('other')),
              ],
            }),
          ),
        ],
      }),
    ),
  ],
});

const objectsFor = (verb: string) =>
  [domainCommands[verb], hostCommands[verb], contactCommands[verb]].filter((spec): spec is ElementSpec => Boolean(spec));
const verb = (name: string, attrs?: ElementSpec['attrs']) =>
  epp(name, { attrs, content: [choice(1, 1, ...objectsFor(name).map((spec) => [one(spec)]))] });

const login = epp('login', {
  content: [
    one(epp('clID', { text: clientId })),
    one(epp('pw', { text: password })),
    opt(epp('newPW', { text: password })),
    one(epp('options', { content: [one(epp('version', { text: token(1, 10) })), one(epp('lang', { text: token(1, 20) }))] })),
    one(
      epp('svcs', {
        content: [many(epp('objURI', { text: uri }), 1), opt(epp('svcExtension', { content: [many(epp('extURI', { text: uri }), 1)] }))],
      }),
    ),
  ],
});

/** The extension elements a command may carry; which command each belongs to is checked by the handler. */
const extension = epp('extension', {
  content: [choice(1, Number.POSITIVE_INFINITY, [one(secDnsCreate)], [one(secDnsUpdate)], [one(rgpUpdate)])],
});

const command = epp('command', {
  content: [
    choice(
      1,
      1,
      [one(verb('check'))],
      [one(verb('create'))],
      [one(verb('delete'))],
      [one(verb('info'))],
      [one(login)],
      [one(epp('logout', { text: emptyText }))],
      [
        one(
          epp('poll', {
            text: emptyText,
            attrs: { op: { type: oneOf('req', 'ack'), required: true }, msgID: { type: token(1, 64) } },
          }),
        ),
      ],
      [one(verb('renew'))],
      [one(verb('transfer', { op: { type: oneOf('request', 'query', 'approve', 'reject', 'cancel'), required: true } }))],
      [one(verb('update'))],
    ),
    opt(extension),
    opt(epp('clTRID', { text: token(3, 64) })),
  ],
});

/** A frame a client may send: `<hello/>` or a command. */
export const clientFrame = epp('epp', { content: [choice(1, 1, [one(epp('hello', { text: emptyText }))], [one(command)])] });

/** The object URIs and extension URIs this registry offers in its greeting. */
export const OBJECT_URIS = [NS.domain, NS.host, NS.contact];
export const EXTENSION_URIS = [NS.secDNS, NS.rgp];
