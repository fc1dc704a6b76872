import type { DomainToggle } from '@atalaya/contract';
import { DOMAIN_TOGGLES, TOGGLE_AREA } from '@atalaya/contract';
import type { DomainInfo, RegistryDriver } from '../../drivers/registry/interface.ts';
import { notFound } from '../../http/errors.ts';
import { now } from '../../store/db.ts';
import { type ItemAccess, type ItemRequest, narrowTo } from '../permission/access.ts';
import { defaultRegistration } from './defaults.ts';
import { registryOf } from './registry.ts';
import { followTransfer } from './transfers.ts';

export interface DomainContext {
  access: ItemAccess;
  info: DomainInfo;
  registry: RegistryDriver;
}

/**
 * The domain of a call its route authorised: the registry's view of it. An item the registry has
 * not seen yet (created by the CLI) is registered with default contacts and name servers on first
 * sight, so every domain has the four contacts (not one the registry purged); a domain another
 * registrar holds is shown as the registry shows it to a stranger, and waits for a transfer.
 */
export async function domainOf(request: ItemRequest): Promise<DomainContext> {
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
  // Another registrar's domain, one waiting for its transfer in, or one the registry purged is never
  // registered here: registering it again is a new purchase, never a side effect of a read.
  if (Object.keys(info.contacts).length === 0 && info.heldBy === null && !info.transferIn && info.lifecycle.state !== 'purged') {
    const user = request.user!;
    await registry.create(itemId, await defaultRegistration(request.server, itemId, info.name, user.realmName));
    info = (await registry.info(itemId))!;
  }
  return { access, info, registry };
}

/** The toggle of the path, checked on its own area (404 for a toggle that does not exist) before the domain is read. */
export async function toggleOf(request: ItemRequest & { params: { toggle: string } }) {
  const toggle = request.params.toggle as DomainToggle;
  if (!(DOMAIN_TOGGLES as readonly string[]).includes(toggle)) throw notFound();
  narrowTo(request, [TOGGLE_AREA[toggle]], 'write');
  return { toggle, ...(await domainOf(request)) };
}
