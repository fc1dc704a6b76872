import { CONTACT_TYPES, type ContactType, DNS_MODES, type DnsMode, isUnderDomain } from '@atalaya/contract';
import { type Insertable, type SelectQueryBuilder, sql, type Transaction } from 'kysely';
import { jsonArrayFrom as pgJsonArrayFrom } from 'kysely/helpers/postgres';
import { jsonArrayFrom as sqliteJsonArrayFrom } from 'kysely/helpers/sqlite';
import type { Secrets } from '../../secrets.ts';
import { compiledQuery } from '../../store/compiled.ts';
import { now, type Store } from '../../store/db.ts';
import type { Database } from '../../store/schema.ts';
import { FRESH_AUTHINFO_LENGTH, generateAuthInfo } from './authinfo.ts';
import { type ContactData, type DomainInfo, type DomainStatus, type RegistryDriver, RegistryError } from './interface.ts';
import { addYears, DEFAULT_LIFE_POLICY, dayOf, type LifePolicy, lifecycleAt } from './lifecycle.ts';
import { localTransfers } from './local-transfers.ts';
import { CONTACT_ROW, contactColumns, fromJson, newHandle, toContact, toSecDns } from './rows.ts';

type Trx = Transaction<Database>;

/**
 * The default registry: its state lives in the panel's store (the domain_* tables), and it
 * refuses what a registry refuses. Auth codes are sealed with the app's key and never logged.
 */
/** The registrar account the panel is at the local registry; a test acting as another registrar makes a driver with another. */
export const LOCAL_CLIENT = 'panel';

export function createLocalRegistry(
  store: Store,
  secrets: Secrets,
  policy: LifePolicy = DEFAULT_LIFE_POLICY,
  clientId = LOCAL_CLIENT,
): RegistryDriver {
  const transfers = localTransfers(store, secrets, clientId);
  // Every transaction starts by writing the domain row: on PostgreSQL that locks the row, and on
  // SQLite it takes the write lock up front (waiting under busy_timeout), where a read followed by
  // a write would fail at once with SQLITE_BUSY when another process wrote in between.
  const lock = async (trx: Trx, itemId: number) => {
    const touched = await trx
      .updateTable('domain')
      .set({ updated_at: sql<number>`updated_at` })
      .where('item_id', '=', itemId)
      .executeTakeFirst();
    if (Number(touched.numUpdatedRows) === 0) return undefined;
    return trx
      .selectFrom('domain')
      .select(['item_id', 'name', 'blocked', 'auth_sealed', 'sponsor'])
      .where('item_id', '=', itemId)
      .executeTakeFirst();
  };

  /** Every change: in one transaction, on a domain that exists and is not blocked. */
  const change = <T>(itemId: number, apply: (trx: Trx, domain: { name: string }) => Promise<T>) =>
    store.transaction().execute(async (trx) => {
      const domain = await lock(trx, itemId);
      if (!domain) throw new RegistryError('not_found');
      // Only the sponsoring registrar changes a domain; a pending transfer holds it as it is (RFC 5731 §2.3).
      if (transfers.sponsorOf(domain) !== clientId) throw new RegistryError('authorization');
      if (await transfers.pending(trx, itemId)) throw new RegistryError('blocked');
      if (domain.blocked) throw new RegistryError('blocked');
      const result = await apply(trx, domain);
      await trx.updateTable('domain').set({ updated_at: now() }).where('item_id', '=', itemId).execute();
      return result;
    });

  /** Keeps the domain's new auth code, sealed, and answers it. */
  const keepAuthInfo = async (trx: Trx, itemId: number, code: string) => {
    await trx
      .updateTable('domain')
      .set({ auth_sealed: secrets.encrypt(code) })
      .where('item_id', '=', itemId)
      .execute();
    return code;
  };

  /** The names of the domain's host objects, a query to narrow. */
  const hostNames = (trx: Trx, itemId: number) => trx.selectFrom('domain_host').select('name').where('item_id', '=', itemId);

  /**
   * Adds a host or a DS record to the domain, refused with `exists` when `same` finds its like there
   * (EPP's 2302); answers the new row's id. Kysely types no query over a table chosen by a
   * parameter, so the two tables' queries are typed as the host table's.
   */
  const addOnce = <T extends 'domain_host' | 'domain_ds'>(
    itemId: number,
    table: T,
    same: (query: SelectQueryBuilder<Database, T, { id: number }>) => SelectQueryBuilder<Database, T, { id: number }>,
    values: Omit<Insertable<Database[T]>, 'item_id' | 'created_at'>,
  ) =>
    change(itemId, async (trx) => {
      const existing = trx
        .selectFrom(table as 'domain_host')
        .select('id')
        .where('item_id', '=', itemId);
      if (await same(existing as never).executeTakeFirst()) throw new RegistryError('exists');
      const row = await trx
        .insertInto(table as 'domain_host')
        .values({ ...(values as Insertable<Database['domain_host']>), item_id: itemId, created_at: now() })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    });

  const upsertContact = (trx: Trx, itemId: number, type: ContactType, data: ContactData, at: number) =>
    trx
      .insertInto('domain_contact')
      .values({ item_id: itemId, type, handle: newHandle(), ...contactColumns(data, at) })
      .onConflict((oc) => oc.columns(['item_id', 'type']).doUpdateSet(contactColumns(data, at)))
      .execute();

  const replaceNameServers = async (trx: Trx, itemId: number, hosts: string[]) => {
    await trx.deleteFrom('domain_name_server').where('item_id', '=', itemId).execute();
    if (hosts.length === 0) return;
    await trx
      .insertInto('domain_name_server')
      .values(hosts.map((host, position) => ({ item_id: itemId, position, host })))
      .execute();
  };

  // The read behind every domain answer, compiled once (see store/compiled.ts): the domain with its
  // name servers and contacts as JSON arrays, one statement instead of three. On SQLite each
  // statement outside a transaction takes and drops the WAL read lock, and node:sqlite builds each
  // row's object column by column; the JSON is parsed in one call.
  const jsonArrayFrom = store.kind === 'postgres' ? pgJsonArrayFrom : sqliteJsonArrayFrom;
  const readDomain = compiledQuery(
    store,
    store
      .selectFrom('domain')
      .selectAll('domain')
      .select((eb) => [
        jsonArrayFrom(
          eb.selectFrom('domain_name_server as ns').select('ns.host').whereRef('ns.item_id', '=', 'domain.item_id').orderBy('ns.position'),
        ).as('servers'),
        jsonArrayFrom(eb.selectFrom('domain_contact as c').select(CONTACT_ROW).whereRef('c.item_id', '=', 'domain.item_id')).as('contacts'),
        eb.selectFrom('domain_transfer as t').select('t.status').whereRef('t.item_id', '=', 'domain.item_id').as('transfer_status'),
        jsonArrayFrom(eb.selectFrom('domain_host as h').select('h.name').whereRef('h.item_id', '=', 'domain.item_id')).as('hosts'),
        eb.exists(eb.selectFrom('domain_ds as d').select('d.id').whereRef('d.item_id', '=', 'domain.item_id')).as('has_ds'),
      ])
      .where('domain.item_id', '=', 0),
  );

  /** The expiry of a locked domain and where it is in its life now. */
  const expiryOf = async (trx: Trx, itemId: number) => {
    const row = await trx.selectFrom('domain').select('expire_at').where('item_id', '=', itemId).executeTakeFirstOrThrow();
    return { expireAt: row.expire_at, life: lifecycleAt(row.expire_at, now(), policy) };
  };
  const setExpiry = (trx: Trx, itemId: number, expireAt: number) =>
    trx.updateTable('domain').set({ expire_at: expireAt }).where('item_id', '=', itemId).execute();

  return {
    policy,

    async info(itemId) {
      // What the clock made due first: a transfer nobody answered is approved by the registry.
      await transfers.settleDue(itemId);
      const [row] = await readDomain(itemId);
      if (!row) return null;
      const servers = fromJson(row.servers);
      const contacts = fromJson(row.contacts);
      const statuses: DomainStatus[] = [];
      if (row.blocked) statuses.push('clientUpdateProhibited');
      if (row.transfer_block) statuses.push('clientTransferProhibited');
      const info: DomainInfo = {
        itemId,
        name: row.name,
        status: row.status,
        statuses: statuses.length ? statuses : ['ok'],
        serverStatuses: [],
        glueHosts: fromJson(row.hosts).map((h) => h.name.toLowerCase()),
        hasSecDns: Boolean(row.has_ds),
        expireAt: row.expire_at,
        lifecycle: lifecycleAt(row.expire_at, now(), policy),
        renewalMode: row.renewal_mode === 'expire' ? 'expire' : 'auto',
        transferLockUntil: Number(row.transfer_lock_until ?? 0),
        updatedAt: row.updated_at || row.created_at,
        dnsMode: (DNS_MODES as readonly string[]).includes(row.dns_mode) ? (row.dns_mode as DnsMode) : 'mantenerDNS',
        nameServers: servers.map((s) => s.host),
        privacy: row.whois_privacy === 1,
        authKind: row.auth_kind === 'transferkey' ? 'transferkey' : 'authcode',
        hasAuthInfo: row.auth_sealed !== null,
        contacts: {},
        heldBy: transfers.sponsorOf(row) === clientId ? null : transfers.sponsorOf(row),
        transferIn: row.transfer_in === 1,
        pendingTransfer: row.transfer_status === 'pending',
      };
      // Another registrar's domain: its contacts are that registrar's, never shown to this one (as over EPP).
      for (const contact of info.heldBy === null ? contacts : []) {
        if ((CONTACT_TYPES as readonly string[]).includes(contact.type)) info.contacts[contact.type as ContactType] = toContact(contact);
      }
      return info;
    },

    async create(itemId, data) {
      await store.transaction().execute(async (trx) => {
        if (!(await lock(trx, itemId))) throw new RegistryError('not_found');
        const known = await trx.selectFrom('domain_contact').select('type').where('item_id', '=', itemId).executeTakeFirst();
        if (known) return; // another request registered it first
        const t = now();
        for (const type of CONTACT_TYPES) await upsertContact(trx, itemId, type, data.contacts[type], t);
        await replaceNameServers(trx, itemId, data.nameServers);
        // The auth code is born with the registration, so that reading it never has to create it.
        await trx
          .updateTable('domain')
          .set({
            dns_mode: data.mode,
            auth_kind: data.authKind,
            auth_sealed: secrets.encrypt(generateAuthInfo()),
            // A period asked for runs from today, as a registry's create does; else the item's expiry stands.
            ...(data.years ? { expire_at: addYears(t, data.years) } : {}),
            updated_at: t,
          })
          .where('item_id', '=', itemId)
          .execute();
      });
    },

    async updateStatus(itemId, { add = [], rem = [] }) {
      await store.transaction().execute(async (trx) => {
        const domain = await lock(trx, itemId);
        if (!domain) throw new RegistryError('not_found');
        if (transfers.sponsorOf(domain) !== clientId) throw new RegistryError('authorization');
        // RFC 5731 §2.3: with clientUpdateProhibited set, only lifting it is accepted.
        const onlyTheBlock = [...add, ...rem].every((s) => s === 'clientUpdateProhibited');
        if (domain.blocked && !onlyTheBlock) throw new RegistryError('blocked');
        const set: { blocked?: number; transfer_block?: number; updated_at: number } = { updated_at: now() };
        if (add.includes('clientUpdateProhibited')) set.blocked = 1;
        if (rem.includes('clientUpdateProhibited')) set.blocked = 0;
        if (add.includes('clientTransferProhibited')) set.transfer_block = 1;
        if (rem.includes('clientTransferProhibited')) set.transfer_block = 0;
        await trx.updateTable('domain').set(set).where('item_id', '=', itemId).execute();
      });
    },

    setPrivacy: (itemId, on) =>
      change(itemId, async (trx) => {
        await trx
          .updateTable('domain')
          .set({ whois_privacy: on ? 1 : 0 })
          .where('item_id', '=', itemId)
          .execute();
      }),

    setNameServers: (itemId, mode, hosts) =>
      change(itemId, async (trx, domain) => {
        // RFC 5732 §3.2.1: a name server inside the domain needs its host object, with addresses, first.
        const inside = hosts.filter((h) => isUnderDomain(h, domain.name));
        if (inside.length) {
          const known = await hostNames(trx, itemId).where('name', 'in', inside).execute();
          const missing = inside.find((h) => !known.some((k) => k.name === h));
          if (missing) throw new RegistryError('needs_glue', missing);
        }
        await replaceNameServers(trx, itemId, hosts);
        await trx.updateTable('domain').set({ dns_mode: mode }).where('item_id', '=', itemId).execute();
      }),

    listHosts: async (itemId) =>
      await store.selectFrom('domain_host').select(['id', 'name', 'ipv4', 'ipv6']).where('item_id', '=', itemId).orderBy('name').execute(),

    createHost: (itemId, host) =>
      addOnce(itemId, 'domain_host', (q) => q.where('name', '=', host.name), { name: host.name, ipv4: host.ipv4, ipv6: host.ipv6 }),

    updateHost: (itemId, hostId, addresses) =>
      change(itemId, async (trx) => {
        const result = await trx
          .updateTable('domain_host')
          .set({ ipv4: addresses.ipv4, ipv6: addresses.ipv6 })
          .where('item_id', '=', itemId)
          .where('id', '=', hostId)
          .executeTakeFirst();
        if (Number(result.numUpdatedRows) === 0) throw new RegistryError('not_found');
      }),

    deleteHost: (itemId, hostId) =>
      change(itemId, async (trx) => {
        const host = await hostNames(trx, itemId).where('id', '=', hostId).executeTakeFirst();
        if (!host) throw new RegistryError('not_found');
        // RFC 5732 §3.2.2: a host object a domain still delegates to cannot go (2305).
        const used = await trx
          .selectFrom('domain_name_server')
          .select('host')
          .where('item_id', '=', itemId)
          .where('host', '=', host.name)
          .executeTakeFirst();
        if (used) throw new RegistryError('in_use');
        await trx.deleteFrom('domain_host').where('id', '=', hostId).execute();
      }),

    listSecDns: async (itemId) =>
      (await store.selectFrom('domain_ds').selectAll().where('item_id', '=', itemId).orderBy('id').execute()).map(toSecDns),

    addSecDns: (itemId, data) =>
      addOnce(
        itemId,
        'domain_ds',
        (q) =>
          q
            .where('type', '=', data.type)
            .where('key_tag', '=', data.keyTag)
            .where('algorithm', '=', data.algorithm)
            .where('digest', '=', data.digest)
            .where('digest_type', data.digestType === null ? 'is' : '=', data.digestType),
        {
          type: data.type,
          key_tag: data.keyTag,
          algorithm: data.algorithm,
          digest_type: data.digestType,
          digest: data.digest,
          flags: data.flags,
          protocol: data.protocol,
        },
      ),

    removeSecDns: (itemId, id) =>
      change(itemId, async (trx) => {
        const result = await trx.deleteFrom('domain_ds').where('item_id', '=', itemId).where('id', '=', id).executeTakeFirst();
        if (Number(result.numDeletedRows) === 0) throw new RegistryError('not_found');
      }),

    updateContacts: (itemId, roles, data) =>
      change(itemId, async (trx) => {
        const t = now();
        for (const role of roles) await upsertContact(trx, itemId, role, data, t);
      }),

    async authInfo(itemId) {
      const row = await store.selectFrom('domain').select(['auth_sealed', 'sponsor']).where('item_id', '=', itemId).executeTakeFirst();
      if (!row) throw new RegistryError('not_found');
      // The code is the sponsor's to give: another registrar learns it only from the registrant.
      if (transfers.sponsorOf(row) !== clientId) throw new RegistryError('authorization');
      return row.auth_sealed ? secrets.decrypt(row.auth_sealed) : null;
    },

    ...transfers.methods(policy),

    renew: (itemId, years, curExpDate) =>
      change(itemId, async (trx) => {
        const { expireAt, life } = await expiryOf(trx, itemId);
        // As a registry does: renewal only while the domain lives (in its grace, too), from the expiry the caller saw.
        if (life.state !== 'active' && life.state !== 'grace') throw new RegistryError('blocked');
        if (dayOf(expireAt) !== dayOf(curExpDate)) throw new RegistryError('policy', 'curExpDate');
        const next = addYears(expireAt, years);
        if (years < 1 || years > policy.maxYears || next > addYears(now(), policy.maxYears)) throw new RegistryError('policy', 'years');
        await setExpiry(trx, itemId, next);
        return next;
      }),

    restore: (itemId) =>
      change(itemId, async (trx) => {
        const { expireAt, life } = await expiryOf(trx, itemId);
        if (life.state !== 'redemption') throw new RegistryError('blocked');
        // A domain deleted for lack of renewal comes back renewed, a year at a time, until it is current.
        let next = expireAt;
        while (next <= now()) next = addYears(next, 1);
        await setExpiry(trx, itemId, next);
        return next;
      }),

    regenerateAuthInfo: (itemId) =>
      change(itemId, async (trx) => {
        return keepAuthInfo(trx, itemId, generateAuthInfo(FRESH_AUTHINFO_LENGTH));
      }),

    async createAuthInfo(itemId) {
      return store.transaction().execute(async (trx) => {
        const domain = await lock(trx, itemId);
        if (!domain) throw new RegistryError('not_found');
        if (transfers.sponsorOf(domain) !== clientId) throw new RegistryError('authorization');
        if (domain.auth_sealed) return secrets.decrypt(domain.auth_sealed);
        return keepAuthInfo(trx, itemId, generateAuthInfo());
      });
    },
  };
}
