import {
  CONTACT_TYPES,
  type ContactType,
  type operatorDomainRegisterSchema,
  type operatorDomainRenewSchema,
  type operatorDomainTransferSchema,
} from '@atalaya/contract';
import type { z } from 'zod';
import type { Config } from '../../config/config.ts';
import { type ContactData, type RegistryDriver, RegistryError } from '../../drivers/registry/interface.ts';
import { dayOf } from '../../drivers/registry/lifecycle.ts';
import { ApiError } from '../../http/errors.ts';
import { toDomainName } from '../../kernel/names.ts';
import type { Secrets } from '../../secrets.ts';
import { now, type Store } from '../../store/db.ts';
import type { Payloads } from '../domain/actions.ts';
import { awaitChange, queueRegistryChange, type Waited } from '../domain/changes.ts';
import { defaultNameServers } from '../domain/defaults.ts';
import { authKindOf } from '../domain/tld.ts';
import { createItem } from '../provisioning/accounts.ts';

type Registration = z.output<typeof operatorDomainRegisterSchema>;
type Renewal = z.output<typeof operatorDomainRenewSchema>;

/**
 * Registers a domain for a realm: the item the CLI's `item-create --domain` makes, then the
 * `register` registry change (decision 051) with the billing system's contacts (admin, billing and
 * tech default to the registrant) and its name servers, or the provider's own in default mode,
 * queued and applied by the worker as every registry write (decision 052) and billed once when it
 * is. The call waits for it: refused by the registry, the item is removed again, so nothing
 * half-registered stays; still on its way after the wait, the answer says it is pending.
 */
export async function registerDomain(
  runtime: { store: Store; config: Config; waitSeconds: number },
  input: Registration,
  operatorId: number,
) {
  const { store, config } = runtime;
  const item = await createItem(store, { realm: input.realm, reference: input.name, domain: true, expireAt: now() + input.years * YEAR });
  const contacts = Object.fromEntries(
    CONTACT_TYPES.map((type) => [type, (type === 'registrant' ? input.registrant : (input[type] ?? input.registrant)) as ContactData]),
  ) as Record<ContactType, ContactData>;
  const own = input.nameServers.length === 0;
  const payload: Payloads['register'] = {
    registration: {
      mode: own ? 'defaultDNS' : 'setDNS',
      nameServers: own ? defaultNameServers(config) : input.nameServers,
      authKind: authKindOf(item.reference),
      contacts,
      years: input.years,
    },
    actor: `operator:${operatorId}`,
  };
  const change = await store.transaction().execute((trx) => queueRegistryChange(trx, { itemId: item.id, action: 'register', payload }));
  let waited: Waited;
  try {
    waited = await awaitChange(store, change, runtime.waitSeconds);
  } catch (error) {
    await store.deleteFrom('item').where('id', '=', item.id).execute();
    throw error;
  }
  if (waited === 'pending') throw new ApiError(503, 'operator.register_pending', { name: item.reference });
  const registered = await store.selectFrom('domain').select('expire_at').where('item_id', '=', item.id).executeTakeFirstOrThrow();
  return { id: item.id, name: item.reference, expireAt: Number(registered.expire_at) };
}

const YEAR = 365 * 86_400;

/**
 * Renews a domain for the billing system that was paid for it, through the same renewal the
 * customer's screen and the schedule use (billed once, `domain.renewed` sent). `curExpDate` is the
 * expiry the billing system knows: a renewal sent again after a time-out finds the new expiry and
 * is refused with 422, never renewed twice (the Idempotency-Key answers such a retry with the first
 * answer before it gets here).
 */
export async function renewDomain(
  runtime: { store: Store; registry: RegistryDriver; waitSeconds: number },
  operatorId: number,
  input: Renewal,
) {
  const { store, registry } = runtime;
  const name = toDomainName(input.name) ?? input.name.toLowerCase();
  const row = await store.selectFrom('domain').select('item_id').where('name', '=', name).executeTakeFirst();
  const info = row ? await registry.info(row.item_id) : null;
  if (!info) throw new ApiError(422, 'operator.domain_unknown', { name });
  if (info.lifecycle.state !== 'active' && info.lifecycle.state !== 'grace')
    throw new ApiError(422, 'operator.renew_not_allowed', { name });
  if (dayOf(info.expireAt) !== input.curExpDate) throw new ApiError(422, 'operator.renew_stale', { name, date: input.curExpDate });
  const payload: Payloads['renew'] = { years: input.years, curExpDate: info.expireAt, actor: `operator:${operatorId}` };
  // Through the outbox as every registry change (decision 052): billed with the change's settling, once.
  const change = await store.transaction().execute((trx) => queueRegistryChange(trx, { itemId: info.itemId, action: 'renew', payload }));
  let waited: Waited;
  try {
    waited = await awaitChange(store, change, runtime.waitSeconds);
  } catch (error) {
    // The registry's refusal (a period too long, a status that forbids it), in its own words.
    if (error instanceof RegistryError) throw new ApiError(422, 'operator.refused', { reason: error.reason || error.message });
    throw error;
  }
  if (waited === 'pending') throw new ApiError(503, 'operator.renew_pending', { name: info.name });
  const renewed = await store.selectFrom('domain').select('expire_at').where('item_id', '=', info.itemId).executeTakeFirstOrThrow();
  return { id: info.itemId, name: info.name, expireAt: Number(renewed.expire_at) };
}

type Transfer = z.output<typeof operatorDomainTransferSchema>;

/**
 * A transfer in for a realm: the item `item-create --transfer-in` makes, the auth code checked
 * with the registry at once, then the request queued for the registry (its outcome arrives by the
 * poll queue, as a customer's does). Unknown to the registry, already ours or with a wrong code,
 * the item is removed again and nothing is queued.
 */
export async function transferInDomain(runtime: { store: Store; registry: RegistryDriver; secrets: Secrets }, input: Transfer) {
  const { store, registry, secrets } = runtime;
  const item = await createItem(store, { realm: input.realm, reference: input.name, domain: true, transferIn: true });
  try {
    const info = await registry.info(item.id);
    const params = { name: item.reference };
    if (!info || info.heldBy === '') throw new ApiError(422, 'operator.transfer_domain_unknown', params);
    if (info.heldBy === null) throw new ApiError(422, 'operator.domain_ours', params);
    if (!(await registry.checkAuthInfo(item.id, input.authCode))) throw new ApiError(422, 'operator.transfer_authcode_wrong', params);
  } catch (error) {
    await store.deleteFrom('item').where('id', '=', item.id).execute();
    throw error;
  }
  const change = await store.transaction().execute((trx) =>
    queueRegistryChange(trx, {
      itemId: item.id,
      action: 'transferRequest',
      payload: { sealed: secrets.encrypt(input.authCode), years: 1 },
    }),
  );
  return { id: item.id, name: item.reference, change };
}
