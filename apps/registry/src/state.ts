import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import type { Node } from './xml.ts';

/** The registry's objects, kept in memory (and written to a JSON file after each change when asked). */
export interface Status {
  s: string;
  lang?: string;
  text?: string;
}
export interface HostAddress {
  ip: 'v4' | 'v6';
  addr: string;
}
export interface KeyData {
  flags: number;
  protocol: number;
  alg: number;
  pubKey: string;
}
export interface DsData {
  keyTag: number;
  alg: number;
  digestType: number;
  digest: string;
  keyData?: KeyData;
}
export interface Transfer {
  status: 'pending' | 'clientApproved' | 'clientCancelled' | 'clientRejected' | 'serverApproved' | 'serverCancelled';
  reID: string;
  reDate: string;
  acID: string;
  acDate: string;
  /** Years added on approval. */
  years: number;
}
interface Sponsored {
  roid: string;
  statuses: Status[];
  clID: string;
  crID: string;
  crDate: string;
  upID?: string;
  upDate?: string;
  trDate?: string;
}
export interface DomainObject extends Sponsored {
  name: string;
  registrant?: string;
  contacts: { type: string; id: string }[];
  /** Host objects (by name) or host attributes, as the policy's host model says. */
  hostObjs: string[];
  hostAttrs: { name: string; addrs: HostAddress[] }[];
  exDate: string;
  authInfo: string;
  secDNS: { maxSigLife?: number; ds: DsData[]; keys: KeyData[] };
  /** RFC 3915: past expiry (`autoRenewPeriod`, the renewal grace), then deleted: restorable, then only waiting to be purged. */
  rgp?: 'autoRenewPeriod' | 'redemptionPeriod' | 'pendingRestore' | 'pendingDelete';
  deletedAt?: string;
  transfer?: Transfer;
}
export interface HostObject extends Sponsored {
  name: string;
  addrs: HostAddress[];
}
export interface PostalInfo {
  type: 'int' | 'loc';
  name: string;
  org?: string;
  street: string[];
  city: string;
  sp?: string;
  pc?: string;
  cc: string;
}
export interface Phone {
  number: string;
  x?: string;
}
export interface ContactObject extends Sponsored {
  id: string;
  postalInfo: PostalInfo[];
  voice?: Phone;
  fax?: Phone;
  email: string;
  authInfo: string;
  /** The fields a non-sponsor must not see (RFC 5733 disclose with flag 0), e.g. `name:int`, `voice`. */
  hidden: string[];
  transfer?: Transfer;
}
export interface PollMessage {
  id: string;
  clID: string;
  qDate: string;
  msg: string;
  resData?: Node;
}

export interface StateData {
  domains: Record<string, DomainObject>;
  hosts: Record<string, HostObject>;
  contacts: Record<string, ContactObject>;
  messages: PollMessage[];
  counter: number;
}

/** Tables keyed by names a client chooses: without a prototype, so an id like `__proto__` is just a key. */
const table = <T>(entries: Record<string, T> = {}): Record<string, T> => Object.assign(Object.create(null), entries);
const empty = (): StateData => ({ domains: table(), hosts: table(), contacts: table(), messages: [], counter: 0 });

export class RegistryState {
  data: StateData;
  readonly file?: string;
  constructor(file?: string) {
    this.file = file;
    this.data = empty();
    if (file) {
      try {
        const saved = JSON.parse(readFileSync(file, 'utf8')) as StateData;
        this.data = {
          domains: table(saved.domains),
          hosts: table(saved.hosts),
          contacts: table(saved.contacts),
          messages: saved.messages ?? [],
          counter: saved.counter ?? 0,
        };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      }
    }
  }

  /** A repository object identifier in the RFC's form (`D12-ATALAYA`). */
  roid(kind: 'D' | 'H' | 'C'): string {
    return `${kind}${++this.data.counter}-ATALAYA`;
  }

  nextId(): string {
    return String(++this.data.counter);
  }

  /** Writes the state file (atomically) when one was given; a test registry without one stays in memory. */
  save(): void {
    if (!this.file) return;
    writeFileSync(`${this.file}.tmp`, JSON.stringify(this.data));
    renameSync(`${this.file}.tmp`, this.file);
  }

  reset(): void {
    this.data = empty();
    this.save();
  }

  queue(clID: string, msg: string, resData: Node | undefined, now: Date): void {
    this.data.messages.push({ id: this.nextId(), clID, qDate: now.toISOString(), msg, resData });
  }
}
