import type { ContactType, DnsMode } from '@atalaya/contract';
import {
  type ContactData,
  type DomainStatus,
  type HostData,
  type RegistrationData,
  type RegistryDriver,
  RegistryError,
  type SecDnsData,
} from '../../drivers/registry/interface.ts';
import { addYears, dayOf } from '../../drivers/registry/lifecycle.ts';
import { recordTransaction } from '../../drivers/registry/trace.ts';
import type { Secrets } from '../../secrets.ts';
import type { Store } from '../../store/db.ts';
import { billRenewal } from './renew.ts';

/**
 * What a queued registry change does when its job runs, by action name (decision 038). Each
 * action brings the registry to what the payload asks for, reading the registry first where a
 * repeat would be refused, so that a job run twice (a crash, a lease taken over) ends the same.
 * A new registry action (renew, restore, a transfer) is one entry here and a route that queues it
 * with `queueRegistryChange`.
 */
export type RegistryAction = (registry: RegistryDriver, itemId: number, payload: never, ctx: ActionContext) => Promise<void>;

/** What an action may need besides the registry: the store (what it records once applied), the key of sealed payloads. */
export interface ActionContext {
  store: Store;
  secrets: Secrets;
}

/** What makes two DNSSEC records the same one at the registry. */
export const secDnsKey = (d: SecDnsData) => `${d.type}:${d.keyTag}:${d.algorithm}:${d.digestType}:${d.digest.toLowerCase()}`;

const action = <P>(run: (registry: RegistryDriver, itemId: number, payload: P, ctx: ActionContext) => Promise<void>) =>
  run as RegistryAction;

export interface Payloads {
  nameServers: { mode: DnsMode; hosts: string[] };
  status: { status: DomainStatus; on: boolean };
  privacy: { on: boolean };
  contacts: { roles: ContactType[]; data: ContactData };
  hostCreate: HostData;
  /** `name` too since reconcile compares glue by name (changes queued before it carry the id only). */
  hostUpdate: { hostId: number; name?: string; ipv4: string; ipv6: string };
  hostDelete: { hostId: number; name?: string };
  secDnsAdd: SecDnsData;
  secDnsRemove: { id: number; key: string };
  /** The auth code sealed with the app's key: the payload is stored, the code never in clear. */
  transferRequest: { sealed: string; years: number };
  transferAnswer: Record<string, never>;
  /** From the expiry the request read (Unix seconds), billed once to `actor`. */
  renew: { years: number; curExpDate: number; actor: string };
  /** A registration (decision 051): what it is registered with, and who asked, billed once it is applied (charges.ts). */
  register: { registration: RegistrationData; actor: string };
  /** Each role's data from another domain, the roles with the same data in one update. */
  contactsCopy: { contacts: Partial<Record<ContactType, ContactData>> };
}

/** The sponsor's answers and the requester's cancel: only while a transfer is pending, so a repeat finds it answered and stops. */
const answerTransfer = (answer: 'transferApprove' | 'transferReject' | 'transferCancel') =>
  action<Payloads['transferAnswer']>(async (registry, itemId) => {
    if ((await registry.transferQuery(itemId))?.status !== 'pending') return;
    await registry[answer](itemId);
  });

export const REGISTRY_ACTIONS: Record<string, RegistryAction> = {
  nameServers: action<Payloads['nameServers']>((registry, itemId, { mode, hosts }) => registry.setNameServers(itemId, mode, hosts)),
  status: action<Payloads['status']>(async (registry, itemId, { status, on }) => {
    const info = await registry.info(itemId);
    if (!info || info.statuses.includes(status) === on) return;
    await registry.updateStatus(itemId, on ? { add: [status] } : { rem: [status] });
  }),
  privacy: action<Payloads['privacy']>(async (registry, itemId, { on }) => {
    const info = await registry.info(itemId);
    if (!info || info.privacy === on) return;
    await registry.setPrivacy(itemId, on);
  }),
  contacts: action<Payloads['contacts']>((registry, itemId, { roles, data }) => registry.updateContacts(itemId, roles, data)),
  hostCreate: action<Payloads['hostCreate']>(async (registry, itemId, host) => {
    const hosts = await registry.listHosts(itemId);
    if (hosts.some((h) => h.name === host.name && h.ipv4 === host.ipv4 && h.ipv6 === host.ipv6)) return;
    await registry.createHost(itemId, host);
  }),
  hostUpdate: action<Payloads['hostUpdate']>((registry, itemId, { hostId, ipv4, ipv6 }) =>
    registry.updateHost(itemId, hostId, { ipv4, ipv6 }),
  ),
  hostDelete: action<Payloads['hostDelete']>(async (registry, itemId, { hostId }) => {
    if (!(await registry.listHosts(itemId)).some((h) => h.id === hostId)) return;
    await registry.deleteHost(itemId, hostId);
  }),
  secDnsAdd: action<Payloads['secDnsAdd']>(async (registry, itemId, data) => {
    const key = secDnsKey(data);
    if (!(await registry.listSecDns(itemId)).some((d) => secDnsKey(d) === key)) await registry.addSecDns(itemId, data);
  }),
  secDnsRemove: action<Payloads['secDnsRemove']>(async (registry, itemId, { id }) => {
    if (!(await registry.listSecDns(itemId)).some((d) => d.id === id)) return;
    await registry.removeSecDns(itemId, id);
  }),
  transferRequest: action<Payloads['transferRequest']>(async (registry, itemId, { sealed, years }, { secrets }) => {
    const info = await registry.info(itemId);
    // Ours already (an earlier run completed it), or asked already: nothing to send again.
    if (info && info.heldBy === null) return;
    if (info?.pendingTransfer && (await registry.transferQuery(itemId))?.incoming) {
      // Asked already (the answer was lost, or a crash came after it): the change still waits for the outcome.
      recordTransaction({ command: 'domain:transfer', clTRID: '', svTRID: '', result: 1001, pending: true });
      return;
    }
    await registry.transferRequest(itemId, secrets.decrypt(sealed), years);
  }),
  transferApprove: answerTransfer('transferApprove'),
  transferReject: answerTransfer('transferReject'),
  transferCancel: answerTransfer('transferCancel'),
  renew: action<Payloads['renew']>(async (registry, itemId, { years, curExpDate, actor }, { store }) => {
    const target = addYears(curExpDate, years);
    let expireAt: number;
    try {
      expireAt = await registry.renew(itemId, years, curExpDate);
    } catch (error) {
      // A job run again after its renewal was applied finds the expiry it set: billed, not renewed twice.
      if (!(error instanceof RegistryError && error.subject === 'curExpDate')) throw error;
      const info = await registry.info(itemId);
      if (!info || dayOf(info.expireAt) !== dayOf(target)) throw error;
      expireAt = info.expireAt;
    }
    const row = await store.selectFrom('domain').select('name').where('item_id', '=', itemId).executeTakeFirstOrThrow();
    await billRenewal(store, { itemId, name: row.name, expireAt: curExpDate }, years, expireAt, actor);
  }),
  register: action<Payloads['register']>(async (registry, itemId, { registration }) => {
    // domain:create leaves a domain the registry has already as it is: a run again after a crash changes nothing.
    await registry.create(itemId, registration);
    // Taken by another registrar in between: not ours, so not registered (and not billed) here.
    const info = await registry.info(itemId);
    if (!info || info.heldBy !== null) throw new RegistryError('exists');
  }),
  contactsCopy: action<Payloads['contactsCopy']>(async (registry, itemId, { contacts }) => {
    const groups = new Map<string, { roles: ContactType[]; data: ContactData }>();
    for (const [role, data] of Object.entries(contacts) as [ContactType, ContactData][]) {
      const key = JSON.stringify(data);
      const group = groups.get(key) ?? { roles: [], data };
      group.roles.push(role);
      groups.set(key, group);
    }
    for (const { roles, data } of groups.values()) await registry.updateContacts(itemId, roles, data);
  }),
};
