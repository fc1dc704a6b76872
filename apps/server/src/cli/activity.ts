import { exportEvent } from '../modules/activity/present.ts';
import { allEvents, filteredEvents } from '../modules/activity/query.ts';
import { recordActivity } from '../modules/activity/record.ts';
import { diff } from '../modules/activity/redact.ts';
import { AccountError, findRealm } from '../modules/provisioning/accounts.ts';
import type { Store } from '../store/db.ts';

/** Which of a command's arguments name the realm and the item it changed (their positions). */
export interface CommandActivity {
  realm?: number;
  reference?: number;
  /** The permission area readers of the item see the change under; none: the operator's log only. */
  area?: string;
}

/**
 * Records a command of `npm run admin` that changed something, with actor `cli`: the command, its
 * arguments by name and its options (a --password given is redacted), the realm and the item.
 */
export async function recordCommand(
  store: Store,
  name: string,
  spec: { args: string[]; activity: CommandActivity },
  positionals: string[],
  values: Record<string, string | boolean | undefined>,
) {
  const { realm: realmAt, reference: referenceAt, area } = spec.activity;
  const realm = realmAt === undefined ? undefined : await findRealm(store, positionals[realmAt]).catch(() => undefined);
  const reference = referenceAt === undefined ? undefined : positionals[referenceAt];
  const item =
    realm && reference !== undefined
      ? await store
          .selectFrom('item')
          .select(['id', 'reference'])
          .where('realm_id', '=', realm.id)
          .where('reference', '=', reference)
          .executeTakeFirst()
      : undefined;
  const fields = Object.fromEntries([...spec.args.map((arg, i) => [arg.replace(/\?$/, ''), positionals[i]]), ...Object.entries(values)]);
  await recordActivity(store, {
    action: `cli.${name}`,
    actor: 'cli',
    realmId: realm?.id ?? null,
    item: item ?? null,
    area: area ?? '',
    changes: diff(null, fields),
  });
}

export function sinceDay(since: string | boolean | undefined): number | undefined {
  if (since === undefined) return undefined;
  if (typeof since !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(since) || Number.isNaN(Date.parse(`${since}T00:00:00Z`)))
    throw new AccountError('--since must be a date as YYYY-MM-DD');
  return Date.parse(`${since}T00:00:00Z`) / 1000;
}

/** `admin audit`: the whole log (or one realm's, from one day on) as JSON lines, oldest first. */
export async function printAudit(store: Store, values: Record<string, string | boolean | undefined>, write: (line: string) => void) {
  const from = sinceDay(values.since);
  const realm = typeof values.realm === 'string' ? await findRealm(store, values.realm) : undefined;
  let query = filteredEvents(store, {});
  if (realm) query = query.where('e.realm_id', '=', realm.id);
  if (from !== undefined) query = query.where('e.at', '>=', from);
  const realms = new Map((await store.selectFrom('realm').select(['id', 'name']).execute()).map((r) => [r.id, r.name]));
  for await (const row of allEvents(query))
    write(JSON.stringify(exportEvent(row, row.realm_id === null ? null : (realms.get(row.realm_id) ?? null))));
}
