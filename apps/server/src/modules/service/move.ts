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
import type { Job } from '../../store/schema.ts';
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

/** The node a service goes to (a move, a rebuild): an active one, by name. */
export async function receivingNode(store: Store, to: string) {
  const target = await store.selectFrom('node').selectAll().where('name', '=', to).where('state', '<>', 'removed').executeTakeFirst();
  if (!target) throw new NodeError(`No node named ${to}`);
  if (target.state !== 'active') throw new NodeError(`${to} is ${target.state}: it takes no new services`);
  return target;
}

/** Refuses a node without the roles a service needs there: web for its hosting, mail for its mail. */
export async function checkRoles(store: Store, itemId: number, target: { name: string; roles: string }) {
  const [service, mail] = await Promise.all([
    store.selectFrom('service').select('item_id').where('item_id', '=', itemId).executeTakeFirst(),
    store.selectFrom('mail_service').select('item_id').where('item_id', '=', itemId).executeTakeFirst(),
  ]);
  const roles = target.roles.split(',');
  const needed = [...(service ? ['web'] : []), ...(mail ? ['mail'] : [])].filter((r) => !roles.includes(r));
  if (needed.length) throw new NodeError(`${target.name} has no ${needed.join(', ')} role`);
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
  const target = await receivingNode(store, to);
  if (target.id === item.node_id) throw new NodeError(`${name} is on ${to} already`);
  await checkRoles(store, item.id, target);
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

/** What a move or a rebuild carries: the store's rows of one service, read once when its job runs. */
export async function serviceContents(store: Store, itemId: number) {
  const { reference, realm_id: realmId } = await store
    .selectFrom('item')
    .select(['reference', 'realm_id'])
    .where('id', '=', itemId)
    .executeTakeFirstOrThrow();
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
  const addresses = accounts.map((a) => `${a.name}@${reference}`);
  return { itemId, realmId, reference, service, mail, accounts, aliases, ftpUsers, databases, hostKeys, addresses };
}
export type ServiceContents = Awaited<ReturnType<typeof serviceContents>>;

/** The folders a service's data lives in on a machine: a normal service's web root, each mailbox's home. */
export const dataParts = (contents: ServiceContents, anyKind = false): ServicePart[] => [
  ...(contents.service && (anyKind || contents.service.kind === 'normal') ? [{ kind: 'web', reference: contents.reference } as const] : []),
  ...contents.addresses.map((address) => ({ kind: 'mail', address }) as const),
];

/** What a step of a move or a rebuild runs with: the job's attempt and the service's rows. */
export interface MoveStep {
  runtime: Runtime;
  job: Job;
  progress: (percent: number) => Promise<void>;
  signal: AbortSignal;
  /** The machine the service leaves (null: the panel's own); a rebuild has none it may touch. */
  from: number | null;
  to: number;
  contents: ServiceContents;
}

/** Runs `run` with a machine's drivers: a node's through its agent, the panel's own for null. */
export const onMachine = <T>(runtime: Runtime, node: number | null, job: number, run: () => Promise<T>) =>
  node === null ? onPanel(run) : runtime.nodes.on(node, job, run);

/**
 * Step 1: the new node serves what the store says the service is (every host, mailbox, alias, FTP
 * account, database and DKIM key), through the same handlers as their own jobs.
 */
export async function applyOnNode(step: Omit<MoveStep, 'from'>, handlers: JobHandlers) {
  const { runtime, job, signal, to, contents: c } = step;
  const own = (kind: string, payload: unknown) => handlers[kind]!(payload, job, async () => {}, signal);
  await onMachine(runtime, to, job.id, async () => {
    if (c.service) await own('service.web.apply', { itemId: c.itemId });
    for (const key of c.hostKeys) {
      const state = await loadSiteState(runtime, key);
      if (state) await runtime.drivers.sites.applySite(state);
    }
    for (const a of c.accounts) await own('service.mailbox.apply', { id: a.id });
    for (const a of c.aliases) await own('service.alias.apply', { id: a.id });
    for (const u of c.ftpUsers) await own('service.ftp.apply', { id: u.id });
    for (const d of c.databases) await own('service.database.apply', { id: d.id });
    if (c.mail) await own(DKIM_JOB, { itemId: c.itemId });
  });
}

/**
 * Step 2 by streaming: each folder packed on the old machine (a database dumped), carried through
 * the panel a chunk at a time, unpacked (or loaded) on the new one. Progress from 10 to 80 %.
 */
export async function streamData(step: MoveStep) {
  const { runtime, job, progress, signal, from, to, contents: c } = step;
  /** A machine's transfer area: a node's through its agent, the panel's own here (its drivers, its data dir's spool). */
  const transfer = (node: number | null, method: TransferMethod, ...args: unknown[]) =>
    onMachine(runtime, node, job.id, async () =>
      node === null
        ? (nodeFiles(runtime.config, runtime.config.dataDir, runtime.drivers)[method] as (...a: unknown[]) => Promise<unknown>)(...args)
        : callNode('transfer', method, ...args),
    );
  const folders = dataParts(c);
  const steps = folders.length + c.databases.length;
  const carry = async (index: number, spooled: { id: string | null; size: number }) => {
    if (spooled.id === null) return false;
    const id = spooled.id;
    for (let offset = 0; offset < spooled.size; offset += CHUNK_BYTES) {
      signal.throwIfAborted();
      const data = await transfer(from, 'read', id, offset);
      await transfer(to, 'write', id, offset, data);
      await progress(10 + 70 * ((index + Math.min(1, (offset + CHUNK_BYTES) / spooled.size)) / steps));
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
  for (const [i, d] of c.databases.entries()) {
    const dumped = (await transfer(from, 'dump', d.name)) as { id: string; size: number };
    await carry(folders.length + i, dumped);
    await transfer(to, 'restore', dumped.id, d.name);
    await transfer(from, 'drop', dumped.id);
    await progress(10 + (70 * (folders.length + i + 1)) / steps);
  }
}

/**
 * Step 3: the zone's records whose template value holds `{webIp}` or `{mailIp}` point at the new
 * node's address, as one recorded zone change by `by` (the panel applies it).
 */
export async function followNode(runtime: Runtime, itemId: number, to: number, by: string) {
  const { store } = runtime;
  const target = await store.selectFrom('node').select('address').where('id', '=', to).executeTakeFirstOrThrow();
  const zone = await store.selectFrom('dns_zone').select('name').where('item_id', '=', itemId).executeTakeFirst();
  if (!zone || !target.address) return;
  const settings = placedSettings(dnsSettings(runtime.config), target.address);
  const moved = (records: DnsRecordRow[]) =>
    records
      .filter((r) => r.dynamic_value && /\{(webIp|mailIp)\}/.test(r.dynamic_value))
      .map((r) => ({ r, value: normaliseValue(r.type as DnsType, fillTemplate(settings, zone.name, r.dynamic_value as string)) }))
      .filter(({ r, value }) => value !== r.value);
  // A retried job whose records were switched already leaves the zone (and its history) alone.
  if (moved(await loadRecords(store, itemId)).length === 0) return;
  await changeZone(store, itemId, { kind: 'save', by }, async (trx, records, _name, touch) => {
    for (const { r, value } of moved(records)) {
      await trx.updateTable('dns_record').set({ value }).where('id', '=', r.id).execute();
      touch({ zona: r.zona, type: r.type });
    }
  });
}

/** Step 4: the old machine holds nothing of the service any more. */
async function forgetOnOld(step: MoveStep) {
  const { runtime, job, from, contents: c } = step;
  const { drivers } = runtime;
  await onMachine(runtime, from, job.id, async () => {
    for (const key of c.hostKeys) await drivers.sites.removeSite(key);
    if (c.service)
      await drivers.web.removeService({ reference: c.reference, webRoot: webRootOf(runtime.config.hosting.webRoot, c.reference) });
    for (const address of c.addresses) await drivers.mail.removeMailbox(address);
    for (const a of c.aliases) await drivers.mail.removeAlias(`${a.name}@${c.reference}`);
    for (const u of c.ftpUsers) await drivers.ftp.removeUser(u.login);
    for (const d of c.databases) await drivers.databases.remove({ name: d.name, user: d.username });
    if (c.mail) await drivers.mail.ensureDkim(c.reference, []);
    for (const part of dataParts(c, true))
      await (from === null
        ? nodeFiles(runtime.config, runtime.config.dataDir, drivers).remove(part)
        : callNode('transfer', 'remove', part));
  });
}

/** How a move carries the data (step 2): by streaming through the panel, or by a snapshot (modules/backups/move.ts). */
export type CarryData = (step: MoveStep) => Promise<void>;

/**
 * The move itself, run by the old node's worker (the new node's off the panel): (1) the new node is
 * given everything the store holds for the service; (2) the data is carried (`carry`); (3) the
 * zone's records follow the service; (4) the old machine forgets all of it. Every step is
 * idempotent, so a retried move starts again from the top and ends the same. Its handler is
 * registered by the backups area, which supplies a carry by snapshot (decision 064).
 */
export function moveJob(runtime: Runtime, handlers: JobHandlers, carry: CarryData = streamData): JobHandler {
  return withTimeLimit(3600, async (raw, job, progress, signal) => {
    const { itemId, from, to } = raw as MovePayload;
    const step: MoveStep = { runtime, job, progress, signal, from, to, contents: await serviceContents(runtime.store, itemId) };
    await applyOnNode(step, handlers);
    await progress(10);
    await carry(step);
    await followNode(runtime, itemId, to, 'service-move');
    await progress(85);
    await forgetOnOld(step);
  });
}
