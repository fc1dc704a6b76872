import { CONTACT_TYPES, type ContactType } from '@atalaya/contract';
import type { ContactData, DomainInfo, DomainStatus, RegistryDriver, SecDnsData } from '../../drivers/registry/interface.ts';
import type { Store } from '../../store/db.ts';
import { type Payloads, secDnsKey } from './actions.ts';
import { queueRegistryChange } from './changes.ts';
import { managedDsIds } from './managed-ds.ts';
import { billRenewal } from './renew.ts';

export interface RegistryDifference {
  area: 'registry';
  /** `example.es name servers`, `example.es expiry`… */
  subject: string;
  problem: 'differs' | 'missing' | 'extra';
  outcome?: 'repaired' | string;
}

type Glue = { ipv4: string; ipv6: string };

const YEAR = 365 * 86_400;

/** Whether the ledger has a billable line (renewal, restore, transfer in) that took the domain to this expiry. */
async function billedUntil(store: Store, itemId: number, expireAt: number) {
  const line = await store
    .selectFrom('billing_event')
    .select('id')
    .where('item_id', '=', itemId)
    .where('expire_at', '=', expireAt)
    .executeTakeFirst();
  return line !== undefined;
}

/** The contact fields the registry keeps (the panel's extra keys are its own). */
const contactKey = (c: ContactData | undefined) =>
  c ? [c.isOrg, c.orgName, c.firstName, c.lastName, c.email, c.phone, c.address, c.postalCode, c.city, c.country].join('|') : '';

/**
 * What the customer set in the panel, read from the changes the registry applied: the latest
 * done change of each kind (and each status, each contact role), and the DNSSEC set the adds and
 * removals made. A domain nobody changed in the panel has nothing to compare but its expiry.
 */
async function panelIntent(store: Store, itemId: number) {
  const rows = await store
    .selectFrom('registry_change')
    .select(['action', 'payload'])
    .where('item_id', '=', itemId)
    .where('state', '=', 'done')
    .orderBy('id')
    .execute();
  const intent: {
    nameServers?: Payloads['nameServers'];
    statuses: Map<DomainStatus, boolean>;
    privacy?: boolean;
    contacts: Map<ContactType, ContactData>;
    ds: Map<string, SecDnsData> | null;
    /** Each glue record the customer set (its addresses) or deleted (null), by host name. */
    glue: Map<string, Glue | null>;
  } = { statuses: new Map(), contacts: new Map(), ds: null, glue: new Map() };
  for (const row of rows) {
    const payload = JSON.parse(row.payload);
    if (row.action === 'nameServers') intent.nameServers = payload;
    else if (row.action === 'status') intent.statuses.set(payload.status, payload.on);
    else if (row.action === 'privacy') intent.privacy = payload.on;
    else if (row.action === 'contacts') for (const role of payload.roles as ContactType[]) intent.contacts.set(role, payload.data);
    else if (row.action === 'hostCreate' || (row.action === 'hostUpdate' && payload.name)) {
      intent.glue.set(payload.name, { ipv4: payload.ipv4, ipv6: payload.ipv6 });
    } else if (row.action === 'hostDelete' && payload.name) intent.glue.set(payload.name, null);
    else if (row.action === 'secDnsAdd' || row.action === 'secDnsRemove') {
      intent.ds ??= new Map();
      if (row.action === 'secDnsAdd') intent.ds.set(secDnsKey(payload), payload);
      else intent.ds.delete(payload.key);
    }
  }
  return intent;
}

/**
 * Compares each registered domain with the registry's `info`: expiry and the registry's statuses
 * are the registry's (repair copies its expiry to the panel's row); name servers, client statuses,
 * whois privacy, contacts, DNSSEC and glue records are what the customer set in the panel (repair queues the
 * change again through the outbox, which the caller then applies).
 */
export async function reconcileRegistry(store: Store, registry: RegistryDriver, repair: boolean): Promise<RegistryDifference[]> {
  const domains = await store
    .selectFrom('domain')
    .innerJoin('domain_contact', 'domain_contact.item_id', 'domain.item_id')
    .select(['domain.item_id', 'domain.name', 'domain.expire_at'])
    .where('domain_contact.type', '=', 'registrant')
    .orderBy('domain.name')
    .execute();
  const found: RegistryDifference[] = [];
  for (const domain of domains) {
    const info = await registry.info(domain.item_id);
    if (!info || Object.keys(info.contacts).length === 0) {
      found.push({ area: 'registry', subject: `${domain.name} domain`, problem: 'missing' });
      continue;
    }
    const intent = await panelIntent(store, domain.item_id);
    const fixes: { what: string; fix: () => Promise<unknown> }[] = [];
    const requeue = (what: string, action: string, payload: unknown) =>
      fixes.push({
        what,
        fix: () => store.transaction().execute((trx) => queueRegistryChange(trx, { itemId: domain.item_id, action, payload })),
      });
    if (info.expireAt && info.expireAt !== domain.expire_at) {
      // Half a year at least: the registry's expiry at registration may be a second off the panel's.
      const years = Math.round((info.expireAt - domain.expire_at) / YEAR);
      const unbilled = years >= 1 && !(await billedUntil(store, domain.item_id, info.expireAt));
      fixes.push({
        // A later expiry no ledger line reaches is a renewal the registry applied and the panel never
        // recorded (a crash between its answer and the ledger): billed once, from the stored expiry.
        what: unbilled ? 'expiry (renewal not billed)' : 'expiry',
        fix: () =>
          store.transaction().execute(async (trx) => {
            if (unbilled) await billRenewal(trx, { itemId: domain.item_id, expireAt: domain.expire_at }, years, info.expireAt, 'reconcile');
            else await trx.updateTable('domain').set({ expire_at: info.expireAt }).where('item_id', '=', domain.item_id).execute();
          }),
      });
    }
    const wanted = intent.nameServers;
    if (wanted && wanted.hosts.join(' ') !== info.nameServers.join(' ')) requeue('name servers', 'nameServers', wanted);
    for (const [status, on] of intent.statuses) {
      if (info.statuses.includes(status) !== on) requeue(`status ${status}`, 'status', { status, on });
    }
    if (intent.privacy !== undefined && intent.privacy !== info.privacy) requeue('whois privacy', 'privacy', { on: intent.privacy });
    for (const type of CONTACT_TYPES) {
      const data = intent.contacts.get(type);
      if (data && contactKey(data) !== contactKey(info.contacts[type])) requeue(`contact ${type}`, 'contacts', { roles: [type], data });
    }
    if (intent.ds) await compareDs(registry, info, intent.ds, await managedDsIds(store, domain.item_id), requeue);
    if (intent.glue.size) await compareGlue(registry, info, intent.glue, requeue);
    for (const { what, fix } of fixes) {
      const difference: RegistryDifference = { area: 'registry', subject: `${domain.name} ${what}`, problem: 'differs' };
      if (repair) {
        try {
          await fix();
          difference.outcome = 'repaired';
        } catch (error) {
          difference.outcome = `failed: ${(error as Error).message}`;
        }
      }
      found.push(difference);
    }
  }
  return found;
}

async function compareDs(
  registry: RegistryDriver,
  info: DomainInfo,
  wanted: Map<string, SecDnsData>,
  managed: Set<number>,
  requeue: (what: string, action: string, payload: unknown) => void,
) {
  const held = await registry.listSecDns(info.itemId);
  const heldKeys = new Set(held.map(secDnsKey));
  for (const [key, data] of wanted) if (!heldKeys.has(key)) requeue(`DNSSEC ${data.keyTag}`, 'secDnsAdd', data);
  // A DS the panel placed for a zone it signs is the signer's, not the customer's: never extra.
  for (const record of held) {
    if (managed.has(record.id)) continue;
    const key = secDnsKey(record);
    if (!wanted.has(key)) requeue(`DNSSEC ${record.keyTag} extra`, 'secDnsRemove', { id: record.id, key });
  }
}

/**
 * The glue records the customer set against the registry's subordinate hosts, by name: one
 * missing is created again, one with other addresses is set back, one the customer deleted is
 * deleted again. A host the customer never touched in the panel is not compared.
 */
async function compareGlue(
  registry: RegistryDriver,
  info: DomainInfo,
  wanted: Map<string, Glue | null>,
  requeue: (what: string, action: string, payload: unknown) => void,
) {
  const held = new Map((await registry.listHosts(info.itemId)).map((h) => [h.name, h]));
  const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
  for (const [name, glue] of wanted) {
    const host = held.get(name);
    if (glue === null) {
      if (host) requeue(`glue ${name} extra`, 'hostDelete', { hostId: host.id, name });
    } else if (!host) requeue(`glue ${name} missing`, 'hostCreate', { name, ...glue });
    else if (!same(host.ipv4, glue.ipv4) || !same(host.ipv6, glue.ipv6)) {
      requeue(`glue ${name}`, 'hostUpdate', { hostId: host.id, name, ...glue });
    }
  }
}
