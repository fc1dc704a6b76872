import { z } from 'zod';

/**
 * Where a zone's signing stands: turning on signs, waits until the DNSKEY is known (its TTL), then
 * places the DS; turning off withdraws the DS, waits for its TTL, then unsigns; a key
 * roll adds the new key's DS, waits, switches keys, waits, then removes the old DS (decision 034).
 */
export const DNSSEC_STATES = [
  'off',
  'signing',
  'publishing',
  'placing',
  'on',
  'withdrawing',
  'waiting',
  'unsigning',
  'roll-adding',
  'roll-waiting-ds',
  'roll-swapping',
  'roll-waiting-key',
  'roll-cleaning',
] as const;
export type DnssecState = (typeof DNSSEC_STATES)[number];

const dsSchema = z.object({
  keyTag: z.number(),
  algorithm: z.number(),
  digestType: z.number(),
  digest: z.string(),
  /** The registry holds this DS (known when the panel is the domain's registrar). */
  atRegistry: z.boolean(),
});

/** A zone's DNSSEC as the zone screen shows it: its keys, their DS, and whether the panel places the DS itself. */
export const zoneDnssecSchema = z.object({
  state: z.enum(DNSSEC_STATES),
  /** When the waiting step ends (Unix seconds). */
  dueAt: z.number().nullable(),
  /** The panel is the domain's registrar: it places and withdraws the DS itself. */
  registrar: z.boolean(),
  keys: z.array(
    z.object({ id: z.string(), flags: z.number(), algorithm: z.number(), keyTag: z.number(), active: z.boolean(), dnskey: z.string() }),
  ),
  ds: z.array(dsSchema),
  job: z.number().nullable(),
});
export type ZoneDnssec = z.infer<typeof zoneDnssecSchema>;

const flag = z.union([z.literal(0), z.literal(1), z.literal('0'), z.literal('1')]).transform(Number);

/** The switch; `confirm` 1 goes on when the answer named what would break (409). */
export const dnssecSwitchSchema = z.object({
  enabled: flag,
  nsec3: flag.optional(),
  confirm: flag.optional(),
});
export type DnssecSwitch = z.input<typeof dnssecSwitchSchema>;

/** A risky change goes on with `confirm` 1; without, the answer is 409 naming the consequence. */
export const confirmQuery = z.object({ confirm: flag.optional() });

export const CHECK_LEVELS = ['ok', 'warning', 'error'] as const;

/**
 * One finding of the delegation check: `code` names a message `dns.check.<code>` (what was found)
 * and, unless all is well, `dns.check.<code>_fix` (what to do), both filled with `params`.
 */
export const checkFindingSchema = z.object({
  code: z.string(),
  level: z.enum(CHECK_LEVELS),
  params: z.record(z.string(), z.string()),
  /** Both messages in the caller's language; `fix` empty when all is well. */
  text: z.string(),
  fix: z.string(),
});
export type CheckFinding = z.infer<typeof checkFindingSchema>;
export const delegationCheckSchema = z.object({ zone: z.string(), findings: z.array(checkFindingSchema) });
