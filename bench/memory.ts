import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** The node flags of `npm start`, so the bench measures the server as operators run it. */
function startFlags(): string[] {
  const start: string = JSON.parse(readFileSync('package.json', 'utf8')).scripts.start;
  const command = start.split('&&').at(-1)!.trim().split(/\s+/);
  return command.slice(1, command.indexOf('apps/server/src/server.ts'));
}

async function idleRss(dataDir: string): Promise<number> {
  const server = spawn(process.execPath, [...startFlags(), 'apps/server/src/server.ts'], {
    env: {
      ...process.env,
      ATALAYA_DATA_DIR: dataDir,
      ATALAYA_DEMO_PASSWORD: 'bench-password-1',
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_URL: '',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve) => server.stdout.on('data', (chunk: Buffer) => chunk.includes('Atalaya is running') && resolve()));
  await new Promise((resolve) => setTimeout(resolve, 10_000));
  const rss = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${server.pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
  server.kill('SIGTERM');
  await new Promise((resolve) => server.on('exit', resolve));
  return rss;
}

/** docs/design.md#budgets: server idle memory on SQLite < 150 MB RSS (second start: nothing to seed). */
export async function memoryScenario() {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'atalaya-rss-'));
  try {
    await idleRss(dataDir);
    const rss = await idleRss(dataDir);
    console.log(
      `\nServer idle RSS on SQLite (npm start's flags: ${startFlags().join(' ')}): ${rss.toFixed(0)} MB (budget < 150 MB${rss < 150 ? '' : ', NOT met'})`,
    );
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
