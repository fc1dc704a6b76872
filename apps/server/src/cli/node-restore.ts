import { rebuildReport } from '../modules/backups/rebuild.ts';
import type { Store } from '../store/db.ts';

/**
 * `node-restore --wait`: waits for every rebuild job to end, then says per service what came back
 * from its backups, what failed and what no backup held (its settings are applied, its data lost).
 * `whole` is false when anything was not restored, so a script sees it in the exit code.
 */
export async function nodeRestoreLines(store: Store, queued: { reference: string; job: number }[]) {
  const ids = queued.map((q) => q.job);
  for (;;) {
    const open = await store.selectFrom('job').select('id').where('id', 'in', ids).where('status', 'in', ['pending', 'running']).execute();
    if (open.length === 0) break;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  const lines: string[] = [];
  let whole = true;
  for (const q of queued) {
    const r = await rebuildReport(store, q.job);
    if (r.failed.length || r.lost.length || r.status !== 'done') whole = false;
    lines.push(`${q.reference}: ${r.status === 'done' ? 'rebuilt' : `job ${r.status}${r.error ? ` (${r.error})` : ''}`}`);
    lines.push(`  restored: ${r.restored.join(', ') || '-'}`);
    if (r.failed.length) lines.push(`  not restored (failed): ${r.failed.join(', ')}`);
    if (r.lost.length) lines.push(`  not restored (no backup holds it): ${r.lost.join(', ')}`);
  }
  return { lines, whole };
}
