/**
 * The XML namespaces of the EPP subset both sides speak (RFC 5730 framework, 5731 domain, 5732
 * host, 5733 contact, 5910 secDNS-1.1, 3915 rgp-1.0): one table for the panel's driver and the
 * test registry, so the two never drift apart. Each side keeps its own parsing and checks; only
 * the names are shared.
 */
export const EPP_NS = {
  epp: 'urn:ietf:params:xml:ns:epp-1.0',
  domain: 'urn:ietf:params:xml:ns:domain-1.0',
  host: 'urn:ietf:params:xml:ns:host-1.0',
  contact: 'urn:ietf:params:xml:ns:contact-1.0',
  secDNS: 'urn:ietf:params:xml:ns:secDNS-1.1',
  rgp: 'urn:ietf:params:xml:ns:rgp-1.0',
} as const;
