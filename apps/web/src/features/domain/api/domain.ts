import type { ContactSaveInput, CountryLookup, DnsInit, DnssecInit, DnssecRecord, DomainAnswer, GlueRecord } from '@atalaya/contract';
import { queryOptions } from '@tanstack/react-query';
import { call, type Fields, get, post } from '../../../lib/api.ts';

/** The domain calls of spec §7, one function each, with the query options the screen shares. */

export const domainKey = (id: number) => ['domain', id] as const;
export const glueKey = (id: number) => ['domain', id, 'glue'] as const;
export const dnssecKey = (id: number) => ['domain', id, 'dnssec'] as const;

export const domainQuery = (id: number) => queryOptions({ queryKey: domainKey(id), queryFn: () => get<DomainAnswer>(`domain/${id}/`) });
export const glueQuery = (id: number) =>
  queryOptions({ queryKey: glueKey(id), queryFn: () => get<{ gluerecords: GlueRecord[] }>(`domain/${id}/gluerecord/list/`).then((d) => d.gluerecords) });
export const dnssecQuery = (id: number) =>
  queryOptions({ queryKey: dnssecKey(id), queryFn: () => get<{ dnssec: DnssecRecord[] }>(`domain/${id}/dnssec/list/`).then((d) => d.dnssec) });
export const dnsInitQuery = (id: number) => queryOptions({ queryKey: ['domain', id, 'dnsinit'], queryFn: () => get<DnsInit>(`domains/${id}/dnsinit/`), staleTime: 0 });
export const dnssecInitQuery = (id: number) => queryOptions({ queryKey: ['domain', id, 'dnssecinit'], queryFn: () => get<DnssecInit>(`domain/${id}/dnssec/createinit/`) });

export type Toggle = 'block' | 'transferblock' | 'whoisprivacy';
export const toggle = (id: number, which: Toggle) => call<DomainAnswer>('GET', `domain/${id}/toggle/${which}/`);
export const fetchAuthCode = (id: number) => get<{ authCode: string }>(`domain/${id}/authcode/`).then((d) => d.authCode);
export const fetchTransferKey = (id: number) => get<{ transferkey: string }>(`domain/${id}/transferkey/`).then((d) => d.transferkey);

export const saveDns = (id: number, defaultNs: boolean, servers: string[]) =>
  call<unknown>('POST', `domain/${id}/dnsedit/`, { 'default-ns': defaultNs ? '1' : '0', dns: defaultNs ? undefined : servers });

export const createGlue = (id: number, fields: { name: string; ip: string; ipv6: string }) => call<{ id: number }>('POST', `domain/${id}/gluerecord/create/`, fields);
export const saveGlue = (id: number, recordId: number, fields: { ip: string; ipv6: string }) => call<unknown>('POST', `domain/${id}/gluerecord/${recordId}/save/`, fields);
export const deleteGlue = (id: number, recordId: number) => call<unknown>('GET', `domain/${id}/gluerecord/${recordId}/delete/`);

export const createDnssec = (id: number, fields: Fields) => call<{ id: number }>('POST', `domain/${id}/dnssec/create/`, fields);
export const deleteDnssec = (id: number, recordId: number) => call<unknown>('GET', `domain/${id}/dnssec/${recordId}/delete/`);

export const saveOwner = (id: number, fields: Omit<ContactSaveInput, 'type' | 'mode'>) => call<unknown>('POST', `domain/${id}/owner/save/`, { ...fields, type: 'registrant' });
export const saveContacts = (id: number, fields: ContactSaveInput) => call<unknown>('POST', `domain/${id}/contacts/save/`, { ...fields });

export const lookupAddress = (fields: { country: string; state: string; city: string; postal_code: string }) => post<CountryLookup>('tools/country/', fields);
