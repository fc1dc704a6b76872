import { createHash } from 'node:crypto';

/**
 * When each service's nightly backup is due (decision 063), as pure functions of the time. The
 * night starts at `schedule` (the process's local time, as the operator wrote it) and every service
 * gets a minute of the next `windowMinutes` from a hash of its id, so a node's two thousand services
 * start spread over the night rather than all at 03:00, and the same service starts at the same
 * minute every night.
 */
export interface Timing {
  schedule: string;
  windowMinutes: number;
}

const minutesOf = (hhmm: string) => {
  const [h, m] = hhmm.split(':').map(Number);
  return h * 60 + m;
};

/** The service's minute inside the window: the same every night, spread evenly over the services. */
export function offsetOf(itemId: number, windowMinutes: number): number {
  if (windowMinutes <= 0) return 0;
  return createHash('sha256').update(`backup:${itemId}`).digest().readUInt32BE(0) % windowMinutes;
}

/** The day's midnight in local time: the per-day limit counts from it. */
export function startOfDay(at: Date): Date {
  return new Date(at.getFullYear(), at.getMonth(), at.getDate());
}

/** The latest time at or before `at` when the service's nightly backup was to start. */
export function latestSlot(itemId: number, at: Date, timing: Timing): Date {
  const minutes = minutesOf(timing.schedule) + offsetOf(itemId, timing.windowMinutes);
  const day = startOfDay(at);
  // Built from the calendar day, so a daylight-saving change moves no service to another night.
  let slot = new Date(day.getFullYear(), day.getMonth(), day.getDate(), 0, minutes);
  if (slot > at) slot = new Date(day.getFullYear(), day.getMonth(), day.getDate() - 1, 0, minutes);
  return slot;
}

/**
 * Due when its latest slot has come and no nightly backup was queued since (whatever became of it:
 * a failed one was retried already and is reported, not queued again the same night). A service
 * created after its slot waits for the next night. A slot missed while the panel was down is
 * caught up at the next run, a few services at a time.
 */
export function isDue(service: { itemId: number; createdAt: number; lastScheduled: number | null }, at: Date, timing: Timing): boolean {
  const slot = latestSlot(service.itemId, at, timing).getTime() / 1000;
  if (service.createdAt > slot) return false;
  return service.lastScheduled === null || service.lastScheduled < slot;
}

/** When the day's prune runs: once the night's window has ended (plus an hour for the last backups). */
export function pruneSlot(at: Date, timing: Timing): Date {
  const minutes = minutesOf(timing.schedule) + timing.windowMinutes + 60;
  const day = startOfDay(at);
  let slot = new Date(day.getFullYear(), day.getMonth(), day.getDate(), 0, minutes);
  if (slot > at) slot = new Date(day.getFullYear(), day.getMonth(), day.getDate() - 1, 0, minutes);
  return slot;
}

/**
 * The rows retention has emptied: a backup is forgotten once every one of its snapshots was
 * removed by `restic forget` (a part kept by another series keeps the row listed).
 */
export function forgottenRows(rows: { id: number; snapshots: string[] }[], removed: Iterable<string>): number[] {
  const gone = new Set(removed);
  return rows.filter((r) => r.snapshots.length > 0 && r.snapshots.every((s) => gone.has(s))).map((r) => r.id);
}

/** The service's own minute of the night, `HH:MM`, as its backups screen shows it. */
export function nightlyTime(itemId: number, timing: Timing): string {
  const minutes = (minutesOf(timing.schedule) + offsetOf(itemId, timing.windowMinutes)) % 1440;
  return `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
}
