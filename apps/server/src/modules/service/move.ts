import type { DnsType } from '@atalaya/contract';
import { nodeFiles } from '../../agent/files.ts';
import { dnsSettings } from '../../drivers/dns/index.ts';
import { toDomainName } from '../../kernel/names.ts';
import type { Runtime } from '../../kernel/runtime.ts';
import { NodeError } from '../../nodes/nodes.ts';
import { CHUNK_BYTES, type ServicePart } from '../../nodes/protocol.ts';
import { callNode, onPanel } from '../../nodes/remote.ts';
import { enqueue, type JobHandler, type JobHandlers, withTimeLimit } from '../../outbox/outbox.ts';
import type { Store } from '../../store/db.ts';
import { loadRecords } from '../dns/record-store.ts';
import type { DnsRecordRow } from '../dns/tables.ts';
import { fillTemplate, placedSettings } from '../dns/template.ts';
import { normaliseValue } from '../dns/values.ts';
import { changeZone } from '../dns/zone.ts';
import { apexKey, loadSiteState, siteKey } from '../sites/state.ts';
import { DKIM_JOB } from './mail/dkim.ts';
import { webRootOf } from './web-root.ts';

export const MOVE_JOB = 'service.move';

export interface MovePayload {
  itemId: number;
  /** The node the service leaves; null for the panel's own machine. */
  from: number | null;
  to: number;
}

/**
 * Queues the move of a service (its sites, mail, FTP accounts and databases) to another node
 * (decision 047), or from the panel's own machine to a node (decision 050). In one transaction:
 * the move job, pinned to the node the service leaves (off the panel, to the new one), and the
 * item placed on the new node. The move holds every lane of the item (outbox/lanes.ts), so every
 * change queued before it applies first, on the old node or the panel (and is copied), and every
 * change queued after it waits for it and then applies on the new node.
 */
export async function queueMove(store: Store, reference: string, to: string) {
  const name = toDomainName(reference) ?? reference.toLowerCase();
  const item = await store.selectFrom('item').select(['id', 'node_id']).where('reference', '=', name).executeTakeFirst();
  if (!item) throw new NodeError(`No service "${reference}"`);
  const target = await store.selectFrom('node').selectAll().where('name', '=', to).where('state', '<>', 'removed').executeTakeFirst();
  if (!target) throw new NodeError(`No node named ${to}`);
  if (target.state !== 'active') throw new NodeError(`${to} is ${target.state}: it takes no new services`);
  if (target.id === item.node_id) throw new NodeError(`${name} is on ${to} already`);
  const [service, mail] = await Promise.all([
    store.selectFrom('service').select('item_id').where('item_id', '=', item.id).executeTakeFirst(),
    store.selectFrom('mail_service').select('item_id').where('item_id', '=', item.id).executeTakeFirst(),
  ]);
  const roles = target.roles.split(',');
  const needed = [...(service ? ['web'] : []), ...(mail ? ['mail'] : [])].filter((r) => !roles.includes(r));
  if (needed.length) throw new NodeError(`${to} has no ${needed.join(', ')} role`);
  return store.transaction().execute(async (trx) => {
    const moving = await trx
      .selectFrom('job')
      .select('id')
      .where('item_id', '=', item.id)
      .where('kind', '=', MOVE_JOB)
      .where('status', 'in', ['pending', 'running'])
      .executeTakeFirst();
    if (moving) throw new NodeError(`${name} is moving already (job ${moving.id})`);
    const payload: MovePayload = { itemId: item.id, from: item.node_id, to: target.id };
    // Off the panel's machine the new node's agent runs it; what is queued after it waits either way.
    const job = await enqueue(trx, MOVE_JOB, payload, item.id, { nodeId: item.node_id ?? target.id });
    await trx.updateTable('item').set({ node_id: target.id }).where('id', '=', item.id).execute();
    return job;
  });
}

type TransferMethod = keyof ReturnType<typeof nodeFiles>;

const parts = (reference: string, hosting: boolean, mailboxes: string[]): ServicePart[] => [
  ...(hosting ? [{ kind: 'web', reference } as const] : []),
  ...mailboxes.map((address) => ({ kind: 'mail', address }) as const),
];

/**
 * The move itself, run by the old node's worker: (1) the new node is given every host, mailbox,
 * alias, FTP account, database and DKIM key the store holds for the service, through the same
 * handlers as their own jobs; (2) the web root and each mailbox are copied from the old node to
 * the new one through the panel, a chunk at a time; (3) the zone's records that point at the
 * service's server are pointed at the new node; (4) the old node forgets all of it. Every step is
 * idempotent, so a retried move starts again from the top and ends the same.
 */
export function moveJob(runtime: Runtime, handlers: JobHandlers): JobHandler {
  const { store, drivers } = runtime;
  return withTimeLimit(3600, async (raw, job, progress, signal) => {
    const { itemId, from, to } = raw as MovePayload;
    const on = <T>(node: number | null, run: () => Promise<T>) => (node === null ? onPanel(run) : runtime.nodes.on(node, job.id, run));
    /** A machine's transfer area: a node's through its agent, the panel's own here (its drivers, its data dir's spool). */
    const transfer = (node: number | null, method: TransferMethod, ...args: unknown[]) =>
      on(node, async () =>
        node === null
          ? (nodeFiles(runtime.config, runtime.config.dataDir, runtime.drivers)[method] as (...a: unknown[]) => Promise<unknown>)(...args)
          : callNode('transfer', method, ...args),
      );
    const own = (kind: string, payload: unknown) => handlers[kind]!(payload, job, async () => {}, signal);
    const { reference } = await store.selectFrom('item').select('reference').where('id', '=', itemId).executeTakeFirstOrThrow();
    const [service, mail, accounts, aliases, ftpUsers, databases] = await Promise.all([
      store.selectFrom('service').select(['item_id', 'kind']).where('item_id', '=', itemId).executeTakeFirst(),
      store.selectFrom('mail_service').select('item_id').where('item_id', '=', itemId).executeTakeFirst(),
      store.selectFrom('mail_account').select(['id', 'name']).where('item_id', '=', itemId).where('deleting', '=', 0).execute(),
      store.selectFrom('mail_alias').select(['id', 'name']).where('item_id', '=', itemId).where('deleting', '=', 0).execute(),
      store.selectFrom('ftp_user').select(['id', 'login']).where('item_id', '=', itemId).where('deleting', '=', 0).execute(),
      store
        .selectFrom('service_database')
        .select(['id', 'name', 'username'])
        .where('item_id', '=', itemId)
        .where('deleting', '=', 0)
        .execute(),
    ]);
    const sites = service ? await store.selectFrom('site').select('id').where('service_id', '=', itemId).execute() : [];
    const hostKeys = [...sites.map((s) => siteKey(s.id)), ...(service ? [apexKey(itemId)] : [])];

    // 1. The new node serves what the store says the service is.
    await on(to, async () => {
      if (service) await own('service.web.apply', { itemId });
      for (const key of hostKeys) {
        const state = await loadSiteState(runtime, key);
        if (state) await drivers.sites.applySite(state);
      }
      for (const a of accounts) await own('service.mailbox.apply', { id: a.id });
      for (const a of aliases) await own('service.alias.apply', { id: a.id });
      for (const u of ftpUsers) await own('service.ftp.apply', { id: u.id });
      for (const d of databases) await own('service.database.apply', { id: d.id });
      if (mail) await own(DKIM_JOB, { itemId });
    });
    await progress(10);

    // 2. The data: packed on the old node (a folder, a database's dump), carried through the panel
    // a chunk at a time, unpacked (or loaded) on the new one.
    const folders = parts(
      reference,
      service?.kind === 'normal',
      accounts.map((a) => `${a.name}@${reference}`),
    );
    const steps = folders.length + databases.length;
    const carry = async (step: number, spooled: { id: string | null; size: number }) => {
      if (spooled.id === null) return false;
      const id = spooled.id;
      for (let offset = 0; offset < spooled.size; offset += CHUNK_BYTES) {
        signal.throwIfAborted();
        const data = await transfer(from, 'read', id, offset);
        await transfer(to, 'write', id, offset, data);
        await progress(10 + 70 * ((step + Math.min(1, (offset + CHUNK_BYTES) / spooled.size)) / steps));
      }
      if (spooled.size === 0) await transfer(to, 'write', id, 0, '');
      return true;
    };
    for (const [i, part] of folders.entries()) {
      const packed = (await transfer(from, 'pack', part)) as { id: string | null; size: number };
      if (await carry(i, packed)) {
        await transfer(to, 'unpack', packed.id, part);
        await transfer(from, 'drop', packed.id);
      }
      await progress(10 + (70 * (i + 1)) / steps);
    }
    for (const [i, d] of databases.entries()) {
      const dumped = (await transfer(from, 'dump', d.name)) as { id: string; size: number };
      await carry(folders.length + i, dumped);
      await transfer(to, 'restore', dumped.id, d.name);
      await transfer(from, 'drop', dumped.id);
      await progress(10 + (70 * (folders.length + i + 1)) / steps);
    }

    // 3. The records the panel serves follow the service to its new node.
    const target = await store.selectFrom('node').select('address').where('id', '=', to).executeTakeFirstOrThrow();
    const zone = await store.selectFrom('dns_zone').select('name').where('item_id', '=', itemId).executeTakeFirst();
    if (zone && target.address) {
      const settings = placedSettings(dnsSettings(runtime.config), target.address);
      const moved = (records: DnsRecordRow[]) =>
        records
          .filter((r) => r.dynamic_value && /\{(webIp|mailIp)\}/.test(r.dynamic_value))
          .map((r) => ({ r, value: normaliseValue(r.type as DnsType, fillTemplate(settings, zone.name, r.dynamic_value as string)) }))
          .filter(({ r, value }) => value !== r.value);
      // A retried move whose records were switched already leaves the zone (and its history) alone.
      if (moved(await loadRecords(store, itemId)).length) {
        await changeZone(store, itemId, { kind: 'save', by: 'service-move' }, async (trx, records, _name, touch) => {
          for (const { r, value } of moved(records)) {
            await trx.updateTable('dns_record').set({ value }).where('id', '=', r.id).execute();
            touch({ zona: r.zona, type: r.type });
          }
        });
      }
    }
    await progress(85);

    // 4. The old node (or the panel's machine) holds nothing of the service any more.
    await on(from, async () => {
      for (const key of hostKeys) await drivers.sites.removeSite(key);
      if (service) await drivers.web.removeService({ reference, webRoot: webRootOf(runtime.config.hosting.webRoot, reference) });
      for (const a of accounts) await drivers.mail.removeMailbox(`${a.name}@${reference}`);
      for (const a of aliases) await drivers.mail.removeAlias(`${a.name}@${reference}`);
      for (const u of ftpUsers) await drivers.ftp.removeUser(u.login);
      for (const d of databases) await drivers.databases.remove({ name: d.name, user: d.username });
      if (mail) await drivers.mail.ensureDkim(reference, []);
    });
    for (const part of parts(
      reference,
      Boolean(service),
      accounts.map((a) => `${a.name}@${reference}`),
    )) {
      await transfer(from, 'remove', part);
    }
  });
}
