import { CONTACT_TYPES, type ContactType, DNS_MODES, type DnsMode, isUnderDomain } from '@atalaya/contract';
import { now, type Store } from '../../../store/db.ts';
import { generateAuthInfo } from '../authinfo.ts';
import {
  type ContactData,
  type DomainInfo,
  type DomainStatus,
  type Host,
  type RegistryDriver,
  RegistryError,
  type SecDns,
  type SecDnsData,
} from '../interface.ts';
import { newHandle } from '../rows.ts';
import { recordTransaction } from '../trace.ts';
import type { EppCommand } from './command.ts';
import { contactCreate, contactDisclose, contactInfo, contactUpdate, readContactInfo } from './contact-xml.ts';
import { holds, mergeContact, panelContacts, savePanelContact } from './contacts.ts';
import { type DomainChange, type DomainInfData, domainCreate, domainInfo, domainUpdate, readDomainInfo } from './domain-xml.ts';
import { refusalOf } from './errors.ts';
import { addGlue, glueAttributes, glueRecords } from './glue-table.ts';
import { hostCheck, hostCreate, hostDelete, hostInfo, hostUpdateAddresses, readHostCheck, readHostInfo } from './host-xml.ts';
import { hostId, secDnsId } from './ids.ts';
import type { EppSettings } from './options.ts';
import { type AppliedCheck, createPool } from './pool.ts';
import { succeeded } from './response.ts';
import { readSecDns, secDnsUpdate } from './secdns-xml.ts';
import type { EppLog, SentResponse } from './session.ts';

const CLIENT_STATUSES: readonly DomainStatus[] = ['clientUpdateProhibited', 'clientTransferProhibited', 'clientDeleteProhibited'];
const OTHER_ROLES = ['admin', 'tech', 'billing'] as const;

type Registered = DomainInfData & { secDns: SecDnsData[] };

/**
 * The registry driver for a registry that speaks EPP (RFC 5730–5734, 5910). The registry holds the
 * domain; the panel's store keeps only what EPP has no place for (the DNS mode, the contact fields
 * of contacts.ts) and is touched after every change, so that cached reads of the domain refresh.
 */
export function createEppRegistry(store: Store, settings: EppSettings, log: EppLog, { rateWindowMs = 60_000 } = {}): RegistryDriver {
  const pool = createPool(
    {
      ...settings,
      timeoutMs: settings.timeoutSeconds * 1000,
      keepAliveMs: settings.keepAliveSeconds * 1000,
      rateWindowMs,
    },
    log,
  );

  const record = (command: EppCommand, response: SentResponse) => {
    if (!command.read)
      recordTransaction({
        command: command.name,
        clTRID: response.clTRID,
        svTRID: response.svTRID,
        result: response.code,
        pending: response.code === 1001,
      });
  };

  /** A read or a change that is safe to send twice; a refusal throws. */
  const run = async (command: EppCommand) => {
    const response = await pool.send(command);
    record(command, response);
    if (!succeeded(response.code)) throw refusalOf(command.name, response);
    return response;
  };

  /** A change; when its answer was lost with the connection, `applied` decides instead of a repeat. */
  const change = async (command: EppCommand, applied: AppliedCheck) => {
    const response = await pool.change(command, applied);
    if (response === null) {
      log.warn({ command: command.name }, 'epp: the answer was lost; info shows the change took effect');
      recordTransaction({ command: command.name, clTRID: '', svTRID: '', result: 1000, pending: false });
      return;
    }
    record(command, response);
    if (!succeeded(response.code)) throw refusalOf(command.name, response);
  };

  /** Whether a read finds the object: false on 2303. */
  const exists = async (command: EppCommand) => {
    try {
      await run(command);
      return true;
    } catch (error) {
      if (error instanceof RegistryError && error.code === 'not_found') return false;
      throw error;
    }
  };

  const domainRow = async (itemId: number) => {
    const row = await store
      .selectFrom('domain')
      .select(['name', 'status', 'dns_mode', 'auth_kind'])
      .where('item_id', '=', itemId)
      .executeTakeFirst();
    if (!row) throw new RegistryError('not_found');
    return row;
  };

  const registered = async (name: string): Promise<Registered> => {
    const response = await run(domainInfo(name));
    return { ...readDomainInfo(response.resData), secDns: readSecDns(response.extension) };
  };

  const roleHandles = (d: DomainInfData): Partial<Record<ContactType, string>> => ({ registrant: d.registrant, ...d.contacts });

  /** The registry's domain of an item, refused with `blocked` under clientUpdateProhibited (the panel's rule for every change). */
  const forChange = async (itemId: number) => {
    const row = await domainRow(itemId);
    const domain = await registered(row.name);
    if (domain.statuses.includes('clientUpdateProhibited')) throw new RegistryError('blocked');
    return { row, domain };
  };

  /** Marks the domain row changed, so that every process's cached read of it refreshes. */
  const touch = (itemId: number, set: { dns_mode?: string; auth_kind?: string } = {}) =>
    store
      .updateTable('domain')
      .set({ ...set, updated_at: now() })
      .where('item_id', '=', itemId)
      .execute();

  const newContact = async (data: ContactData, hidden: boolean) => {
    const id = newHandle();
    await change(contactCreate(id, data, generateAuthInfo(), hidden), () => exists(contactInfo(id)));
    return id;
  };

  /** Host objects for name servers the registry does not know yet; one inside the domain needs its glue first. */
  const ensureHosts = async (domain: string, hosts: string[]) => {
    if (hosts.length === 0) return;
    const free = readHostCheck((await run(hostCheck(hosts))).resData);
    for (const host of hosts.filter((h) => free.has(h.toLowerCase()))) {
      if (isUnderDomain(host, domain)) throw new RegistryError('needs_glue', host);
      await change(hostCreate(host), () => exists(hostInfo(host)));
    }
  };

  const updateDomain = (
    name: string,
    domainChange: DomainChange,
    applied: (d: Registered) => boolean,
    extension?: Record<string, unknown>,
  ) => change(domainUpdate(name, domainChange, extension), async () => applied(await registered(name)));

  const subordinate = async (itemId: number, id: number) => {
    const { row, domain } = await forChange(itemId);
    const name = domain.hosts.find((h) => hostId(h) === id);
    if (!name) throw new RegistryError('not_found');
    return { row, name };
  };

  const withIds = (records: SecDnsData[]): SecDns[] => records.map((d) => ({ ...d, id: secDnsId(d) }));

  // Host attributes: name servers carry their glue addresses, kept in the panel until delegated to.
  const attributes = settings.hostModel === 'attributes';
  const glueRow = async (itemId: number, id: number) => {
    const row = (await glueRecords(store, itemId)).find((h) => h.id === id);
    if (!row) throw new RegistryError('not_found');
    return row;
  };

  return {
    async info(itemId) {
      const row = await store
        .selectFrom('domain')
        .select(['name', 'status', 'dns_mode', 'auth_kind', 'created_at'])
        .where('item_id', '=', itemId)
        .executeTakeFirst();
      if (!row) return null;
      const info: DomainInfo = {
        itemId,
        name: row.name,
        status: row.status,
        statuses: ['ok'],
        expireAt: 0,
        updatedAt: row.created_at,
        dnsMode: (DNS_MODES as readonly string[]).includes(row.dns_mode) ? (row.dns_mode as DnsMode) : 'mantenerDNS',
        nameServers: [],
        privacy: false,
        authKind: row.auth_kind === 'transferkey' ? 'transferkey' : 'authcode',
        hasAuthInfo: false,
        contacts: {},
      };
      let domain: Registered;
      try {
        domain = await registered(row.name);
      } catch (error) {
        // Not at the registry yet: no contacts, which tells the panel to register it.
        if (error instanceof RegistryError && error.code === 'not_found') return info;
        throw error;
      }
      const handles = roleHandles(domain);
      const ids = [...new Set(Object.values(handles).filter(Boolean))];
      const read = await Promise.all(ids.map(async (id) => readContactInfo((await run(contactInfo(id))).resData)));
      const copies = await panelContacts(store, itemId);
      for (const type of CONTACT_TYPES) {
        const epp = read.find((c) => c.id === handles[type]);
        if (epp) info.contacts[type] = mergeContact(epp, copies[type]);
      }
      const statuses = CLIENT_STATUSES.filter((s) => domain.statuses.includes(s));
      return {
        ...info,
        statuses: statuses.length ? statuses : ['ok'],
        expireAt: domain.expireAt,
        updatedAt: domain.updatedAt || domain.createdAt || row.created_at,
        nameServers: domain.nameServers.map((h) => h.toLowerCase()),
        privacy: read.length > 0 && read.every((c) => c.hidden),
        hasAuthInfo: domain.authInfo !== '',
      };
    },

    async create(itemId, data) {
      const row = await domainRow(itemId);
      if (await exists(domainInfo(row.name))) return; // another request registered it first
      // One contact object per distinct contact: the usual four roles with one person make one.
      const handles: Partial<Record<ContactType, string>> = {};
      const made = new Map<string, string>();
      for (const type of CONTACT_TYPES) {
        const key = JSON.stringify(data.contacts[type]);
        if (!made.has(key)) made.set(key, await newContact(data.contacts[type], false));
        handles[type] = made.get(key)!;
      }
      if (!attributes) await ensureHosts(row.name, data.nameServers);
      const command = domainCreate({
        name: row.name,
        years: settings.periodYears,
        nameServers: data.nameServers,
        registrant: handles.registrant!,
        contacts: { admin: handles.admin!, tech: handles.tech!, billing: handles.billing! },
        authInfo: generateAuthInfo(),
        attributes: attributes ? await glueAttributes(store, itemId) : undefined,
      });
      await change(command, () => exists(domainInfo(row.name)));
      for (const type of CONTACT_TYPES) await savePanelContact(store, itemId, type, handles[type]!, data.contacts[type]);
      await touch(itemId, { dns_mode: data.mode, auth_kind: data.authKind });
    },

    async updateStatus(itemId, { add = [], rem = [] }) {
      const row = await domainRow(itemId);
      const domain = await registered(row.name);
      // RFC 5731 §2.3: with clientUpdateProhibited set, only lifting it is accepted (the panel's rule, said before the registry's).
      const onlyTheBlock = [...add, ...rem].every((s) => s === 'clientUpdateProhibited');
      if (domain.statuses.includes('clientUpdateProhibited') && !onlyTheBlock) throw new RegistryError('blocked');
      // Only what changes: registries refuse adding a status the domain has, or removing one it lacks.
      const adding = add.filter((s) => !domain.statuses.includes(s));
      const removing = rem.filter((s) => domain.statuses.includes(s));
      if (adding.length === 0 && removing.length === 0) return;
      await updateDomain(
        row.name,
        { addStatus: adding, remStatus: removing },
        (d) => adding.every((s) => d.statuses.includes(s)) && removing.every((s) => !d.statuses.includes(s)),
      );
      await touch(itemId);
    },

    async setPrivacy(itemId, on) {
      const { domain } = await forChange(itemId);
      for (const id of new Set(Object.values(roleHandles(domain)).filter(Boolean) as string[])) {
        await change(contactDisclose(id, on), async () => readContactInfo((await run(contactInfo(id))).resData).hidden === on);
      }
      await touch(itemId);
    },

    async setNameServers(itemId, mode, hosts) {
      const { row, domain } = await forChange(itemId);
      const wanted = hosts.map((h) => h.toLowerCase());
      const current = domain.nameServers.map((h) => h.toLowerCase());
      const addNs = wanted.filter((h) => !current.includes(h));
      const remNs = domain.nameServers.filter((h) => !wanted.includes(h.toLowerCase()));
      const glue = attributes ? await glueAttributes(store, itemId) : undefined;
      if (glue) {
        const missing = addNs.find((h) => isUnderDomain(h, row.name) && !glue.has(h));
        if (missing) throw new RegistryError('needs_glue', missing);
      } else await ensureHosts(row.name, addNs);
      if (addNs.length || remNs.length) {
        await updateDomain(row.name, { addNs, remNs, attributes: glue }, (d) => {
          const set = d.nameServers.map((h) => h.toLowerCase());
          return set.length === wanted.length && wanted.every((h) => set.includes(h));
        });
      }
      await touch(itemId, { dns_mode: mode });
    },

    async listHosts(itemId) {
      if (attributes) return glueRecords(store, itemId);
      const row = await domainRow(itemId);
      const domain = await registered(row.name);
      const hosts = await Promise.all(
        domain.hosts.map(async (name): Promise<Host> => {
          const host = readHostInfo((await run(hostInfo(name))).resData);
          return { id: hostId(name), name: host.name.toLowerCase(), ipv4: host.ipv4, ipv6: host.ipv6 };
        }),
      );
      return hosts.sort((a, b) => a.name.localeCompare(b.name));
    },

    async createHost(itemId, host) {
      await forChange(itemId);
      if (attributes) {
        const id = await addGlue(store, itemId, host);
        if (id === null) throw new RegistryError('exists');
        return id;
      }
      if (await exists(hostInfo(host.name))) throw new RegistryError('exists');
      await change(hostCreate(host.name, host), () => exists(hostInfo(host.name)));
      await touch(itemId);
      return hostId(host.name);
    },

    async updateHost(itemId, id, addresses) {
      if (attributes) {
        const { row, domain } = await forChange(itemId);
        const glue = await glueRow(itemId, id);
        if (domain.nameServers.some((h) => h.toLowerCase() === glue.name)) {
          // A delegated name server's addresses change by removing and adding its attribute.
          const next = new Map([[glue.name, addresses]]);
          await updateDomain(row.name, { remNs: [glue.name], addNs: [glue.name], attributes: next }, (d) =>
            d.hostAttrs.some((h) => h.name === glue.name && h.ipv4 === addresses.ipv4 && h.ipv6 === addresses.ipv6),
          );
        }
        await store.updateTable('domain_host').set({ ipv4: addresses.ipv4, ipv6: addresses.ipv6 }).where('id', '=', id).execute();
        await touch(itemId);
        return;
      }
      const { name } = await subordinate(itemId, id);
      const before = readHostInfo((await run(hostInfo(name))).resData);
      if (before.ipv4 === addresses.ipv4 && before.ipv6 === addresses.ipv6) return;
      await change(hostUpdateAddresses(name, before, addresses), async () => {
        const after = readHostInfo((await run(hostInfo(name))).resData);
        return after.ipv4 === addresses.ipv4 && after.ipv6 === addresses.ipv6;
      });
      await touch(itemId);
    },

    async deleteHost(itemId, id) {
      if (attributes) {
        const { domain } = await forChange(itemId);
        const glue = await glueRow(itemId, id);
        if (domain.nameServers.some((h) => h.toLowerCase() === glue.name)) throw new RegistryError('in_use');
        await store.deleteFrom('domain_host').where('id', '=', id).execute();
        await touch(itemId);
        return;
      }
      const { name } = await subordinate(itemId, id);
      await change(hostDelete(name), async () => !(await exists(hostInfo(name))));
      await touch(itemId);
    },

    async listSecDns(itemId) {
      const row = await domainRow(itemId);
      return withIds((await registered(row.name)).secDns);
    },

    async addSecDns(itemId, data) {
      const { row, domain } = await forChange(itemId);
      const id = secDnsId(data);
      if (withIds(domain.secDns).some((d) => d.id === id)) throw new RegistryError('exists');
      await updateDomain(row.name, {}, (d) => withIds(d.secDns).some((r) => r.id === id), secDnsUpdate({ add: data }));
      await touch(itemId);
      return id;
    },

    async removeSecDns(itemId, id) {
      const { row, domain } = await forChange(itemId);
      const record = withIds(domain.secDns).find((d) => d.id === id);
      if (!record) throw new RegistryError('not_found');
      await updateDomain(row.name, {}, (d) => !withIds(d.secDns).some((r) => r.id === id), secDnsUpdate({ rem: record }));
      await touch(itemId);
    },

    async updateContacts(itemId, roles, data) {
      const { row, domain } = await forChange(itemId);
      const handles = roleHandles(domain);
      const moving = new Set<ContactType>();
      for (const role of roles) {
        const handle = handles[role];
        const sharedOutside = CONTACT_TYPES.some((other) => !roles.includes(other) && handles[other] === handle);
        const trade = role === 'registrant' && settings.registrantChange === 'create';
        if (!handle || sharedOutside || trade) moving.add(role);
      }
      // Contacts used only by these roles are updated in place, once each.
      const inPlace = new Set(roles.filter((r) => !moving.has(r)).map((r) => handles[r]!));
      for (const id of inPlace) {
        await change(contactUpdate(id, data), async () => holds(readContactInfo((await run(contactInfo(id))).resData), data));
      }
      const saved = { ...handles };
      if (moving.size) {
        // A contact shared with other roles, or a registrant the registry wants new: a new object for these roles.
        const hidden = (
          await Promise.all([...inPlace].map(async (id) => readContactInfo((await run(contactInfo(id))).resData).hidden))
        ).some(Boolean);
        const id = await newContact(data, hidden);
        const others = OTHER_ROLES.filter((r) => moving.has(r));
        await updateDomain(
          row.name,
          {
            registrant: moving.has('registrant') ? id : undefined,
            addContacts: others.map((type) => ({ type, id })),
            remContacts: others.filter((type) => handles[type]).map((type) => ({ type, id: handles[type]! })),
          },
          (d) => [...moving].every((role) => roleHandles(d)[role] === id),
        );
        for (const role of moving) saved[role] = id;
      }
      for (const role of roles) await savePanelContact(store, itemId, role, saved[role]!, data);
      await touch(itemId);
    },

    async authInfo(itemId) {
      const row = await domainRow(itemId);
      return (await registered(row.name)).authInfo || null;
    },

    async createAuthInfo(itemId) {
      const row = await domainRow(itemId);
      const current = (await registered(row.name)).authInfo;
      if (current) return current;
      const code = generateAuthInfo();
      await updateDomain(row.name, { authInfo: code }, (d) => d.authInfo === code);
      await touch(itemId);
      return code;
    },

    close: () => pool.close(),
  };
}
