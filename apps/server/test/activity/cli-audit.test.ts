import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Loose } from '../fixtures.ts';

const CLI = path.resolve(import.meta.dirname, '../../src/cli/main.ts');
const dataDir = mkdtempSync(path.join(tmpdir(), 'atalaya-audit-'));

function admin(...args: string[]) {
  const result = spawnSync(process.execPath, ['--disable-warning=ExperimentalWarning', CLI, ...args], {
    env: { ...process.env, ATALAYA_DATA_DIR: dataDir, DATABASE_URL: '' },
    encoding: 'utf8',
  });
  return { code: result.status, out: result.stdout, err: result.stderr };
}

describe('admin audit', () => {
  // Five CLI processes, each starting Node and opening the store.
  it('records the changing commands with actor cli and prints the log as JSON lines, by realm and from a day', { timeout: 120_000 }, () => {
    expect(admin('realm-create', 'registro.es').code).toBe(0);
    expect(admin('realm-create', 'otro-registro.es').code).toBe(0);
    expect(admin('user-create', 'registro.es', 'eva', '--password', 'clave-de-eva-larga').code).toBe(0);
    expect(admin('item-create', 'registro.es', 'bitacora.es', '--domain').code).toBe(0);

    const today = new Date().toISOString().slice(0, 10);
    const printed = admin('audit', '--realm', 'registro.es', '--since', today);
    expect(printed.code).toBe(0);
    const lines = printed.out.trim().split('\n');
    const events: Loose[] = lines.map((line) => JSON.parse(line));
    expect(events.map((e) => e.action)).toEqual(['cli.realm-create', 'cli.user-create', 'cli.item-create']);
    expect(events.every((e) => e.actor.kind === 'cli' && e.realm === 'registro.es')).toBe(true);
    expect(events[1].changes).toContainEqual({ field: 'password', before: null, after: '••••••' });
    expect(printed.out).not.toContain('clave-de-eva-larga');
    expect(events[2].item).toMatchObject({ reference: 'bitacora.es' });

    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    expect(admin('audit', '--since', tomorrow).out).toBe('');
    const bad = admin('audit', '--since', 'ayer');
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('--since must be a date as YYYY-MM-DD');
  });
});
