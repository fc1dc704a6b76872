import { AREAS, type Area, LEVELS, type Level, LIMITS, type PermissionMap, parseLevels } from '@atalaya/contract';
import { canonicalRealm, itemSearchText, toDomainName, USERNAME } from '../../kernel/names.ts';
import { chooseNode, NodeError } from '../../nodes/nodes.ts';
import { hashPassword } from '../../passwords.ts';
import { now, type Store } from '../../store/db.ts';
import { isUniqueViolation } from '../../store/errors.ts';
import { refreshListEntries } from '../lists/entries.ts';
import { enqueueDkim } from '../service/mail/dkim.ts';
import { revokeAllTokens } from '../token/tokens.ts';
import { AccountError } from './account-error.ts';

// Its own module so that the CLI's command table can throw it without loading the store (decision 056).
export { AccountError };

export async function findRealm(store: Store, name: string) {
  const realm = await store.selectFrom('realm').selectAll().where('name', '=', canonicalRealm(name)).executeTakeFirst();
  if (!realm) throw new AccountError(`No realm named "${name}"`);
  return realm;
}

export async function createRealm(store: Store, name: string) {
  const domain = toDomainName(name);
  if (!domain) throw new AccountError(`"${name}" is not a valid domain name (the realm is the sign-in domain name)`);
  const exists = await store.selectFrom('realm').select('id').where('name', '=', domain).executeTakeFirst();
  if (exists) throw new AccountError(`Realm "${domain}" already exists`);
  return store.insertInto('realm').values({ name: domain, created_at: now() }).returning(['id', 'name']).executeTakeFirstOrThrow();
}

export function checkPassword(password: string) {
  if (password.length < LIMITS.passwordMin || password.length > LIMITS.passwordMax) {
    throw new AccountError(`The password must have between ${LIMITS.passwordMin} and ${LIMITS.passwordMax} characters`);
  }
}

export async function findUser(store: Store, realmName: string, username: string) {
  const realm = await findRealm(store, realmName);
  const user = await store
    .selectFrom('user')
    .selectAll()
    .where('realm_id', '=', realm.id)
    .where('username', '=', username)
    .executeTakeFirst();
  if (!user) throw new AccountError(`No user "${username}" in realm "${realm.name}"`);
  return user;
}

export async function createUser(store: Store, realmName: string, username: string, password: string) {
  const realm = await findRealm(store, realmName);
  if (!USERNAME.test(username)) {
    throw new AccountError(`"${username}" is not a valid username: lower-case letters, digits, ".", "_" or "-", up to 64`);
  }
  checkPassword(password);
  const exists = await store
    .selectFrom('user')
    .select('id')
    .where('realm_id', '=', realm.id)
    .where('username', '=', username)
    .executeTakeFirst();
  if (exists) throw new AccountError(`User "${username}" already exists in realm "${realm.name}"`);
  return store
    .insertInto('user')
    .values({ realm_id: realm.id, username, password_hash: await hashPassword(password), created_at: now() })
    .returning(['id', 'username'])
    .executeTakeFirstOrThrow();
}

export async function resetPassword(store: Store, realmName: string, username: string, password: string) {
  const user = await findUser(store, realmName, username);
  checkPassword(password);
  await store.transaction().execute(async (trx) => {
    await trx
      .updateTable('user')
      .set({ password_hash: await hashPassword(password) })
      .where('id', '=', user.id)
      .execute();
    await trx.deleteFrom('session').where('user_id', '=', user.id).execute();
    // A token made by whoever learnt the old password must not outlive the reset (decision 027).
    await revokeAllTokens(trx, user.id);
  });
}

export async function setDisabled(store: Store, target: { realm: string; username?: string }, disabled: boolean) {
  const flag = disabled ? 1 : 0;
  if (target.username) {
    const user = await findUser(store, target.realm, target.username);
    await store.transaction().execute(async (trx) => {
      await trx.updateTable('user').set({ disabled: flag }).where('id', '=', user.id).execute();
      if (!disabled) return;
      await trx.deleteFrom('session').where('user_id', '=', user.id).execute();
      // Revoked, not only refused while disabled: enabling the user again brings none back (decision 027).
      await revokeAllTokens(trx, user.id);
    });
  } else {
    const realm = await findRealm(store, target.realm);
    await store.updateTable('realm').set({ disabled: flag }).where('id', '=', realm.id).execute();
  }
}

export interface ItemSpec {
  realm: string;
  reference: string;
  domain?: boolean;
  service?: 'normal' | 'parking';
  mail?: boolean;
  /** Unix seconds; a year from now when absent. */
  expireAt?: number;
  /** The node to place the hosting on; absent: the least loaded active node with the role, if any (decision 040). */
  node?: string;
  /** The domain is held at another registrar and comes by transfer: the panel waits for it and never registers it. */
  transferIn?: boolean;
}

/** Who holds a domain created for a transfer in, at the local registry (an EPP registry knows its own sponsor). */
export const ELSEWHERE = 'elsewhere';

/**
 * Where an item's hosting runs: on a node when the panel has nodes (the one named, else the least
 * loaded with the role its hosting needs), else on the panel's own machine (null), as before nodes.
 */
async function placement(store: Store, spec: ItemSpec) {
  if (!spec.service && !spec.mail) {
    if (spec.node !== undefined) throw new AccountError('--node needs a hosting or mail service (--service, --mail)');
    return null;
  }
  try {
    return await chooseNode(store, spec.service ? 'web' : 'mail', spec.node);
  } catch (error) {
    if (error instanceof NodeError) throw new AccountError(error.message);
    throw error;
  }
}

export async function createItem(store: Store, spec: ItemSpec) {
  const realm = await findRealm(store, spec.realm);
  const reference = toDomainName(spec.reference);
  if (!reference) throw new AccountError(`"${spec.reference}" is not a valid domain name`);
  if (!spec.domain && !spec.service && !spec.mail) {
    throw new AccountError('An item needs a domain, a hosting service or a mail service (--domain, --service, --mail)');
  }
  await checkNameOwner(store, realm, reference);
  const nodeId = await placement(store, spec);
  const t = now();
  const expireAt = spec.expireAt ?? t + 365 * 86400;
  const created = store.transaction().execute(async (trx) => {
    const item = await trx
      .insertInto('item')
      .values({ realm_id: realm.id, reference, search: itemSearchText(reference), created_at: t, node_id: nodeId })
      .returning(['id', 'reference'])
      .executeTakeFirstOrThrow();
    if (spec.domain) {
      await trx
        .insertInto('domain')
        .values({
          item_id: item.id,
          name: reference,
          expire_at: expireAt,
          created_at: t,
          ...(spec.transferIn ? { transfer_in: 1, sponsor: ELSEWHERE } : {}),
        })
        .execute();
    }
    if (spec.service) {
      await trx
        .insertInto('service')
        .values({
          item_id: item.id,
          kind: spec.service,
          expire_at: expireAt,
          limit_space_web: 10 * 1024 ** 3,
          limit_traffic: 100 * 1024 ** 3,
          limit_databases: 5,
          limit_space_databases: 1024 ** 3,
          created_at: t,
        })
        .execute();
    }
    if (spec.mail) {
      await trx.insertInto('mail_service').values({ item_id: item.id, expire_at: expireAt, limit_accounts: 50, created_at: t }).execute();
      // The domain's DKIM keys are made by the job (an RSA key takes a moment), not in this transaction.
      await enqueueDkim(trx, item.id);
    }
    return item;
  });
  // Another process created the same name in between: the store's unique constraint refused it.
  return created.catch(async (error) => {
    if (isUniqueViolation(error)) await checkNameOwner(store, realm, reference);
    throw error;
  });
}

/**
 * One owner per name in the whole installation: the mail, DNS, FTP and database servers key
 * everything by name, so a reference another realm holds, or one inside or above another
 * realm's (whose zone would take over part of the other's), is refused. The store's unique
 * constraint on references enforces the first part whatever the caller.
 */
async function checkNameOwner(store: Store, realm: { id: number; name: string }, reference: string) {
  const labels = reference.split('.');
  const above = labels.slice(1, -1).map((_, i) => labels.slice(i + 1).join('.'));
  const clash = await store
    .selectFrom('item')
    .innerJoin('realm', 'realm.id', 'item.realm_id')
    .select(['item.reference', 'item.realm_id', 'realm.name as realm'])
    .where((eb) =>
      eb.or([
        eb('item.reference', '=', reference),
        ...(above.length ? [eb('item.reference', 'in', above)] : []),
        // A valid reference holds no % or _, so it needs no escaping in the pattern.
        eb('item.reference', 'like', `%.${reference}`),
      ]),
    )
    .orderBy('item.reference')
    .execute();
  const mine = clash.find((c) => c.reference === reference && c.realm_id === realm.id);
  if (mine) throw new AccountError(`Realm "${realm.name}" already has an item "${reference}"`);
  const other = clash.find(
    (c) => c.realm_id !== realm.id && (c.reference === reference || c.reference.endsWith(`.${reference}`) || above.includes(c.reference)),
  );
  if (!other) return;
  if (other.reference === reference) {
    throw new AccountError(`"${reference}" belongs to realm "${other.realm}": a name has one owner in the whole installation`);
  }
  const relation = above.includes(other.reference) ? `is inside "${other.reference}"` : `holds "${other.reference}"`;
  throw new AccountError(
    `"${reference}" ${relation}, which belongs to realm "${other.realm}": a name and the names under it have one owner in the whole installation`,
  );
}

export async function findItem(store: Store, realmName: string, reference: string) {
  const realm = await findRealm(store, realmName);
  const item = await store
    .selectFrom('item')
    .selectAll()
    .where('realm_id', '=', realm.id)
    .where('reference', '=', toDomainName(reference) ?? reference.toLowerCase())
    .executeTakeFirst();
  if (!item) throw new AccountError(`No item "${reference}" in realm "${realm.name}"`);
  return item;
}

export interface ServiceLimits {
  spaceWeb?: number;
  traffic?: number;
  databases?: number;
  spaceDatabases?: number;
}

export async function setServiceLimits(store: Store, realm: string, reference: string, limits: ServiceLimits) {
  const item = await findItem(store, realm, reference);
  const service = await store.selectFrom('service').select('item_id').where('item_id', '=', item.id).executeTakeFirst();
  if (!service) throw new AccountError(`Item "${reference}" has no hosting service`);
  for (const [key, value] of Object.entries(limits)) {
    if (value !== undefined && (!Number.isSafeInteger(value) || value < 0)) {
      throw new AccountError(`Limit ${key} must be a whole number of 0 or more`);
    }
  }
  await store
    .updateTable('service')
    .set({
      limit_space_web: limits.spaceWeb,
      limit_traffic: limits.traffic,
      limit_databases: limits.databases,
      limit_space_databases: limits.spaceDatabases,
    })
    .where('item_id', '=', item.id)
    .execute();
}

/** Parses "all=write", "domain=read,service_ftp=write" into a permission map (the grammar is the contract's parseLevels). */
export function parsePermissionMap(text: string): PermissionMap {
  const parsed = parseLevels(text);
  if ('map' in parsed) return parsed.map;
  const { problem } = parsed;
  if (problem.kind === 'level') throw new AccountError(`"${problem.value}" is not a level: use ${LEVELS.join(', ')}`);
  if (problem.kind === 'area') throw new AccountError(`"${problem.value}" is not an area: use all or one of ${AREAS.join(', ')}`);
  throw new AccountError('Give at least one area=level pair');
}

/** Grants a map to a user on an item of the same realm; open sessions see it on their next request. */
export async function grant(store: Store, realmName: string, username: string, reference: string, map: PermissionMap) {
  const user = await findUser(store, realmName, username);
  const item = await findItem(store, realmName, reference);
  await store.transaction().execute(async (trx) => {
    for (const [area, level] of Object.entries(map) as [Area, Level][]) {
      await trx
        .insertInto('permission')
        .values({ user_id: user.id, item_id: item.id, area, level })
        .onConflict((oc) => oc.columns(['user_id', 'item_id', 'area']).doUpdateSet({ level }))
        .execute();
    }
    await refreshListEntries(trx, { userId: user.id, itemId: item.id });
    await trx.insertInto('notice').values({ user_id: user.id, type: 'menu', at: now() }).execute();
  });
}
