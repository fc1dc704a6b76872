import { CONTACT_TYPES, type ContactType, DNS_MODES, type DnsMode, isUnderDomain } from '@atalaya/contract';
import type { Store } from '../../../store/db.ts';
import { generateAuthInfo } from '../authinfo.ts';
import { type DomainInfo, type DomainStatus, type RegistryDriver, RegistryError } from '../interface.ts';
import { lifecycleFromRgp } from '../lifecycle.ts';
import { contactMethods } from './contact-methods.ts';
import { contactInfo, readContactInfo } from './contact-xml.ts';
import { mergeContact, panelContacts, registeredBefore, savePanelContact } from './contacts.ts';
import { createEppContext, type Registered } from './context.ts';
import { domainCreate, domainInfo } from './domain-xml.ts';
import { refusalOf } from './errors.ts';
import { glueAttributes, glueRecords } from './glue-table.ts';
import { hostMethods } from './hosts.ts';
import { lifeMethods } from './life.ts';
import { type EppSettings, eppPolicy } from './options.ts';
import { pollAck, pollRequest, readPollMessage } from './poll.ts';
import { succeeded } from './response.ts';
import { secDnsMethods } from './secdns.ts';
import type { EppLog } from './session.ts';
import { transferMethods } from './transfers.ts';

const CLIENT_STATUSES: readonly DomainStatus[] = ['clientUpdateProhibited', 'clientTransferProhibited', 'clientDeleteProhibited'];

/**
 * The registry driver for a registry that speaks EPP (RFC 5730–5734, 5910). The registry holds the
 * domain; the panel's store keeps only what EPP has no place for (the DNS mode, the contact fields
 * of contacts.ts, glue under host attributes) and is touched after every change, so that cached
 * reads of the domain refresh.
 */
export function createEppRegistry(store: Store, settings: EppSettings, log: EppLog, { rateWindowMs = 60_000 } = {}): RegistryDriver {
  const ctx = createEppContext(store, settings, log, rateWindowMs);
  const { run, change, exists, domainRow, registered, roleHandles, forChange, touch, newContact, ensureHosts, updateDomain } = ctx;
  const attributes = settings.hostModel === 'attributes';
  const policy = eppPolicy(settings);

  return {
    policy,
    async info(itemId) {
      const row = await store
        .selectFrom('domain')
        .select(['name', 'status', 'dns_mode', 'auth_kind', 'created_at', 'renewal_mode', 'transfer_in', 'transfer_lock_until'])
        .where('item_id', '=', itemId)
        .executeTakeFirst();
      if (!row) return null;
      const info: DomainInfo = {
        itemId,
        name: row.name,
        status: row.status,
        statuses: ['ok'],
        serverStatuses: [],
        glueHosts: [],
        hasSecDns: false,
        expireAt: 0,
        lifecycle: { state: 'active', until: 0 },
        renewalMode: row.renewal_mode === 'expire' ? 'expire' : 'auto',
        transferLockUntil: Number(row.transfer_lock_until ?? 0),
        updatedAt: row.created_at,
        dnsMode: (DNS_MODES as readonly string[]).includes(row.dns_mode) ? (row.dns_mode as DnsMode) : 'mantenerDNS',
        nameServers: [],
        privacy: false,
        authKind: row.auth_kind === 'transferkey' ? 'transferkey' : 'authcode',
        hasAuthInfo: false,
        contacts: {},
        heldBy: null,
        transferIn: row.transfer_in === 1,
        pendingTransfer: false,
      };
      let domain: Registered;
      try {
        domain = await registered(row.name);
      } catch (error) {
        // Not at the registry yet: no contacts, which tells the panel to register it; unless it waits
        // for a transfer in, or the panel registered it once (it keeps the contacts it created), when
        // the registry has purged it.
        if (error instanceof RegistryError && error.code === 'not_found') {
          if (info.transferIn) return { ...info, heldBy: '' };
          return (await registeredBefore(store, itemId)) ? { ...info, lifecycle: { state: 'purged', until: 0 } } : info;
        }
        throw error;
      }
      const pendingTransfer = domain.statuses.includes('pendingTransfer');
      // Another registrar's domain: the registry shows its sponsor, dates and statuses, never its contacts or code.
      if (domain.clID !== settings.clientId) {
        return {
          ...info,
          heldBy: domain.clID,
          expireAt: domain.expireAt,
          lifecycle: lifecycleFromRgp(domain.rgp, domain.expireAt, domain.updatedAt, policy),
          nameServers: domain.nameServers.map((h) => h.toLowerCase()),
          pendingTransfer,
        };
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
        serverStatuses: domain.statuses.filter((s) => s.startsWith('server')),
        // With host attributes the glue lives in the panel's table; with host objects the registry lists them.
        glueHosts: attributes ? (await glueRecords(store, itemId)).map((h) => h.name) : domain.hosts.map((h) => h.toLowerCase()),
        hasSecDns: domain.secDns.length > 0,
        expireAt: domain.expireAt,
        lifecycle: lifecycleFromRgp(domain.rgp, domain.expireAt, domain.updatedAt, policy),
        updatedAt: domain.updatedAt || domain.createdAt || row.created_at,
        nameServers: domain.nameServers.map((h) => h.toLowerCase()),
        privacy: read.length > 0 && read.every((c) => c.hidden),
        hasAuthInfo: domain.authInfo !== '',
        pendingTransfer,
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
        years: data.years ?? settings.periodYears,
        nameServers: data.nameServers,
        registrant: handles.registrant!,
        contacts: { admin: handles.admin!, tech: handles.tech!, billing: handles.billing! },
        authInfo: generateAuthInfo(),
        attributes: attributes ? await glueAttributes(store, itemId) : undefined,
      });
      await change(command, () => exists(domainInfo(row.name)));
      for (const type of CONTACT_TYPES) await savePanelContact(store, itemId, type, handles[type]!, data.contacts[type]);
      // The store keeps the expiry the registry gave, for the renewal schedule and the lists.
      const { expireAt } = await registered(row.name);
      await touch(itemId, { dns_mode: data.mode, auth_kind: data.authKind, expire_at: expireAt });
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

    ...lifeMethods(ctx, policy),
    ...transferMethods(ctx),
    ...hostMethods(ctx),
    ...secDnsMethods(ctx),
    ...contactMethods(ctx),
    async pollMessage() {
      const response = await ctx.pool.send(pollRequest());
      if (response.code === 1300 || !response.msgQ) return null;
      if (!succeeded(response.code)) throw refusalOf('poll', response);
      return readPollMessage(response.resData, response.msgQ, response.xml, settings.clientId);
    },

    async ackMessage(id) {
      const response = await ctx.pool.send(pollAck(id));
      // 2303: acknowledged already (the answer to an earlier ack was lost).
      if (!succeeded(response.code) && response.code !== 2303) throw refusalOf('poll', response);
    },

    close: () => ctx.pool.close(),
  };
}
