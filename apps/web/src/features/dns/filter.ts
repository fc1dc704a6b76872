import type { DnsRecord } from '@atalaya/contract';

/** 'All' or one record type: the DNS list's type filter, applied on the server. */
export type TypeFilter = 'ALL' | DnsRecord['type'];
