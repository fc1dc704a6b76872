import type { FastifyRequest } from 'fastify';
import type { RegistryDriver } from '../../drivers/registry/interface.ts';

export const registryOf = (request: FastifyRequest): RegistryDriver => request.server.runtime.drivers.registry;

export async function hasService(request: FastifyRequest, itemId: number): Promise<boolean> {
  const row = await request.server.runtime.store.selectFrom('service').select('item_id').where('item_id', '=', itemId).executeTakeFirst();
  return Boolean(row);
}
