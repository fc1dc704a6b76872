import type { ContactPostal, ContactType, DnsMode, DnssecType, RenewalMode } from '@atalaya/contract';
import type { Lifecycle, LifePolicy } from './lifecycle.ts';

/**
 * What the panel asks of a domain registry. Shaped after EPP so that an EPP driver can follow the
 * local one: domain info and update (RFC 5731), host objects for glue (RFC 5732), contacts
 * (RFC 5733) and DS or key data (RFC 5910). Every change runs atomically and is refused with
 * `blocked` while the domain carries clientUpdateProhibited, except lifting that status itself.
 */

/** RFC 5731 §2.3 client statuses the panel sets; the server ones are the registry's business. */
export type DomainStatus = 'ok' | 'clientUpdateProhibited' | 'clientTransferProhibited' | 'clientDeleteProhibited';

/** RFC 5733 postal info and voice, plus the identity number Spanish registries ask for. */
/** `phone` is E.164 as EPP writes it (+CC.NUMBER); `country` is ISO 3166-1 alpha-2. */
export interface ContactData extends ContactPostal {
  isOrg: boolean;
  identNumber: string;
}

/** A subordinate host object: the glue record of a name server inside the domain. */
export interface HostData {
  name: string;
  ipv4: string;
  ipv6: string;
}
export interface Host extends HostData {
  id: number;
}

/** secDNS-1.1 dsData (digest) or keyData (pubkey), behind a panel id. */
export interface SecDnsData {
  type: DnssecType;
  keyTag: number;
  algorithm: number;
  digestType: number | null;
  digest: string;
  flags: number | null;
  protocol: number | null;
}
export interface SecDns extends SecDnsData {
  id: number;
}

export interface DomainInfo {
  itemId: number;
  name: string;
  status: string;
  statuses: DomainStatus[];
  /** Its subordinate hosts at the registry (its glue records' names), lower case. */
  glueHosts: string[];
  /** Whether the registry publishes DNSSEC records (DS or keys) for it. */
  hasSecDns: boolean;
  /** The statuses only the registry sets (`serverHold`, `serverTransferProhibited`…): shown, never changed by the panel. */
  serverStatuses: string[];
  expireAt: number;
  /** Where the domain is in its life at the registry, and until when. */
  lifecycle: Lifecycle;
  /** The panel's choice: renewed by the schedule before expiry, or left to expire. */
  renewalMode: RenewalMode;
  /** After a change of owner, until when the panel keeps the transfer block on (Unix seconds; 0: no such lock). */
  transferLockUntil: number;
  updatedAt: number;
  dnsMode: DnsMode;
  nameServers: string[];
  /** Whois privacy: the contacts' disclose flags set to hide them. */
  privacy: boolean;
  authKind: 'authcode' | 'transferkey';
  hasAuthInfo: boolean;
  contacts: Partial<Record<ContactType, ContactData>>;
  /** The registrar account holding the domain when it is not this one ('' when the registry does not know it); null when it is ours. */
  heldBy: string | null;
  /** The panel's: the item waits for this domain's transfer in, so it is never registered. */
  transferIn: boolean;
  /** A transfer of the domain waits for its sponsor's answer (the pendingTransfer status). */
  pendingTransfer: boolean;
}

/** RFC 5731 §3.2.4 trStatus. */
export type TransferStatus = 'pending' | 'clientApproved' | 'clientRejected' | 'clientCancelled' | 'serverApproved' | 'serverCancelled';

/** A domain's transfer as the registry reports it (trnData); times Unix seconds. */
export interface TransferState {
  status: TransferStatus;
  /** The registrar account that asked for the domain, and when. */
  requestedBy: string;
  requestedAt: number;
  /** The sponsor that must answer, and when the registry approves it on its own (once ended: when it ended). */
  actionBy: string;
  actionAt: number;
  /** The expiry after the transfer, once approved. */
  expireAt: number | null;
  /** This registrar asked for it (a transfer in); false when another asked for a domain of ours (out). */
  incoming: boolean;
}

export interface RegistrationData {
  /** The registration period; the registry's own (the epp driver's `periodYears`, the item's expiry locally) when absent. */
  years?: number;
  mode: DnsMode;
  nameServers: string[];
  authKind: 'authcode' | 'transferkey';
  contacts: Record<ContactType, ContactData>;
}

/** What RFC 3915 §4.2.5's restore report states: the data before and after, when and why. */
export interface RestoreReport {
  deletedAt: number;
  restoredAt: number;
  reason: string;
  /** Who asked for it, for the statement the registry keeps. */
  by: string;
}

export type RegistryErrorCode = 'blocked' | 'not_found' | 'exists' | 'in_use' | 'needs_glue' | 'policy' | 'authorization';

/** A refusal by the registry (EPP result codes 2302, 2303, 2304, 2305, 2306, 2201 and their kin). */
export class RegistryError extends Error {
  readonly code: RegistryErrorCode;
  /** For needs_glue: the name server that lacks its host object. */
  readonly subject: string;
  /** The registry's own words for the refusal (a remote registry's <msg> and reason), empty for the local one. */
  readonly reason: string;
  /** The EPP result code, when a remote registry answered. */
  readonly result: number | null;
  constructor(code: RegistryErrorCode, subject = '', detail: { reason?: string; result?: number } = {}) {
    super(`registry: ${code}${detail.reason ? ` (${detail.result}: ${detail.reason})` : ''}`);
    this.code = code;
    this.subject = subject;
    this.reason = detail.reason ?? '';
    this.result = detail.result ?? null;
  }
}

/** One message of the registry's poll queue (RFC 5730 §2.9.2.3), as far as the panel reads it. */
export type RegistryMessage = { id: string; count: number; queuedAt: string; text: string; xml: string } & (
  | { kind: 'pending'; object: string; applied: boolean; clTRID: string; svTRID: string }
  | { kind: 'transfer'; object: string; status: string; requestedBy: string; state: TransferState | null }
  | { kind: 'status'; object: string; statuses: string[] }
  | { kind: 'unknown' }
);

export interface RegistryDriver {
  /** The registry's renewal periods and grace periods. */
  readonly policy: LifePolicy;
  /** domain:info; null for an item without a domain. */
  info(itemId: number): Promise<DomainInfo | null>;
  /** domain:create of a domain the panel has but the registry does not know yet (idempotent). */
  create(itemId: number, data: RegistrationData): Promise<void>;
  /** domain:update with status add/rem. */
  updateStatus(itemId: number, change: { add?: DomainStatus[]; rem?: DomainStatus[] }): Promise<void>;
  /** contact:update of the disclose flags of every contact of the domain. */
  setPrivacy(itemId: number, on: boolean): Promise<void>;
  /** domain:update replacing the whole name-server set at once. */
  setNameServers(itemId: number, mode: DnsMode, hosts: string[]): Promise<void>;
  listHosts(itemId: number): Promise<Host[]>;
  createHost(itemId: number, host: HostData): Promise<number>;
  updateHost(itemId: number, hostId: number, addresses: Omit<HostData, 'name'>): Promise<void>;
  deleteHost(itemId: number, hostId: number): Promise<void>;
  listSecDns(itemId: number): Promise<SecDns[]>;
  addSecDns(itemId: number, data: SecDnsData): Promise<number>;
  removeSecDns(itemId: number, id: number): Promise<void>;
  /** contact:update of one or several roles with the same data, atomically. */
  updateContacts(itemId: number, roles: ContactType[], data: ContactData): Promise<void>;
  /** The domain's authInfo (auth code or transfer key), null when it has none; a read: it never writes. Never logged. */
  authInfo(itemId: number): Promise<string | null>;
  /** The domain's authInfo, generated and stored when it has none (a write: only where write permission is held). */
  createAuthInfo(itemId: number): Promise<string>;
  /**
   * The head of the registry's message queue, null when it is empty; absent on a registry that
   * keeps no queue (the local one applies every change at once).
   */
  pollMessage?(): Promise<RegistryMessage | null>;
  /** Removes a message read with pollMessage from the queue. */
  ackMessage?(id: string): Promise<void>;
  /**
   * domain:renew from `curExpDate` (the expiry the caller saw, Unix seconds): refused with `policy`
   * when the expiry is another, so a repeated renewal never adds years twice. Answers the new expiry.
   */
  renew(itemId: number, years: number, curExpDate: number): Promise<number>;
  /** RFC 3915 restore of a domain in redemption: the request, then the report the registry requires. Answers the new expiry. */
  restore(itemId: number, report: RestoreReport): Promise<number>;
  /** A new, random authInfo replacing the old one (RFC 9154); answers it. Never logged. */
  regenerateAuthInfo(itemId: number): Promise<string>;
  /** Whether `authCode` is the domain's authInfo (a read: domain:info with the code, answered by any registrar). */
  checkAuthInfo(itemId: number, authCode: string): Promise<boolean>;
  /**
   * domain:transfer request of a domain another registrar holds, for `years`: pending until its
   * sponsor answers or the registry approves it. Refused with `authorization` for a wrong code.
   */
  transferRequest(itemId: number, authCode: string, years: number): Promise<TransferState>;
  /** domain:transfer query: the domain's last transfer, null when there is none this registrar may see. */
  transferQuery(itemId: number): Promise<TransferState | null>;
  /** The sponsor's answer to a pending transfer away, or the requester taking its request back. */
  transferApprove(itemId: number): Promise<TransferState>;
  transferReject(itemId: number): Promise<TransferState>;
  transferCancel(itemId: number): Promise<TransferState>;
  /** Ends the driver's connections (EPP logout); called when the runtime closes. */
  close?(): Promise<void>;
}
