import path from 'node:path';
import type { Config } from '../config/config.ts';
import { nginxOptionsOf } from '../drivers/real/adapters.ts';
import { dovecotBackend } from '../drivers/real/dovecot/dovecot.ts';
import { nginxBackend } from '../drivers/real/nginx/nginx.ts';
import { pureFtpdBackend } from '../drivers/real/pureftpd/pureftpd.ts';
import { mailboxOf } from '../modules/service/mail/mailbox.ts';
import { phpVersionOf } from '../modules/sites/php.ts';
import { loadSiteState } from '../modules/sites/state.ts';
import type { Secrets } from '../secrets.ts';
import type { Store } from '../store/db.ts';

export interface Difference {
  area: 'mail' | 'alias' | 'ftp' | 'sites';
  subject: string;
  problem: 'missing' | 'extra' | 'differs';
  /** Set with --repair: what happened when the difference was fixed. */
  outcome?: 'repaired' | string;
}

/**
 * Rows of items placed on a hosting node (decision 040), by node and area: that node's daemons
 * hold them, which only its agent reaches, so they are neither compared with nor repaired on the
 * panel machine's own daemons (a repair would create them there).
 */
export interface Skipped {
  node: string;
  area: Difference['area'];
  count: number;
}

export interface Reconciliation {
  differences: Difference[];
  skipped: Skipped[];
}

type Fix = () => Promise<void>;
const optionsOf = (config: Config, area: string) => {
  const { driver: _d, kind: _k, ...rest } = config.drivers[area] ?? {};
  return rest;
};
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * Compares what the store holds with what each configured real backend serves, and with `repair`
 * brings the backend in line with the store (the store is the truth: the outbox only ever moves
 * backends towards it). Rows still being deleted are left to their pending jobs, those of items
 * placed on a node to that node (counted in `skipped`).
 */
export async function reconcile(store: Store, config: Config, secrets: Secrets, repair: boolean): Promise<Reconciliation> {
  const found: { diff: Difference; fix: Fix }[] = [];
  const note = (diff: Difference, fix: Fix) => found.push({ diff, fix });
  const items = await store
    .selectFrom('item')
    .leftJoin('node', 'node.id', 'item.node_id')
    .select(['item.id', 'item.reference', 'node.name as node'])
    .execute();
  const refs = new Map(items.map((i) => [i.id, i.reference]));
  const placed = new Map(items.filter((i) => i.node !== null).map((i) => [i.id, i.node!]));
  const skipped = new Map<string, Skipped>();
  /** Whether the item is on a node: its row is counted as skipped, and the caller leaves its name alone. */
  const onNode = (itemId: number | undefined, area: Difference['area']) => {
    const node = itemId === undefined ? undefined : placed.get(itemId);
    if (node === undefined) return false;
    const entry = skipped.get(`${node} ${area}`) ?? { node, area, count: 0 };
    entry.count++;
    skipped.set(`${node} ${area}`, entry);
    return true;
  };

  if (config.drivers.mail?.driver === 'dovecot') {
    const b = dovecotBackend(optionsOf(config, 'mail'));
    const held = await b.list();
    const boxes = new Map(held.mailboxes.map((m) => [m.address, m]));
    const rows = await store.selectFrom('mail_account').selectAll().where('deleting', '=', 0).execute();
    const wanted = new Set<string>();
    for (const row of rows) {
      const address = `${row.name}@${refs.get(row.item_id)}`.toLowerCase();
      // A node's mailbox is wanted there, not here: neither created on the panel nor taken as extra.
      wanted.add(address);
      if (onNode(row.item_id, 'mail')) continue;
      const box = boxes.get(address);
      const ensure = () => b.ensureMailbox(mailboxOf(row, address, secrets));
      if (!box) note({ area: 'mail', subject: address, problem: 'missing' }, ensure);
      else if (box.quota !== Math.floor(row.quota) || box.home !== b.homeOf(address))
        note({ area: 'mail', subject: address, problem: 'differs' }, ensure);
    }
    for (const box of held.mailboxes)
      if (!wanted.has(box.address)) note({ area: 'mail', subject: box.address, problem: 'extra' }, () => b.removeMailbox(box.address));

    const aliases = new Map(held.aliases.map((a) => [a.address, a.targets]));
    const wantedAliases = new Set<string>();
    for (const row of await store.selectFrom('mail_alias').selectAll().where('deleting', '=', 0).execute()) {
      const address = `${row.name}@${refs.get(row.item_id)}`.toLowerCase();
      const targets = row.targets
        .split(',')
        .map((t) => t.trim().toLowerCase())
        .filter(Boolean);
      wantedAliases.add(address);
      if (onNode(row.item_id, 'alias')) continue;
      const ensure = () => b.ensureAlias({ address, targets });
      if (!aliases.has(address)) note({ area: 'alias', subject: address, problem: 'missing' }, ensure);
      else if (!same([...aliases.get(address)!].sort(), [...targets].sort()))
        note({ area: 'alias', subject: address, problem: 'differs' }, ensure);
    }
    for (const address of aliases.keys())
      if (!wantedAliases.has(address)) note({ area: 'alias', subject: address, problem: 'extra' }, () => b.removeAlias(address));
  }

  if (config.drivers.ftp?.driver === 'pureftpd') {
    const b = pureFtpdBackend(optionsOf(config, 'ftp'));
    const users = new Map((await b.list()).map((u) => [u.login, u]));
    const wanted = new Set<string>();
    for (const row of await store.selectFrom('ftp_user').selectAll().where('deleting', '=', 0).execute()) {
      wanted.add(row.login);
      if (onNode(row.item_id, 'ftp')) continue;
      const home = path.posix.join(config.hosting.webRoot, refs.get(row.item_id) ?? '', row.folder);
      const ensure = () => b.ensureUser({ login: row.login, password: secrets.decrypt(row.password_secret), home });
      const user = users.get(row.login);
      if (!user) note({ area: 'ftp', subject: row.login, problem: 'missing' }, ensure);
      else if (path.resolve(user.home) !== path.resolve(home)) note({ area: 'ftp', subject: row.login, problem: 'differs' }, ensure);
    }
    for (const login of users.keys())
      if (!wanted.has(login)) note({ area: 'ftp', subject: login, problem: 'extra' }, () => b.removeUser(login));
  }

  if (config.drivers.sites?.driver === 'nginx') {
    const b = nginxBackend(nginxOptionsOf(config));
    // State files written before the jobs resolved "default" hold it as such: it serves the same socket.
    const resolved = <T extends { service: { phpVersion: string } }>(s: T): T => ({
      ...s,
      service: { ...s.service, phpVersion: phpVersionOf(s.service.phpVersion, config) },
    });
    const held = new Map((await b.list()).map((s) => [s.key, s]));
    const keys = new Set(held.keys());
    const itemOf = new Map<string, number>();
    for (const s of await store.selectFrom('site').select(['id', 'service_id']).execute()) itemOf.set(`site-${s.id}`, s.service_id);
    for (const s of await store.selectFrom('service').select('item_id').execute()) itemOf.set(`apex-${s.item_id}`, s.item_id);
    for (const key of itemOf.keys()) keys.add(key);
    for (const key of [...keys].sort()) {
      if (onNode(itemOf.get(key), 'sites')) continue;
      const state = await loadSiteState({ store, secrets, config }, key);
      const current = held.get(key);
      if (!state) {
        if (current) note({ area: 'sites', subject: `${key} (${current.host})`, problem: 'extra' }, () => b.removeSite(key));
        continue;
      }
      const { ssl, ...rest } = state;
      if (!current) note({ area: 'sites', subject: `${key} (${state.host})`, problem: 'missing' }, () => b.applySite(state));
      else if (!same(resolved({ ...rest, ssl: ssl !== null }), resolved(current)))
        note({ area: 'sites', subject: `${key} (${state.host})`, problem: 'differs' }, () => b.applySite(state));
      else {
        const disk = await b.onDisk(current);
        if (disk !== 'ok')
          note({ area: 'sites', subject: `${key} (${state.host})`, problem: disk === 'missing' ? 'missing' : 'differs' }, () =>
            b.applySite(state),
          );
      }
    }
  }

  if (repair) {
    for (const { diff, fix } of found) {
      diff.outcome = await fix().then(
        () => 'repaired',
        (error: unknown) => `failed: ${(error as Error).message}`,
      );
    }
  }
  return { differences: found.map((f) => f.diff), skipped: [...skipped.values()] };
}

/** The report's line for each node whose rows were skipped: how many, of what, and why. */
export function skippedLines(skipped: Skipped[]): string[] {
  const byNode = new Map<string, string[]>();
  for (const s of skipped) byNode.set(s.node, [...(byNode.get(s.node) ?? []), `${s.count} ${s.area}`]);
  return [...byNode].map(
    ([node, counts]) =>
      `Skipped on node ${node}: ${counts.join(', ')} (placed there: only its agent reaches its daemons, and this command compares the panel machine's own)`,
  );
}
