import { appendFileSync } from 'node:fs';

/**
 * A suite's reason to skip (a backend or program missing), or null. It is printed, and added to the
 * file named by ATALAYA_SKIP_LOG so `npm test` lists it in its summary; under CI, where .ci/run
 * installs everything, it is an error instead, so a missing package never passes as a skip.
 */
export function skipReason(reason: string | null): string | null {
  if (!reason) return null;
  console.warn(`skipped: ${reason}`);
  if (process.env.CI) throw new Error(`${reason}; CI must not skip these tests (see .ci/run)`);
  if (process.env.ATALAYA_SKIP_LOG) appendFileSync(process.env.ATALAYA_SKIP_LOG, `${reason}\n`);
  return reason;
}
