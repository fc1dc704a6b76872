import type { DnsSettings } from '../../drivers/dns/index.ts';
import { normaliseZona } from './names.ts';
import type { DnsRecordTable } from './tables.ts';
import { normalisePriority, normaliseValue } from './values.ts';

/** A record as a change writes it; the store adds its id, zone and time. */
export type NewRecord = Omit<DnsRecordTable, 'id' | 'item_id' | 'created_at'>;

/** The provider's default records for a zone: its name servers at the apex, then the template. */
export function templateRecords(settings: DnsSettings, zone: string): NewRecord[] {
  const fill = (text: string) =>
    text.replaceAll('{zone}', zone).replaceAll('{webIp}', settings.webIp).replaceAll('{mailIp}', settings.mailIp);
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
