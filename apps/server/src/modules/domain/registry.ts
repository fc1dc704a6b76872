import type { FastifyRequest } from 'fastify';
import type { DomainInfo, RegistryDriver } from '../../drivers/registry/interface.ts';

export const registryOf = (request: FastifyRequest): RegistryDriver => request.server.runtime.drivers.registry;

export async function hasService(request: FastifyRequest, itemId: number): Promise<boolean> {
  const row = await request.server.runtime.store.selectFrom('service').select('item_id').where('item_id', '=', itemId).executeTakeFirst();
  return Boolean(row);
}

/**
 * Whether the panel has a domain its registry has not: never registered here, not another
 * registrar's, not waiting for its transfer in, not one the registry purged (those keep their
 * own states). It reads as not registered until it is registered, which is an action of the
 * operator or of a domain writer, never a side effect of a read (decision 051).
 */
export const isUnregistered = (info: DomainInfo) =>
  Object.keys(info.contacts).length === 0 && info.heldBy === null && !info.transferIn && info.lifecycle.state !== 'purged';
