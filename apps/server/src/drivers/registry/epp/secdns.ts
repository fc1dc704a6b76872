import { type RegistryDriver, RegistryError, type SecDns, type SecDnsData } from '../interface.ts';
import type { EppContext } from './context.ts';
import { secDnsId } from './ids.ts';
import { secDnsUpdate } from './secdns-xml.ts';

/** DNSSEC: secDNS-1.1 records of the domain behind ids derived from their fields. */
export function secDnsMethods(ctx: EppContext): Pick<RegistryDriver, 'listSecDns' | 'addSecDns' | 'removeSecDns'> {
  const { domainRow, registered, forChange, updateDomain, touch } = ctx;
  const withIds = (records: SecDnsData[]): SecDns[] => records.map((d) => ({ ...d, id: secDnsId(d) }));

  return {
    async listSecDns(itemId) {
      const row = await domainRow(itemId);
      return withIds((await registered(row.name)).secDns);
    },

    async addSecDns(itemId, data) {
      const { row, domain } = await forChange(itemId);
      const id = secDnsId(data);
      if (withIds(domain.secDns).some((d) => d.id === id)) throw new RegistryError('exists');
      await updateDomain(row.name, {}, (d) => withIds(d.secDns).some((r) => r.id === id), secDnsUpdate({ add: data }));
      await touch(itemId);
      return id;
    },

    async removeSecDns(itemId, id) {
      const { row, domain } = await forChange(itemId);
      const record = withIds(domain.secDns).find((d) => d.id === id);
      if (!record) throw new RegistryError('not_found');
      await updateDomain(row.name, {}, (d) => !withIds(d.secDns).some((r) => r.id === id), secDnsUpdate({ rem: record }));
      await touch(itemId);
    },
  };
}
