import { type ContactType, isUnderDomain } from '@atalaya/contract';
import { now, type Store } from '../../../store/db.ts';
import { generateAuthInfo } from '../authinfo.ts';
import { type ContactData, RegistryError, type SecDnsData } from '../interface.ts';
import { newHandle } from '../rows.ts';
import { recordTransaction } from '../trace.ts';
import type { EppCommand } from './command.ts';
import { contactCreate, contactInfo } from './contact-xml.ts';
import { type DomainChange, type DomainInfData, domainInfo, domainUpdate, readDomainInfo } from './domain-xml.ts';
import { refusalOf } from './errors.ts';
import { hostCheck, hostCreate, hostInfo, readHostCheck } from './host-xml.ts';
import { readRgpStatus } from './life-xml.ts';
import type { EppSettings } from './options.ts';
import { type AppliedCheck, createPool } from './pool.ts';
import { succeeded } from './response.ts';
import { readSecDns } from './secdns-xml.ts';
import type { EppLog, SentResponse } from './session.ts';

/** The domain as the registry has it, with its DNSSEC data and its rgp status ('' when in none). */
export type Registered = DomainInfData & { secDns: SecDnsData[]; rgp: string };

/**
 * What every method of the epp driver works with: the session pool, commands that record their
 * transactions and turn refusals into RegistryErrors, changes settled by `info` when their answer
 * is lost, and the panel's domain row.
 */
export function createEppContext(store: Store, settings: EppSettings, log: EppLog, rateWindowMs: number) {
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
    return { ...readDomainInfo(response.resData), secDns: readSecDns(response.extension), rgp: readRgpStatus(response.extension) };
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
  const touch = (itemId: number, set: { dns_mode?: string; auth_kind?: string; expire_at?: number; sponsor?: string } = {}) =>
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

  return {
    store,
    settings,
    pool,
    run,
    change,
    exists,
    domainRow,
    registered,
    roleHandles,
    forChange,
    touch,
    newContact,
    ensureHosts,
    updateDomain,
  };
}

export type EppContext = ReturnType<typeof createEppContext>;
