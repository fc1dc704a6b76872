import type { NamedTemplate } from '../../../drivers/dns/index.ts';
import { FieldErrors } from '../../../http/errors.ts';
import { normaliseZona } from '../names.ts';
import { normalisePriority, normaliseValue } from '../values.ts';
import type { Offered } from './plan.ts';

/**
 * A provider's named template for one zone, as records offered to the same plan as an import:
 * `{domain}` becomes the zone's name, and each record is checked as the record dialog checks it.
 * `line` is the record's place in the template (1-based), for a refusal to name.
 */
export function templateOffer(template: NamedTemplate, zone: string): Offered[] {
  const fill = (text: string) => text.replaceAll('{domain}', zone);
  return template.records.map((t, i) => ({
    line: i + 1,
    source: `${t.zona || '@'} ${t.type} ${t.value}`,
    record: {
      zona: normaliseZona(fill(t.zona), zone, t.type),
      type: t.type,
      ttl: t.ttl,
      priority: normalisePriority(t.type, t.priority),
      value: normaliseValue(t.type, fill(t.value)),
      dynamic_value: null,
    },
  }));
}

/** Every template must build for a sample zone: a misconfigured one stops the start, not a customer's apply. */
export function checkTemplates(templates: NamedTemplate[]): string | null {
  for (const template of templates) {
    try {
      templateOffer(template, 'example.com');
    } catch (error) {
      const field = error instanceof FieldErrors ? error.fields[0] : null;
      return `drivers.dns.templates (${template.name}): ${field ? field.key : String(error)}`;
    }
  }
  return null;
}
