import { type Host, type RegistryDriver, RegistryError } from '../interface.ts';
import type { EppContext } from './context.ts';
import { addGlue, glueRecords } from './glue-table.ts';
import { hostCreate, hostDelete, hostInfo, hostUpdateAddresses, readHostInfo } from './host-xml.ts';
import { hostId } from './ids.ts';

/**
 * Glue records: subordinate host objects (RFC 5732) behind ids derived from their names, or, for a
 * registry that takes host attributes, the panel's own rows sent with the name servers.
 */
export function hostMethods(ctx: EppContext): Pick<RegistryDriver, 'listHosts' | 'createHost' | 'updateHost' | 'deleteHost'> {
  const { store, run, change, exists, forChange, touch, domainRow, registered, updateDomain } = ctx;
  const attributes = ctx.settings.hostModel === 'attributes';

  const subordinate = async (itemId: number, id: number) => {
    const { row, domain } = await forChange(itemId);
    const name = domain.hosts.find((h) => hostId(h) === id);
    if (!name) throw new RegistryError('not_found');
    return { row, name };
  };

  const glueRow = async (itemId: number, id: number) => {
    const row = (await glueRecords(store, itemId)).find((h) => h.id === id);
    if (!row) throw new RegistryError('not_found');
    return row;
  };

  return {
    async listHosts(itemId) {
      if (attributes) return glueRecords(store, itemId);
      const row = await domainRow(itemId);
      const domain = await registered(row.name);
      const hosts = await Promise.all(
        domain.hosts.map(async (name): Promise<Host> => {
          const host = readHostInfo((await run(hostInfo(name))).resData);
          return { id: hostId(name), name: host.name.toLowerCase(), ipv4: host.ipv4, ipv6: host.ipv6 };
        }),
      );
      return hosts.sort((a, b) => a.name.localeCompare(b.name));
    },

    async createHost(itemId, host) {
      await forChange(itemId);
      if (attributes) {
        const id = await addGlue(store, itemId, host);
        if (id === null) throw new RegistryError('exists');
        return id;
      }
      if (await exists(hostInfo(host.name))) throw new RegistryError('exists');
      await change(hostCreate(host.name, host), () => exists(hostInfo(host.name)));
      await touch(itemId);
      return hostId(host.name);
    },

    async updateHost(itemId, id, addresses) {
      if (attributes) {
        const { row, domain } = await forChange(itemId);
        const glue = await glueRow(itemId, id);
        if (domain.nameServers.some((h) => h.toLowerCase() === glue.name)) {
          // A delegated name server's addresses change by removing and adding its attribute.
          const next = new Map([[glue.name, addresses]]);
          await updateDomain(row.name, { remNs: [glue.name], addNs: [glue.name], attributes: next }, (d) =>
            d.hostAttrs.some((h) => h.name === glue.name && h.ipv4 === addresses.ipv4 && h.ipv6 === addresses.ipv6),
          );
        }
        await store.updateTable('domain_host').set({ ipv4: addresses.ipv4, ipv6: addresses.ipv6 }).where('id', '=', id).execute();
        await touch(itemId);
        return;
      }
      const { name } = await subordinate(itemId, id);
      const before = readHostInfo((await run(hostInfo(name))).resData);
      if (before.ipv4 === addresses.ipv4 && before.ipv6 === addresses.ipv6) return;
      await change(hostUpdateAddresses(name, before, addresses), async () => {
        const after = readHostInfo((await run(hostInfo(name))).resData);
        return after.ipv4 === addresses.ipv4 && after.ipv6 === addresses.ipv6;
      });
      await touch(itemId);
    },

    async deleteHost(itemId, id) {
      if (attributes) {
        const { domain } = await forChange(itemId);
        const glue = await glueRow(itemId, id);
        if (domain.nameServers.some((h) => h.toLowerCase() === glue.name)) throw new RegistryError('in_use');
        await store.deleteFrom('domain_host').where('id', '=', id).execute();
        await touch(itemId);
        return;
      }
      const { name } = await subordinate(itemId, id);
      await change(hostDelete(name), async () => !(await exists(hostInfo(name))));
      await touch(itemId);
    },
  };
}
