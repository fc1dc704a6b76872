import type { DnsSettings } from '../../drivers/dns/index.ts';
import { normaliseZona } from './names.ts';
import type { DnsRecordTable } from './tables.ts';
import { normalisePriority, normaliseValue } from './values.ts';

/** A record as a change writes it; the store adds its id, zone and time. */
export type NewRecord = Omit<DnsRecordTable, 'id' | 'item_id' | 'created_at'>;

/** A template text with the zone's name and the addresses of the servers that host it. */
export const fillTemplate = (settings: Pick<DnsSettings, 'webIp' | 'mailIp'>, zone: string, text: string) =>
  text.replaceAll('{zone}', zone).replaceAll('{webIp}', settings.webIp).replaceAll('{mailIp}', settings.mailIp);

/**
 * The settings a zone is filled with: the provider's, with the web and mail addresses of the node
 * its service is placed on when that node has an address (decision 047).
 */
export const placedSettings = <S extends Pick<DnsSettings, 'webIp' | 'mailIp'>>(settings: S, nodeAddress: string | null | undefined): S =>
  nodeAddress ? { ...settings, webIp: nodeAddress, mailIp: nodeAddress } : settings;

/** The provider's default records for a zone: its name servers at the apex, then the template. */
export function templateRecords(settings: DnsSettings, zone: string): NewRecord[] {
  const fill = (text: string) => fillTemplate(settings, zone, text);
  const records: NewRecord[] = settings.nameservers.map((ns) => ({
    zona: '',
    type: 'NS',
    ttl: 0,
    priority: null,
    value: normaliseValue('NS', ns),
    dynamic_value: null,
  }));
  for (const t of settings.template) {
    records.push({
      zona: normaliseZona(fill(t.zona), zone, t.type),
      type: t.type,
      ttl: t.ttl,
      priority: normalisePriority(t.type, t.priority),
      value: normaliseValue(t.type, fill(t.value)),
      dynamic_value: t.value.includes('{') ? t.value : null,
    });
  }
  return records;
}
