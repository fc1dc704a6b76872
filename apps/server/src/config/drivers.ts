import type { z } from 'zod';
import { DRIVER_OPTIONS, defaultDriver } from '../drivers/options.ts';
import { keysAt, suggestion, unknownKeys } from './unknown-keys.ts';

const AREAS = Object.keys(DRIVER_OPTIONS) as (keyof typeof DRIVER_OPTIONS)[];

/**
 * `drivers`: each area known, its `driver` one of the area's, and no option that driver's schema
 * does not declare, at any depth. A misspelt area or option would otherwise leave the area on the
 * local simulated driver, or an option at its default, without a word. The values are the
 * driver's to check when it is built (it names the key as well).
 */
export function checkDrivers(drivers: Record<string, Record<string, unknown>>, ctx: z.RefinementCtx) {
  for (const [area, block] of Object.entries(drivers)) {
    if (!Object.hasOwn(DRIVER_OPTIONS, area)) {
      ctx.addIssue({ code: 'custom', path: [area], message: `unknown key (${suggestion(area, AREAS, 'drivers.')})` });
      continue;
    }
    const byName: Record<string, z.ZodType> = DRIVER_OPTIONS[area as keyof typeof DRIVER_OPTIONS];
    const { driver = defaultDriver(area), ...options } = block;
    const schema = typeof driver === 'string' && Object.hasOwn(byName, driver) ? byName[driver] : undefined;
    if (!schema) {
      const message = `unknown driver ${JSON.stringify(driver)} (${suggestion(String(driver), Object.keys(byName))})`;
      ctx.addIssue({ code: 'custom', path: [area, 'driver'], message });
      continue;
    }
    const takesNone = keysAt(schema, []).length === 0;
    const parsed = schema.safeParse(options);
    for (const issue of parsed.error?.issues ?? []) {
      if (issue.code !== 'unrecognized_keys') continue;
      for (const unknown of unknownKeys(schema, issue, ['drivers', area])) {
        const message = takesNone
          ? `unknown key (the ${driver} driver takes no options; drivers.${area}.driver picks another: ${Object.keys(byName).join(', ')})`
          : unknown.message;
        ctx.addIssue({ code: 'custom', path: [area, ...unknown.path], message });
      }
    }
  }
}
