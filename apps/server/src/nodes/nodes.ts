import { createHash, randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { now, type Store } from '../store/db.ts';
// The certificate library is loaded when a node enrols, not with every panel start (the demo seed imports this file).
import type { PanelCa } from './ca.ts';
import type { NodeRow } from './tables.ts';

/** What a node may serve; a service is placed on a node with the role its hosting needs. */
export const NODE_ROLES = ['web', 'mail', 'ftp', 'db'] as const;
export type NodeRole = (typeof NODE_ROLES)[number];

/** How long an enrolment token may wait for its agent. */
export const ENROLMENT_SECONDS = 24 * 3600;

/** A refusal the operator reads (the CLI prints it as `Error: …`). */
export class NodeError extends Error {}

const hash = (secret: string) => createHash('sha256').update(secret).digest('hex');

export function parseRoles(text: string): NodeRole[] {
  const roles = [...new Set(text.split(',').map((r) => r.trim()))].filter(Boolean);
  const unknown = roles.filter((r) => !(NODE_ROLES as readonly string[]).includes(r));
  if (roles.length === 0 || unknown.length) throw new NodeError(`--roles must list some of ${NODE_ROLES.join(', ')}`);
  return roles as NodeRole[];
}

/**
 * Registers a node and answers its one-time enrolment token: a secret (only its hash is kept, and
 * only until it is used or expires) and the CA's fingerprint, which the agent pins before it sends anything.
 */
export async function addNode(store: Store, ca: PanelCa, name: string, roles: NodeRole[], host = name, address: string | null = null) {
  if (!/^[a-z0-9]([a-z0-9.-]{0,251}[a-z0-9])?$/.test(host)) throw new NodeError(`"${host}" is not a host name`);
  if (address !== null && !/^(25[0-5]|2[0-4]\d|1?\d?\d)(\.(25[0-5]|2[0-4]\d|1?\d?\d)){3}$/.test(address)) {
    throw new NodeError(`--address must be an IPv4 address, not "${address}"`);
  }
  if (!/^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/.test(name)) throw new NodeError(`"${name}" is not a node name (a-z, 0-9 and -)`);
  const existing = await store.selectFrom('node').select('id').where('name', '=', name).executeTakeFirst();
  if (existing) throw new NodeError(`A node named ${name} exists already`);
  // Hex, never base64url: a token beginning with "-" would be taken for an option by `--enrol <token>`.
  const secret = randomBytes(24).toString('hex');
  const t = now();
  await store
    .insertInto('node')
    .values({
      name,
      host,
      address,
      roles: roles.join(','),
      state: 'enrolling',
      token_hash: hash(secret),
      token_expires_at: t + ENROLMENT_SECONDS,
      created_at: t,
    })
    .execute();
  return `${secret}.${ca.fingerprint}`;
}

/** Exchanges an unused, unexpired token once for the node's client certificate; the token is spent in the same update. */
export async function enrol(store: Store, ca: PanelCa, token: string, csrPem: string, version: string) {
  const [secret] = token.split('.');
  const node = await store
    .selectFrom('node')
    .selectAll()
    .where('token_hash', '=', hash(secret ?? ''))
    .where('state', '=', 'enrolling')
    .where('token_expires_at', '>', now())
    .executeTakeFirst();
  if (!node) return null;
  const { issueClientCertificate } = await import('./ca.ts');
  const cert = await issueClientCertificate(ca, csrPem, node.name);
  const spent = await store
    .updateTable('node')
    .set({ state: 'active', token_hash: null, token_expires_at: null, cert_serial: cert.serial, version, last_contact_at: now() })
    .where('id', '=', node.id)
    .where('token_hash', '=', node.token_hash)
    .executeTakeFirst();
  if (Number(spent.numUpdatedRows) !== 1) return null;
  return { node: node.name, certPem: cert.pem, caPem: ca.certPem };
}

/**
 * The node a presented client certificate belongs to, read from the store at every connection and
 * request: a removed node (or a certificate it no longer holds) is refused at once, whatever the CA signed.
 */
export async function nodeOfCertificate(store: Store, name: string, tlsSerial: string): Promise<NodeRow | null> {
  const node = await store.selectFrom('node').selectAll().where('name', '=', name).executeTakeFirst();
  if (!node || node.cert_serial === null || (node.state !== 'active' && node.state !== 'draining')) return null;
  return sameSerial(tlsSerial, node.cert_serial) ? node : null;
}

export async function touchNode(store: Store, id: number, version?: string) {
  await store
    .updateTable('node')
    .set({ last_contact_at: now(), ...(version ? { version } : {}) })
    .where('id', '=', id)
    .execute();
}

/** Every node with what waits for it, for `npm run admin -- nodes`. */
export function listNodes(store: Store) {
  return store
    .selectFrom('node')
    .select((eb) => [
      'node.id',
      'node.name',
      'node.host',
      'node.roles',
      'node.state',
      'node.version',
      'node.last_contact_at',
      eb
        .selectFrom('job')
        .select(eb.fn.countAll<number>().as('n'))
        .whereRef('job.node_id', '=', 'node.id')
        .where('job.status', 'in', ['pending', 'running'])
        .as('waiting'),
      eb.selectFrom('item').select(eb.fn.countAll<number>().as('n')).whereRef('item.node_id', '=', 'node.id').as('items'),
    ])
    .where('node.state', '<>', 'removed')
    .orderBy('node.name')
    .execute();
}

async function findNode(store: Store, name: string) {
  const node = await store.selectFrom('node').selectAll().where('name', '=', name).where('state', '<>', 'removed').executeTakeFirst();
  if (!node) throw new NodeError(`No node named ${name}`);
  return node;
}

/** A draining node keeps applying its services' jobs but receives no new service. */
export async function drainNode(store: Store, name: string, undo = false) {
  const node = await findNode(store, name);
  if (node.state === 'enrolling') throw new NodeError(`${name} has not enrolled yet`);
  await store
    .updateTable('node')
    .set({ state: undo ? 'active' : 'draining' })
    .where('id', '=', node.id)
    .execute();
}

/**
 * Removes a node: its certificate is refused from now on (the listener checks the row on every
 * connection and request). A node that still hosts items is refused unless forced, since their
 * jobs would wait for it for ever.
 */
export async function removeNode(store: Store, name: string, force = false) {
  const node = await findNode(store, name);
  const placed = await store.selectFrom('item').select(sql<number>`count(*)`.as('n')).where('node_id', '=', node.id).executeTakeFirst();
  if (Number(placed?.n ?? 0) > 0 && !force) throw new NodeError(`${name} still hosts ${placed?.n} item(s): move them first, or --force`);
  await store
    .updateTable('node')
    .set({ state: 'removed', cert_serial: null, token_hash: null, token_expires_at: null, name: `${node.name}~removed-${node.id}` })
    .where('id', '=', node.id)
    .execute();
}

/** The node a new service goes to: the one named, or the active node with the role that hosts the fewest items. */
export async function chooseNode(store: Store, role: NodeRole, name?: string) {
  if (name !== undefined) {
    const node = await findNode(store, name);
    if (node.state !== 'active') throw new NodeError(`${name} is ${node.state}: it takes no new services`);
    if (!node.roles.split(',').includes(role)) throw new NodeError(`${name} has no ${role} role`);
    return node.id;
  }
  const rows = await store
    .selectFrom('node')
    .select((eb) => [
      'node.id',
      'node.roles',
      eb.selectFrom('item').select(eb.fn.countAll<number>().as('n')).whereRef('item.node_id', '=', 'node.id').as('load'),
    ])
    .where('state', '=', 'active')
    .orderBy('load')
    .orderBy('id')
    .execute();
  return rows.find((r) => r.roles.split(',').includes(role))?.id ?? null;
}

/** The serial of a certificate as node:tls shows it (upper-case hex, leading zeros dropped), compared with the stored one. */
export const sameSerial = (tlsSerial: string, stored: string) => BigInt(`0x${tlsSerial}`) === BigInt(`0x${stored}`);
