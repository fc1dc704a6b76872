import type { Area } from '@atalaya/contract';
import type { FastifyRequest } from 'fastify';
import type { DomainInfo, RegistryDriver } from '../../drivers/registry/interface.ts';
import { notFound } from '../../http/errors.ts';
import { openItem } from '../permission/open.ts';
import type { ItemAccess } from '../permission/policy.ts';
import { defaultRegistration } from './defaults.ts';

export const registryOf = (request: FastifyRequest): RegistryDriver => request.server.runtime.drivers.registry;

export interface DomainContext {
  access: ItemAccess;
  info: DomainInfo;
  registry: RegistryDriver;
}

/**
 * The domain of a path id, after the permission check of the area (404 when not visible, 403
 * without write). An item the registry has not seen yet (created by the CLI) is registered with
 * default contacts and name servers on first sight, so every domain has the four contacts.
 */
export async function openDomain(request: FastifyRequest, id: string, area: Area, level: 'read' | 'write'): Promise<DomainContext> {
  const access = await openItem(request, id, area, level);
  const itemId = access.itemId;
  const registry = registryOf(request);
  // The local registry keeps its state in the store's domain tables, which `auth_version` watches
  // (migration 0022): one read of a domain serves every request until anything changes.
  let info = await request.server.authCache.remember(`registry:${itemId}`, () => registry.info(itemId));
  if (!info) throw notFound();
  if (Object.keys(info.contacts).length === 0) {
    const user = request.user!;
    await registry.create(itemId, await defaultRegistration(request.server, itemId, info.name, user.realmName));
    info = (await registry.info(itemId))!;
  }
  return { access, info, registry };
}

export async function hasService(request: FastifyRequest, itemId: number): Promise<boolean> {
  const row = await request.server.store.selectFrom('service').select('item_id').where('item_id', '=', itemId).executeTakeFirst();
  return Boolean(row);
}
