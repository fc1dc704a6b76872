import path from 'node:path';
import { z } from 'zod';

const absolute = z.string().refine((p) => path.isAbsolute(p) && !p.includes('\0'), 'an absolute path');

/** `config.drivers.backups` of the restic driver (docs/decisions/062-backups-restic.md). */
export const resticOptionsSchema = z.strictObject({
  /** The restic binary: Debian's by default. */
  restic: absolute.default('/usr/bin/restic'),
  /** restic's `--cache-dir` (index and tree blobs it keeps between runs); `<dataDir>/restic-cache` when unset. */
  cacheDir: absolute.optional(),
});
export type ResticOptions = z.infer<typeof resticOptionsSchema>;

export function resticOptions(raw: Record<string, unknown>): ResticOptions {
  const parsed = resticOptionsSchema.safeParse(raw);
  if (!parsed.success) {
    throw new Error(`restic driver options: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  }
  return parsed.data;
}
