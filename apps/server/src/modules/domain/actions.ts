import type { ContactType, DnsMode } from '@atalaya/contract';
import type { Kysely } from 'kysely';
import {
  type ContactData,
  type DomainStatus,
  type HostData,
  type RegistrationData,
  type RegistryDriver,
  RegistryError,
  type RestoreReport,
  type SecDns,
  type SecDnsData,
} from '../../drivers/registry/interface.ts';
import { addYears, dayOf } from '../../drivers/registry/lifecycle.ts';
import { recordTransaction } from '../../drivers/registry/trace.ts';
import type { Secrets } from '../../secrets.ts';
import { now, type Store } from '../../store/db.ts';
import type { Database } from '../../store/schema.ts';
import { billRegistration } from './billing.ts';
import { managedDs } from './managed-ds.ts';
import { billRenewal, billRestore } from './renew.ts';

/**
 * What a queued registry change does when its job runs, by action name (decision 038). Each
 * action brings the registry to what the payload asks for, reading the registry first where a
 * repeat would be refused, so that a job run twice (a crash, a lease taken over) ends the same.
 * A new registry action (renew, restore, a transfer) is one entry here and a route that queues it
 * with `queueRegistryChange`.
 */
// biome-ignore lint/suspicious/noConfusingVoidType: an action that records nothing returns nothing
export type RegistryAction = (registry: RegistryDriver, itemId: number, payload: never, ctx: ActionContext) => Promise<void | ActionSettle>;

/**
 * What the panel records once an action is applied (a renewal's ledger line, the expiry it
 * stores), written in the transaction that settles the change done: both or neither.
 */
export type ActionSettle = (trx: Kysely<Database>) => Promise<void>;

/** What an action may need besides the registry: the store (what it records once applied), the key of sealed payloads. */
export interface ActionContext {
  store: Store;
  secrets: Secrets;
}

/** What makes two DNSSEC records the same one at the registry. */
export const secDnsKey = (d: SecDnsData) => `${d.type}:${d.keyTag}:${d.algorithm}:${d.digestType}:${d.digest.toLowerCase()}`;

// biome-ignore lint/suspicious/noConfusingVoidType: most actions record nothing and return nothing; a union with undefined would make each return it
const action = <P>(run: (registry: RegistryDriver, itemId: number, payload: P, ctx: ActionContext) => Promise<void | ActionSettle>) =>
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
  /** A registration (decision 051): what it is registered with, and who asked, billed once it is applied (billRegistration). */
  register: { registration: RegistrationData; actor: string };
  /** RFC 3915's report of a domain in redemption (`expireAt`: the expiry it lapsed at), billed once to `report.by`. */
  restore: { report: RestoreReport; expireAt: number };
  /** A new auth code (RFC 9154): the waiting call reads it from the registry once applied, so it is never stored. */
  authInfoRegenerate: Record<string, never>;
  /** A domain registered without an auth code gets one (the registry keeps one it has). */
  authInfoCreate: Record<string, never>;
  /**
   * The DS records of a zone the panel signs (decision 034), as the registry takes them, each with
   * the DS it stands for; then the zone's DNSSEC step moves on (`from` → `to`, the next wait from
   * the moment the registry holds them). Nothing is placed once the zone has left `from`.
   */
  zoneDs: { wanted: { data: SecDnsData; ds: ManagedDs }[]; step: { from: string; to: string; waitSeconds: number | null } };
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
  renew: action<Payloads['renew']>(async (registry, itemId, { years, curExpDate, actor }) => {
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
    return (trx) => billRenewal(trx, { itemId, expireAt: curExpDate }, years, expireAt, actor);
  }),
  restore: action<Payloads['restore']>(async (registry, itemId, { report, expireAt: lapsed }) => {
    let expireAt: number;
    try {
      expireAt = await registry.restore(itemId, report);
    } catch (error) {
      // A job run again after its restore was applied finds the domain out of redemption with a later expiry: billed, not restored twice.
      if (!(error instanceof RegistryError && error.code === 'blocked')) throw error;
      const info = await registry.info(itemId);
      if (!info || info.lifecycle.state === 'redemption' || info.expireAt <= lapsed) throw error;
      expireAt = info.expireAt;
    }
    return (trx) => billRestore(trx, { itemId, expireAt: lapsed }, expireAt, report.by);
  }),
  authInfoRegenerate: action<Payloads['authInfoRegenerate']>(async (registry, itemId) => {
    await registry.regenerateAuthInfo(itemId);
  }),
  authInfoCreate: action<Payloads['authInfoCreate']>(async (registry, itemId) => {
    await registry.createAuthInfo(itemId);
  }),
  zoneDs: action<Payloads['zoneDs']>(async (registry, itemId, { wanted, step }, { store }) => {
    const zone = await store.selectFrom('dns_zone').select('dnssec').where('item_id', '=', itemId).executeTakeFirst();
    // Switched again since it was queued: the later switch's own steps decide.
    if (zone?.dnssec !== step.from) return;
    await matchZoneDs(registry, store, itemId, wanted);
    return (trx) =>
      trx
        .updateTable('dns_zone')
        .set({ dnssec: step.to, dnssec_due_at: step.waitSeconds === null ? null : now() + step.waitSeconds })
        .where('item_id', '=', itemId)
        .where('dnssec', '=', step.from)
        .execute()
        .then(() => undefined);
  }),
  register: action<Payloads['register']>(async (registry, itemId, payload) => {
    // domain:create leaves a domain the registry has already as it is: a run again after a crash changes nothing.
    await registry.create(itemId, payload.registration);
    // Taken by another registrar in between: not ours, so not registered (and not billed) here.
    const info = await registry.info(itemId);
    if (!info || info.heldBy !== null) throw new RegistryError('exists');
    return (trx) => billRegistration(trx, itemId, payload);
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

/** The columns of a managed DS: what the zone's key asks the registry to hold. */
export interface ManagedDs {
  keyTag: number;
  algorithm: number;
  digestType: number;
  digest: string;
}

/** The registry's record for this DS data: key data by the key, DS data by its digest. */
const sameSecDns = (held: SecDnsData, data: SecDnsData) =>
  held.type === 'pubkey'
    ? data.type === 'pubkey' && held.digest === data.digest && held.algorithm === data.algorithm
    : held.keyTag === data.keyTag &&
      held.algorithm === data.algorithm &&
      held.digestType === data.digestType &&
      held.digest.toUpperCase() === data.digest.toUpperCase();

/**
 * As the domain's registrar: the registry holds a DS for each key the zone has (placed and noted
 * as managed when missing), and none the panel placed for a key the zone no longer has. A domain
 * the registry no longer knows has nothing left to withdraw.
 */
async function matchZoneDs(registry: RegistryDriver, store: Store, itemId: number, wanted: Payloads['zoneDs']['wanted']) {
  const info = await registry.info(itemId);
  if (!info && wanted.length) return;
  let held: SecDns[] = [];
  try {
    if (info) held = await registry.listSecDns(itemId);
  } catch (error) {
    if (wanted.length || !(error instanceof RegistryError && error.code === 'not_found')) throw error;
  }
  const managed = await managedDs(store, itemId);
  const kept = new Set<number>();
  for (const { data, ds } of wanted) {
    let id = held.find((h) => sameSecDns(h, data))?.id;
    if (id === undefined) id = await registry.addSecDns(itemId, data);
    kept.add(id);
    if (!managed.some((m) => m.ds_id === id)) {
      await store
        .insertInto('dns_managed_ds')
        .values({ item_id: itemId, ds_id: id, key_tag: ds.keyTag, algorithm: ds.algorithm, digest_type: ds.digestType, digest: ds.digest })
        .execute();
    }
  }
  for (const stale of managed.filter((m) => !kept.has(m.ds_id))) {
    if (held.some((h) => h.id === stale.ds_id)) await registry.removeSecDns(itemId, stale.ds_id);
    await store.deleteFrom('dns_managed_ds').where('id', '=', stale.id).execute();
  }
}
