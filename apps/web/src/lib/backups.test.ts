import type { Backup, BackupList, BackupRestore } from '@atalaya/contract';
import { describe, expect, it } from 'vitest';
import { BACKUPS_POLL_MS, busyOf, pollWhileWorking, reasonText } from './backups.ts';

const backup = (over: Partial<Backup>): Backup => ({
  id: 1,
  time: '2026-12-01T03:00:00Z',
  finished: null,
  reason: 'schedule',
  status: 'done',
  progress: 100,
  parts: ['web'],
  added: 0,
  size: 0,
  error: null,
  job: null,
  ...over,
});
const restore = (over: Partial<BackupRestore>): BackupRestore => ({
  id: 1,
  backup: 1,
  time: '2026-12-01T04:00:00Z',
  finished: null,
  part: 'web',
  path: '/',
  target: 'copy',
  status: 'done',
  progress: 100,
  result: null,
  error: null,
  job: null,
  ...over,
});
const list = (backups: Backup[], restores: BackupRestore[] = []): BackupList => ({
  backups,
  restores,
  schedule: { time: '03:00', perDay: 3, usedToday: 0 },
  retention: { daily: 7, weekly: 4, monthly: 6 },
});

describe('the list’s polling', () => {
  it('polls while a backup or a restore is queued or running', () => {
    expect(pollWhileWorking(list([backup({ status: 'queued' })]))).toBe(BACKUPS_POLL_MS);
    expect(pollWhileWorking(list([backup({ status: 'running' })]))).toBe(BACKUPS_POLL_MS);
    expect(pollWhileWorking(list([backup({})], [restore({ status: 'running' })]))).toBe(BACKUPS_POLL_MS);
  });
  it('stops once every one has settled, failed ones included, and before the first answer', () => {
    expect(pollWhileWorking(list([backup({}), backup({ id: 2, status: 'failed' })], [restore({ status: 'failed' })]))).toBe(false);
    expect(pollWhileWorking(undefined)).toBe(false);
  });
  it('tells a running backup from a running restore (each blocks only its own button)', () => {
    expect(busyOf(list([backup({ status: 'running' })]))).toEqual({ backup: true, restore: false });
    expect(busyOf(list([], [restore({ status: 'queued' })]))).toEqual({ backup: false, restore: true });
  });
});

describe('a failure’s reason', () => {
  const texts: Record<string, string> = { 'backups.repository_full': 'El almacén está lleno' };
  const exists = (key: string) => key in texts;
  const t = (key: string) => texts[key] ?? key;
  it('is translated when it is a message key, and shown as the tool said it otherwise', () => {
    expect(reasonText('backups.repository_full', exists, t)).toBe('El almacén está lleno');
    expect(reasonText('Fatal: unable to create lock', exists, t)).toBe('Fatal: unable to create lock');
  });
});
