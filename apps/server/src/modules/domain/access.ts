import type { DomainToggle } from '@atalaya/contract';
import { DOMAIN_TOGGLES, TOGGLE_AREA } from '@atalaya/contract';
import type { DomainInfo, RegistryDriver } from '../../drivers/registry/interface.ts';
import { ApiError, notFound } from '../../http/errors.ts';
import { now } from '../../store/db.ts';
import { type ItemAccess, type ItemRequest, narrowTo } from '../permission/access.ts';
import { isUnregistered, registryOf } from './registry.ts';
import { followTransfer } from './transfers.ts';

export interface DomainContext {
  access: ItemAccess;
  info: DomainInfo;
  registry: RegistryDriver;
}

/**
 * The domain of a call its route authorised, as the registry has it, registered or not: what the
 * domain answer and the register call start from. A read only: nothing is written at the registry.
 */
export async function domainAsItIs(request: ItemRequest): Promise<DomainContext> {
  const access = request.access;
  const itemId = access.itemId;
  const registry = registryOf(request);
  // The local registry keeps its state in the store's domain tables, which `auth_version` watches
  // (migration 0022): one read of a domain serves every request until anything changes.
  let info = await request.server.authCache.remember(`registry:${itemId}`, () => registry.info(itemId));
  // Time moves a domain on (expiry, deletion, purge) without any write the cache would notice.
  if (info && info.lifecycle.until > 0 && info.lifecycle.until <= now()) info = await registry.info(itemId);
  if (info && (await followTransfer(request.server.runtime.store, registry, info))) info = await registry.info(itemId);
  if (!info) throw notFound();
  return { access, info, registry };
}

/**
 * The domain of every other call: one the registry has (a domain another registrar holds is shown
 * as the registry shows it to a stranger, and waits for a transfer). A domain not registered yet
 * has nothing to change or list at the registry: 409 until it is registered.
 */
export async function domainOf(request: ItemRequest): Promise<DomainContext> {
  const domain = await domainAsItIs(request);
  if (isUnregistered(domain.info)) throw new ApiError(409, 'domain.not_registered');
  return domain;
}

/** The toggle of the path, checked on its own area (404 for a toggle that does not exist) before the domain is read. */
export async function toggleOf(request: ItemRequest & { params: { toggle: string } }) {
  const toggle = request.params.toggle as DomainToggle;
  if (!(DOMAIN_TOGGLES as readonly string[]).includes(toggle)) throw notFound();
  narrowTo(request, [TOGGLE_AREA[toggle]], 'write');
  return { toggle, ...(await domainOf(request)) };
}
